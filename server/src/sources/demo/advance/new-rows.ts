/** The few rows a demo sync adds from the PRNG: new downloads and new releases. */
import { AccountStatus } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../../db/schema'
import { queueTorrents } from '../../../derive/queue'
import { GIB } from '../../../rules/rules'
import { demoCategories, demoTeams, NO_TEAM_WEIGHT, sizeProfile, torrentName } from '../names'
import { type Prng, WeightedPicker } from '../prng'
import { maxId } from './sql'

/** Adds rows written to a table's count (the sync's progress). */
export type Count = (table: string, n: bigint | number | undefined) => void

/** Members in good standing with a site account: the ones whose clients the demo site has. */
function activeSiteMembers(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .select(['id', 'site_uid'])
    .where('site_uid', 'is not', null)
    .where('status', '=', AccountStatus.Normal)
    .orderBy('id')
    .execute()
}

/** A few members start downloading something new (a snatch and a leeching peer). */
export async function newDownloads(db: Kysely<DB>, rng: Prng, now: number, count: Count): Promise<void> {
  const members = await activeSiteMembers(db)
  const torrentBounds = await sql<{ lo: number; hi: number }>`select min(id) as lo, max(id) as hi from site_torrents`.execute(db)
  const lo = Number(torrentBounds.rows[0]?.lo ?? 0)
  const hi = Number(torrentBounds.rows[0]?.hi ?? 0)
  if (!members.length || !hi) return
  let snatchId = await maxId(db, 'site_snatched')
  let peerId = await maxId(db, 'site_peers')
  const starts = Math.max(1, Math.round(members.length * 0.05))
  for (let i = 0; i < starts; i++) {
    const m = rng.pick(members)
    const torrentId = rng.int(lo, hi)
    const torrent = await db.selectFrom('site_torrents').select(['id', 'size']).where('id', '=', torrentId).executeTakeFirst()
    if (!torrent) continue
    const taken = await db
      .selectFrom('site_snatched')
      .select('id')
      .where('userid', '=', m.site_uid!)
      .where('torrentid', '=', torrent.id)
      .executeTakeFirst()
    if (taken) continue
    const toGo = Math.round(torrent.size * (0.3 + rng.next() * 0.7))
    await db
      .insertInto('site_snatched')
      .values({
        id: ++snatchId,
        torrentid: torrent.id,
        userid: m.site_uid!,
        uploaded: 0,
        downloaded: torrent.size - toGo,
        to_go: toGo,
        seedtime: 0,
        leechtime: 600,
        last_action: now,
        startdat: now - 600_000,
        completedat: null,
        finished: 0,
      })
      .execute()
    await db
      .insertInto('site_peers')
      .values({
        id: ++peerId,
        torrent: torrent.id,
        peer_id: rng.hex(20),
        ip: `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
        port: rng.int(10_000, 65_000),
        uploaded: 0,
        downloaded: torrent.size - toGo,
        to_go: toGo,
        seeder: 0,
        started: now - 600_000,
        last_action: now - rng.int(0, 300) * 1000,
        prev_action: now - 900_000,
        userid: m.site_uid!,
        agent: 'qBittorrent/5.0.2',
        finishedat: null,
      })
      .execute()
    await db.insertInto('derive_queue').values({ user_id: m.id, torrent_id: torrent.id }).execute()
    count('site_snatched', 1)
    count('site_peers', 1)
  }
}

/** A few new releases, some by official teams, some uploaded by members (who seed them at once). */
export async function newTorrents(db: Kysely<DB>, rng: Prng, now: number, count: Count): Promise<void> {
  const total = Number((await sql<{ n: number }>`select count(*) as n from site_torrents`.execute(db)).rows[0].n)
  const releases = Math.max(1, Math.round(total * 0.0003 * (0.5 + rng.next())))
  const teams = await db.selectFrom('site_teams').select(['id', 'name']).orderBy('id').execute()
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const uploaders = await activeSiteMembers(db)
  let torrentId = await maxId(db, 'site_torrents')
  let peerId = await maxId(db, 'site_peers')
  let snatchId = await maxId(db, 'site_snatched')
  for (let i = 0; i < releases; i++) {
    const teamIndex = teamPicker.pick(rng)
    const team = teamIndex < demoTeams.length ? demoTeams[teamIndex] : null
    const teamId = team ? (teams.find((t) => t.name === team.name)?.id ?? null) : null
    const kind = team ? rng.pick(team.kinds) : rng.pick(demoCategories).kind
    const profile = sizeProfile[kind]
    const size = Math.round(Math.min(80 * GIB, Math.max(200 * 1024 ** 2, rng.logNormal(profile.medianGiB * GIB, profile.sigma))))
    const owner = uploaders.length && rng.chance(0.3) ? rng.pick(uploaders) : null
    const id = ++torrentId
    const categoryName = demoCategories.find((c) => c.kind === kind)!.name
    const category = await db.selectFrom('site_categories').select('id').where('name', '=', categoryName).executeTakeFirst()
    await db
      .insertInto('site_torrents')
      .values({
        id,
        info_hash: rng.hex(20),
        name: torrentName(rng, kind, new Date(now).getUTCFullYear(), team?.name ?? null),
        size,
        category: category?.id ?? null,
        team: teamId,
        added: now - rng.int(0, 600) * 1000,
        seeders: 1,
        leechers: rng.int(0, 20),
        times_completed: 0,
        owner: owner?.site_uid ?? 1,
      })
      .execute()
    await queueTorrents(db, [id])
    count('site_torrents', 1)
    if (owner) {
      await db
        .insertInto('site_snatched')
        .values({
          id: ++snatchId,
          torrentid: id,
          userid: owner.site_uid!,
          uploaded: 0,
          downloaded: size,
          to_go: 0,
          seedtime: 0,
          leechtime: 0,
          last_action: now,
          startdat: now,
          completedat: now,
          finished: 1,
        })
        .execute()
      await db
        .insertInto('site_peers')
        .values({
          id: ++peerId,
          torrent: id,
          peer_id: rng.hex(20),
          ip: `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
          port: rng.int(10_000, 65_000),
          uploaded: 0,
          downloaded: 0,
          to_go: 0,
          seeder: 1,
          started: now,
          last_action: now,
          prev_action: now,
          userid: owner.site_uid!,
          agent: 'qBittorrent/5.0.2',
          finishedat: now,
        })
        .execute()
      await db.insertInto('derive_queue').values({ user_id: owner.id, torrent_id: id }).execute()
    }
  }
}
