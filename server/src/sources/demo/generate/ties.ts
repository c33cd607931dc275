/**
 * The members' ties to torrents, member by member: snatches, the peers of those still seeding or
 * leeching, claims, assignments; then the uploaders among the members seeding what they released.
 */
import { announceIntervalMs } from '../announce'
import { clientAgents } from '../names'
import { WeightedPicker } from '../prng'
import { DAY, FIRST_TORRENT_ID, type GenerateContext, HOUR, type MemberDraft, type TorrentDraft } from './context'
import { ownColumns } from './sink'

/** Peers of members per torrent (by index in the drafts), which the torrents' counts start from. */
export interface TieCounts {
  seeders: Int32Array
  leechers: Int32Array
}

export async function writeTies(
  ctx: GenerateContext,
  members: readonly MemberDraft[],
  torrents: readonly TorrentDraft[],
): Promise<TieCounts> {
  const writer = new TieWriter(ctx, torrents)
  for (const m of members) await writer.member(m)
  await writer.uploaders(members)
  return writer.tieCounts
}

class TieWriter {
  readonly tieCounts: TieCounts
  private readonly officialTorrents: readonly TorrentDraft[]
  private readonly anyPicker: WeightedPicker
  private readonly officialPicker: WeightedPicker
  private readonly activeWindow: number
  private peerId = 1
  private snatchId = 1
  private claimId = 1

  constructor(
    private readonly ctx: GenerateContext,
    private readonly torrents: readonly TorrentDraft[],
  ) {
    this.officialTorrents = torrents.filter((t) => t.official)
    this.anyPicker = new WeightedPicker(torrents.map((t) => t.popularity))
    this.officialPicker = new WeightedPicker(this.officialTorrents.map((t) => t.popularity))
    this.tieCounts = { seeders: new Int32Array(torrents.length), leechers: new Int32Array(torrents.length) }
    this.activeWindow = ctx.options.activeWindowMinutes * 60_000
  }

  /** A member's ties: torrents picked by popularity, official ones more often. */
  async member(m: MemberDraft): Promise<void> {
    const { rng } = this.ctx
    const { torrents, officialTorrents } = this
    const picked = new Set<number>()
    const want = Math.min(m.records, Math.floor(torrents.length * 0.3))
    for (let tries = 0; picked.size < want && tries < want * 4; tries++) {
      const torrent =
        rng.chance(0.55) && officialTorrents.length ? officialTorrents[this.officialPicker.pick(rng)] : torrents[this.anyPicker.pick(rng)]
      picked.add(torrent.id - FIRST_TORRENT_ID)
    }
    for (const index of picked) {
      if (rng.chance(0.06)) await this.inAdvance(m, torrents[index])
      else await this.snatch(m, torrents[index])
    }
  }

  /** Never downloaded: assigned (official torrents) or claimed in advance. */
  private async inAdvance(m: MemberDraft, torrent: TorrentDraft): Promise<void> {
    const { rng, sink, counts, options } = this.ctx
    const { now } = options
    if (torrent.official && rng.chance(0.7)) {
      counts.assignments++
      await sink.add('assignments', ownColumns.assignments, [torrent.id, m.userId, now - rng.int(1, 90) * DAY, 1])
    } else {
      counts.claims++
      const at = now - rng.int(1, 60) * DAY
      await sink.addMirror('site_claims', {
        id: this.claimId++,
        uid: m.siteUid,
        torrent_id: torrent.id,
        snatched_id: null,
        seed_time_begin: 0,
        uploaded_begin: 0,
        last_settle_at: null,
        created_at: at,
        updated_at: at,
      })
    }
  }

