/**
 * Generates the demo community into an empty mirror (plus our members, admins and assignments):
 * release groups and tags (some official), torrents with scene-style names, log-normal sizes and
 * ages over years, members with skewed activity, and their peers, snatches and claims. Everything
 * comes from one seeded PRNG, so the same seed and clock give the same community.
 *
 * Rows are produced member by member and flushed in bulk; the mirror's secondary indexes are
 * built once at the end (see db/bulk.ts).
 */
import type { AppDatabase } from '../../db/database'
import { bulkInsert, type BulkColumns, type BulkRow, withDeferredIndexes } from '../../db/bulk'
import { GIB } from '../../rules/rules'
import type { MirrorRows } from '../mirror'
import { byMirrorTable, mirrorColumnsOf, mirrorTables, type MirrorTable } from '../mirror/columns'
import {
  clientAgents,
  demoCategories,
  demoTags,
  demoTeams,
  NO_TEAM_WEIGHT,
  officialDemoTags,
  sizeProfile,
  torrentName,
  username,
  type TorrentKind,
} from './names'
import { Prng, WeightedPicker } from './prng'
import type { DemoScale } from './scale'

const MIB = 1024 ** 2
const HOUR = 3600_000
const DAY = 24 * HOUR
const YEAR = 365 * DAY

/** First ids of the site's tables: real sites are years old, their ids are not small. */
export const FIRST_SITE_UID = 10_001
export const FIRST_TORRENT_ID = 100_001

export interface GenerateOptions {
  scale: DemoScale
  seed: string
  now: number
  /** Stored for every demo member (one hash: scrypt per member would take minutes). */
  memberPasswordHash: string
  /** One per extra admin. */
  adminPasswordHashes: string[]
  /** Active window of the rules, so "active" peers are generated inside it. */
  activeWindowMinutes: number
}

export interface GeneratedCounts {
  siteUsers: number
  members: number
  admins: number
  torrents: number
  officialCandidates: number
  peers: number
  snatches: number
  claims: number
  assignments: number
}

interface TorrentDraft {
  id: number
  kind: TorrentKind
  category: number
  team: number | null
  size: number
  added: number
  tags: number[]
  owner: number
  official: boolean
  popularity: number
}

interface MemberDraft {
  userId: number
  siteUid: number
  records: number
  seedRate: number
  claimRate: number
  uploader: boolean
}

/** Tables of ours the demo fills next to the mirror (the mirror's columns are in mirror/columns.ts). */
const columns = {
  assignments: [
    ['torrent_id', 'integer'],
    ['user_id', 'integer'],
    ['assigned_at', 'bigint'],
    ['assigned_by', 'integer'],
  ],
  users: [
    ['username', 'text'],
    ['username_lower', 'text'],
    ['password_hash', 'text'],
    ['role', 'text'],
    ['status', 'smallint'],
    ['site_uid', 'integer'],
    ['remark', 'text'],
    ['created_at', 'bigint'],
    ['admin_since', 'bigint'],
    ['last_login_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
} satisfies Record<string, BulkColumns>

/** Buffers rows per table and writes them in bulk when a buffer is full (bounded memory at 2M records). */
class Sink {
  private readonly buffers = new Map<string, BulkRow[]>()
  constructor(
    private readonly database: AppDatabase,
    private readonly limit = 100_000,
  ) {}

  /** A mirror row, written in the mirror's column order. */
  async addMirror<T extends MirrorTable>(table: T, row: MirrorRows[T]): Promise<void> {
    await this.add(table, mirrorBulkColumns[table], mirrorBulkRow(table, row))
  }

  async add(table: string, cols: BulkColumns, row: BulkRow): Promise<void> {
    let buffer = this.buffers.get(table)
    if (!buffer) this.buffers.set(table, (buffer = []))
    buffer.push(row)
    if (buffer.length >= this.limit) await this.flush(table, cols)
  }

  async flush(table: string, cols: BulkColumns): Promise<void> {
    const buffer = this.buffers.get(table)
    if (!buffer?.length) return
    this.buffers.set(table, [])
    await bulkInsert(this.database, table, cols, buffer)
  }
}

/** Each mirror table's bulk columns: the mirror's columns with the migrations' SQL types. */
const mirrorBulkColumns = byMirrorTable((table): BulkColumns => mirrorColumnsOf(table).map(({ name, sql }) => [name, sql] as const))

/** A mirror row as a bulk row (values in the mirror's column order). */
function mirrorBulkRow<T extends MirrorTable>(table: T, row: MirrorRows[T]): BulkRow {
  const cols = mirrorBulkColumns[table]
  const values: Record<string, string | number | null> = row
  const out = new Array<string | number | null>(cols.length)
  for (let i = 0; i < cols.length; i++) out[i] = values[cols[i][0]]
  return out
}

export async function generateCommunity(database: AppDatabase, options: GenerateOptions): Promise<GeneratedCounts> {
  return withDeferredIndexes(database, [...mirrorTables, 'assignments'], [], () => generate(database, options))
}

async function generate(database: AppDatabase, options: GenerateOptions): Promise<GeneratedCounts> {
  const { scale, now } = options
  const rng = new Prng(options.seed)
  const sink = new Sink(database)
  const activeWindow = options.activeWindowMinutes * 60_000
  const counts: GeneratedCounts = {
    siteUsers: 0,
    members: 0,
    admins: 0,
    torrents: 0,
    officialCandidates: 0,
    peers: 0,
    snatches: 0,
    claims: 0,
    assignments: 0,
  }

  // ---- teams, categories, tags
  await bulkInsert(
    database,
    'site_teams',
    mirrorBulkColumns.site_teams,
    demoTeams.map((t, i) => [i + 1, t.name, i]),
  )
  await bulkInsert(
    database,
    'site_categories',
    mirrorBulkColumns.site_categories,
    demoCategories.map((c, i) => [401 + i, c.name, i]),
  )
  await bulkInsert(
    database,
    'site_tags',
    mirrorBulkColumns.site_tags,
    demoTags.map((name, i) => [i + 1, name, i]),
  )
  const officialTagIds = new Set(officialDemoTags.map((name) => demoTags.indexOf(name) + 1))

  // ---- site users (usernames unique regardless of case; `admin` is ours already)
  const used = new Set<string>(['admin'])
  const siteNames: string[] = []
  for (let i = 0; i < scale.siteUsers; i++) {
    let name = username(rng)
    while (used.has(name.toLowerCase())) name = `${username(rng)}${rng.int(1, 9999)}`
    used.add(name.toLowerCase())
    siteNames.push(name)
    const added = now - Math.round(rng.next() ** 0.7 * 8 * YEAR)
    const lastAccess = now - Math.round(rng.next() ** 3 * 200 * DAY)
    await sink.addMirror('site_users', {
      id: FIRST_SITE_UID + i,
      username: name,
      class: rng.pick([1, 1, 2, 3, 4, 5, 6]),
      enabled: rng.chance(0.97) ? 1 : 0,
      status: 'confirmed',
      added,
      last_access: lastAccess,
    })
  }
  await sink.flush('site_users', mirrorBulkColumns.site_users)
  counts.siteUsers = scale.siteUsers

  // ---- our members and admins: distinct site users
  const memberCount = scale.members + scale.extraAdmins
  const siteIndexes = shuffle(
    rng,
    Array.from({ length: scale.siteUsers }, (_, i) => i),
  ).slice(0, memberCount)
  const members: MemberDraft[] = []
  const userRows: BulkRow[] = []
  for (let i = 0; i < memberCount; i++) {
    const admin = i < scale.extraAdmins
    const siteIndex = siteIndexes[i]
    const name = siteNames[siteIndex]
    // A few banned and deleted members (at least one banned in any community of ten or more, so
    // the 无工资 status has someone to show it).
    const forcedBan = !admin && scale.members >= 10 && i === scale.extraAdmins + Math.floor(scale.members / 2)
    const status = admin ? 2 : forcedBan || rng.chance(0.03) ? 0 : rng.chance(0.015) ? 1 : 2
    const joined = now - Math.round((0.05 + rng.next() * 0.95) * 2 * YEAR)
    const lastLogin = rng.chance(0.75) ? now - Math.round(rng.next() ** 2 * 30 * DAY) : null
    userRows.push([
      name,
      name.toLowerCase(),
      admin ? options.adminPasswordHashes[i] : options.memberPasswordHash,
      admin ? 'admin' : 'normal',
      status,
      FIRST_SITE_UID + siteIndex,
      admin ? '保种组管理员' : rng.chance(0.1) ? rng.pick(['盒子用户', '家宽', '长期保种', '新人']) : '',
      joined,
      admin ? joined : null,
      lastLogin,
      joined,
    ])
    members.push({
      userId: 0, // known after the insert
      siteUid: FIRST_SITE_UID + siteIndex,
      records: Math.max(10, Math.round(rng.logNormal(scale.recordsPerMember * 0.75, 0.75))),
      seedRate: 0.15 + rng.next() * 0.7,
      claimRate: 0.3 + rng.next() * 0.5,
      uploader: rng.chance(0.12),
    })
  }
  await bulkInsert(database, 'users', columns.users, userRows)
  const ids = await database.db.selectFrom('users').select(['id', 'site_uid']).where('site_uid', 'is not', null).execute()
  const idBySiteUid = new Map(ids.map((row) => [row.site_uid, row.id]))
  for (const m of members) m.userId = idBySiteUid.get(m.siteUid)!
  counts.members = scale.members
  counts.admins = scale.extraAdmins

  // ---- torrents (drafts now; rows after the records, which decide seeders)
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const uploaders = members.filter((m) => m.uploader)
  const torrents: TorrentDraft[] = []
  for (let i = 0; i < scale.torrents; i++) {
    const teamIndex = teamPicker.pick(rng)
    const team = teamIndex < demoTeams.length ? demoTeams[teamIndex] : null
    const kind = team ? rng.pick(team.kinds) : rng.pick(demoCategories).kind
    const profile = sizeProfile[kind]
    const size = Math.round(Math.min(80 * GIB, Math.max(200 * MIB, rng.logNormal(profile.medianGiB * GIB, profile.sigma))))
    // More releases lately: age skewed towards now, over six years.
    const added = now - Math.round(rng.next() ** 1.6 * 6 * YEAR) - rng.int(0, DAY)
    const tags: number[] = []
    if (!team && rng.chance(0.06)) tags.push(...officialTagIds)
    if (rng.chance(0.3)) tags.push(rng.int(2, 3))
    if (rng.chance(0.12)) tags.push(rng.int(4, demoTags.length))
    const uniqueTags = [...new Set(tags)]
    const official = size >= GIB && (Boolean(team?.official) || uniqueTags.some((t) => officialTagIds.has(t)))
    const owner = uploaders.length && rng.chance(0.05) ? rng.pick(uploaders).siteUid : FIRST_SITE_UID + rng.int(0, scale.siteUsers - 1)
    torrents.push({
      id: FIRST_TORRENT_ID + i,
      kind,
      category: 401 + demoCategories.findIndex((c) => c.kind === kind),
      team: team ? teamIndex + 1 : null,
      size,
      added,
      tags: uniqueTags,
      owner,
      official,
      // Popularity: heavy-tailed, and fresher torrents are wanted more.
      popularity: rng.logNormal(1, 1.1) * (1 + 2 * Math.exp(-(now - added) / YEAR)),
    })
  }
  counts.torrents = torrents.length
  const officialTorrents = torrents.filter((t) => t.official)
  counts.officialCandidates = officialTorrents.length
  const anyPicker = new WeightedPicker(torrents.map((t) => t.popularity))
  const officialPicker = new WeightedPicker(officialTorrents.map((t) => t.popularity))
  const memberSeeders = new Int32Array(torrents.length)
  const memberLeechers = new Int32Array(torrents.length)
  const bySiteUid = new Map(members.map((m) => [m.siteUid, m]))

  // ---- ties, member by member
  let peerId = 1
  let snatchId = 1
  let claimId = 1
  const peer = async (
    torrent: TorrentDraft,
    m: MemberDraft,
    seeding: boolean,
    lastAction: number,
    toGo: number,
    uploaded: number,
    finishedAt: number | null,
  ) => {
    counts.peers++
    const started = lastAction - rng.int(1, 240) * HOUR
    await sink.addMirror('site_peers', {
      id: peerId++,
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
    if (seeding) memberSeeders[index]++
    else memberLeechers[index]++
  }

  for (const m of members) {
    const picked = new Set<number>()
    const want = Math.min(m.records, Math.floor(torrents.length * 0.3))
    for (let tries = 0; picked.size < want && tries < want * 4; tries++) {
      const torrent =
        rng.chance(0.55) && officialTorrents.length ? officialTorrents[officialPicker.pick(rng)] : torrents[anyPicker.pick(rng)]
      picked.add(torrent.id - FIRST_TORRENT_ID)
    }
    for (const index of picked) {
      const torrent = torrents[index]
      const age = now - torrent.added
      if (rng.chance(0.06)) {
        // Never downloaded: assigned (official torrents) or claimed in advance.
        if (torrent.official && rng.chance(0.7)) {
          counts.assignments++
          await sink.add('assignments', columns.assignments, [torrent.id, m.userId, now - rng.int(1, 90) * DAY, 1])
        } else {
          counts.claims++
          const at = now - rng.int(1, 60) * DAY
          await sink.addMirror('site_claims', {
            id: claimId++,
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
        continue
      }
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
          ? now - rng.int(0, Math.min(activeWindow - 60_000, 25 * 60_000))
          : stalePeer
            ? now - activeWindow - rng.int(1, 120) * 60_000
            : Math.min(now - 2 * HOUR, since + Math.round(seedtime * 1000 + rng.next() * 30 * DAY))
      counts.snatches++
      const snatched = snatchId++
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
      if (activeSeeding || stalePeer) await peer(torrent, m, true, lastAction, 0, Math.round(uploaded * rng.next() * 0.3), completedat)
      else if (leeching) await peer(torrent, m, false, lastAction, toGo, 0, null)

      if (rng.chance(torrent.official ? m.claimRate : 0.05)) {
        counts.claims++
        const at = Math.min(now - HOUR, (completedat ?? startdat) + rng.int(0, 20) * DAY)
        await sink.addMirror('site_claims', {
          id: claimId++,
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
        await sink.add('assignments', columns.assignments, [torrent.id, m.userId, Math.max(torrent.added, now - rng.int(1, 365) * DAY), 1])
      }
    }
  }

  // Uploaders among the members seed what they released (an owner tie without a picked record).
  for (const torrent of torrents) {
    const m = bySiteUid.get(torrent.owner)
    if (!m || !rng.chance(0.75)) continue
    await peer(torrent, m, true, now - rng.int(0, 20) * 60_000, 0, Math.round(torrent.size * rng.logNormal(2, 1)), torrent.added)
  }

  // ---- torrents and tags now that member seeders are known
  let tagRowId = 1
  for (const [index, t] of torrents.entries()) {
    const outsideSeeders = Math.round(t.popularity * rng.next() * 12)
    const seeders = memberSeeders[index] + outsideSeeders
    const leechers = memberLeechers[index] + (rng.chance(0.15) ? rng.int(1, 6) : 0)
    await sink.addMirror('site_torrents', {
      id: t.id,
      info_hash: rng.hex(20),
      name: torrentName(
        rng,
        t.kind,
        new Date(t.added).getUTCFullYear() - (rng.chance(0.4) ? rng.int(0, 30) : 0),
        t.team ? demoTeams[t.team - 1].name : null,
      ),
      size: t.size,
      category: t.category,
      team: t.team,
      added: t.added,
      seeders,
      leechers,
      times_completed: seeders * rng.int(2, 6) + rng.int(0, 40),
      owner: t.owner,
      visible: 1,
      banned: 0,
    })
    for (const tag of t.tags) await sink.addMirror('site_torrent_tags', { id: tagRowId++, torrent_id: t.id, tag_id: tag })
  }
  for (const [table, cols] of [
    ['site_torrents', mirrorBulkColumns.site_torrents],
    ['site_torrent_tags', mirrorBulkColumns.site_torrent_tags],
    ['site_peers', mirrorBulkColumns.site_peers],
    ['site_snatched', mirrorBulkColumns.site_snatched],
    ['site_claims', mirrorBulkColumns.site_claims],
    ['assignments', columns.assignments],
  ] as const) {
    await sink.flush(table, cols)
  }
  return counts
}

function shuffle<T>(rng: Prng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[items[i], items[j]] = [items[j], items[i]]
  }
  return items
}

export const demoOfficialTeams = demoTeams.filter((t) => t.official).map((t) => t.name)
export { officialDemoTags }