  /** A downloaded torrent: its snatch, a peer if still active, maybe a claim and an assignment. */
  private async snatch(m: MemberDraft, torrent: TorrentDraft): Promise<void> {
    const { rng, sink, counts, options } = this.ctx
    const { now } = options
    const activeWindow = this.activeWindow
    const age = now - torrent.added
    const finished = rng.chance(0.9)
    const startdat = torrent.added + Math.round(rng.next() * age * 0.85)
    const leechHours = 0.2 + rng.next() * 20
    const completedat = finished ? Math.min(now - HOUR, startdat + Math.round(leechHours * HOUR)) : null
    const activeSeeding = finished && rng.chance(m.seedRate)
    const stalePeer = finished && !activeSeeding && rng.chance(0.04)
    const leeching = !finished && rng.chance(0.35)
    const since = completedat ?? startdat
    const seedFraction = activeSeeding ? 0.5 + rng.next() * 0.45 : finished ? 0.03 + rng.next() * 0.5 : 0
    const seedtime = Math.round(((now - since) / 1000) * seedFraction)
    const uploaded = Math.round(torrent.size * rng.logNormal(0.5, 1.3) * Math.min(1, 0.2 + seedFraction))
    const progress = finished ? 1 : rng.next() * 0.95
    const toGo = finished ? 0 : Math.round(torrent.size * (1 - progress))
    const lastAction =
      activeSeeding || leeching
        ? this.lastAnnounce(torrent)
        : stalePeer
          ? now - activeWindow - rng.int(1, 120) * 60_000
          : Math.min(now - 2 * HOUR, since + Math.round(seedtime * 1000 + rng.next() * 30 * DAY))
    counts.snatches++
    const snatched = this.snatchId++
    await sink.addMirror('site_snatched', {
      id: snatched,
      torrentid: torrent.id,
      userid: m.siteUid,
      ip: `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
      port: rng.int(10_000, 65_000),
      uploaded,
      downloaded: Math.round(torrent.size * progress * (1 + rng.next() * 0.05)),
      to_go: toGo,
      seedtime,
      leechtime: Math.round(leechHours * 3600),
      last_action: lastAction,
      startdat,
      completedat,
      finished: finished ? 1 : 0,
    })
    if (activeSeeding || stalePeer) await this.peer(torrent, m, true, lastAction, 0, Math.round(uploaded * rng.next() * 0.3), completedat)
    else if (leeching) await this.peer(torrent, m, false, lastAction, toGo, 0, null)

    if (rng.chance(torrent.official ? m.claimRate : 0.05)) {
      counts.claims++
      const at = Math.min(now - HOUR, (completedat ?? startdat) + rng.int(0, 20) * DAY)
      await sink.addMirror('site_claims', {
        id: this.claimId++,
        uid: m.siteUid,
        torrent_id: torrent.id,
        snatched_id: snatched,
        seed_time_begin: Math.round(seedtime * rng.next() * 0.5),
        uploaded_begin: Math.round(uploaded * rng.next() * 0.5),
        last_settle_at: null,
        created_at: at,
        updated_at: at,
      })
    }
    if (torrent.official && rng.chance(0.1)) {
      counts.assignments++
      await sink.add('assignments', ownColumns.assignments, [torrent.id, m.userId, Math.max(torrent.added, now - rng.int(1, 365) * DAY), 1])
    }
  }

  /** Uploaders among the members seed what they released (an owner tie without a picked record). */
  async uploaders(members: readonly MemberDraft[]): Promise<void> {
    const { rng } = this.ctx
    const bySiteUid = new Map(members.map((m) => [m.siteUid, m]))
    for (const torrent of this.torrents) {
      const m = bySiteUid.get(torrent.owner)
      if (!m || !rng.chance(0.75)) continue
      await this.peer(torrent, m, true, this.lastAnnounce(torrent), 0, Math.round(torrent.size * rng.logNormal(2, 1)), torrent.added)
    }
  }

  /** An active peer's last announce: within its interval (NexusPHP's, by the torrent's age) and the active window. */
  private lastAnnounce(torrent: TorrentDraft): number {
    const { rng, options } = this.ctx
    return options.now - rng.int(0, Math.min(this.activeWindow - 60_000, announceIntervalMs(torrent.added, options.now)))
  }

  private async peer(
    torrent: TorrentDraft,
    m: MemberDraft,
    seeding: boolean,
    lastAction: number,
    toGo: number,
    uploaded: number,
    finishedAt: number | null,
  ): Promise<void> {
    const { rng, sink, counts } = this.ctx
    counts.peers++
    const started = lastAction - rng.int(1, 240) * HOUR
    await sink.addMirror('site_peers', {
      id: this.peerId++,
      torrent: torrent.id,
      peer_id: rng.hex(20),
      ip: `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
      port: rng.int(10_000, 65_000),
      uploaded,
      downloaded: seeding ? 0 : torrent.size - toGo,
      to_go: toGo,
      seeder: seeding ? 1 : 0,
      started,
      last_action: lastAction,
      prev_action: lastAction - rng.int(5, 30) * 60_000,
      connectable: rng.chance(0.8) ? 1 : 0,
      userid: m.siteUid,
      agent: rng.pick(clientAgents),
      finishedat: finishedAt,
    })
    const index = torrent.id - FIRST_TORRENT_ID
    if (seeding) this.tieCounts.seeders[index]++
    else this.tieCounts.leechers[index]++
  }
}
