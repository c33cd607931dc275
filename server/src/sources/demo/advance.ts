/**
 * One sync of the demo source: the community lives on. Seeders keep announcing and their counters
 * grow with the time since the last sync, a few stop (they age out of the active window, and the
 * tracker's cleanup drops them two hours later), some stopped snatches start seeding again, members
 * start new downloads and finish running ones, claims appear, new torrents are released, seeder
 * counts drift. Set-based SQL for what touches many rows (in id ranges: each statement is synchronous on
 * SQLite), a seeded PRNG for the few new rows.
 * Every change queues its keys for the derivation in the same transaction.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { AppDatabase, DialectName } from '../../db/database'
import type { DB } from '../../db/schema'
import { int } from '../../db/sql-fragments'
import { queueSiteRows, queueTorrents } from '../../derive/queue'
import { GIB } from '../../rules/rules'
import { demoCategories, demoTeams, NO_TEAM_WEIGHT, sizeProfile, torrentName } from './names'
import { Prng, WeightedPicker } from './prng'

const HOUR = 3600_000
/** Growth is simulated for at most this long, however long the server was down. */
const MAX_ELAPSED_MS = 2 * 24 * HOUR
/** NexusPHP's cleanup drops peers that stopped announcing; ours after this long. */
const PEER_CLEANUP_MS = 2 * HOUR

export interface DemoState {
  seed: string
  size: string
  syncs: number
  lastAdvanceAt: number
}

export interface AdvanceOptions {
  now: number
  activeWindowMinutes: number
  /** Rows written so far per table, as each step ends (the sync's progress on /data-sync). */
  progress?: (table: string, rows: number) => void
}

/** Deterministic pseudo-random 0..9999 of an integer column and a salt (portable integer arithmetic). */
function rnd(column: RawBuilder<unknown>, salt: number): RawBuilder<number> {
  return sql<number>`(((cast(${column} as bigint) * 2654435761 + ${sql.lit(salt)}) % 1000003) * 7919 + ${sql.lit((salt * 31) % 100_000)}) % 10000`
}

/** 40 hex digits from an integer (a peer_id of the demo). */
function hex40(dialect: DialectName, value: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`lpad(to_hex(cast(${value} as bigint) * 2654435761), 40, '0')`
    : sql<string>`printf('%040x', ${value} * 2654435761)`
}

export async function advanceDemo(
  database: AppDatabase,
  state: DemoState,
  options: AdvanceOptions,
): Promise<{ state: DemoState; rows: Record<string, number> }> {
  const { now } = options
  const elapsedMs = Math.max(0, Math.min(MAX_ELAPSED_MS, now - state.lastAdvanceAt))
  const e = Math.round(elapsedMs / 1000)
  const window = options.activeWindowMinutes * 60_000
  const prevSince = state.lastAdvanceAt - window
  const since = now - window
  const sync = state.syncs + 1
  const salt = (sync * 7_654_321 + hashSeed(state.seed)) % 1_000_000
  const rng = new Prng(`${state.seed}/sync/${sync}`)
  const rows: Record<string, number> = {}
  const count = (table: string, n: bigint | number | undefined) => {
    rows[table] = (rows[table] ?? 0) + Number(n ?? 0)
    options.progress?.(table, rows[table])
  }

  await database.db.transaction().execute(async (db) => {
    // Peers that were active at the last sync and keep announcing (97 %); the others just stop.
    const continues = sql`p.last_action >= ${int(prevSince)} and ${rnd(sql`p.id`, salt)} >= 300`
    const peerRanges = await idRanges(db, 'site_peers')
    const snatchRanges = await idRanges(db, 'site_snatched')
    for (const [lo, hi] of peerRanges) {
      await queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where p.id > ${lo} and p.id <= ${hi} and ${continues}`)
    }

    // Their snatches: seeders gain seed time and upload, leechers progress.
    const rate = sql`((${rnd(sql`site_snatched.id`, salt + 1)} % 100) * (${rnd(sql`site_snatched.id`, salt + 2)} % 97) * 3)`
    for (const [lo, hi] of snatchRanges) {
      count(
        'site_snatched',
        (
          await sql`update site_snatched set seedtime = seedtime + ${e}, uploaded = uploaded + ${rate} * ${e},
          last_action = ${int(now)}
        where site_snatched.id > ${lo} and site_snatched.id <= ${hi}
          and exists (select 1 from site_peers p where p.userid = site_snatched.userid and p.torrent = site_snatched.torrentid
          and p.seeder = 1 and ${continues})`.execute(db)
        ).numAffectedRows,
      )
    }
    const speed = sql`(1 + ${rnd(sql`site_peers.id`, salt + 3)} % 40) * 131072`
    for (const [lo, hi] of peerRanges) {
      count(
        'site_peers',
        (
          await sql`update site_peers set prev_action = last_action,
          last_action = ${int(now)} - ${rnd(sql`site_peers.id`, salt + 4)} % 600 * 1000,
          uploaded = uploaded + ${rnd(sql`site_peers.id`, salt + 5)} % 50 * 1000 * ${e},
          to_go = case when to_go - ${speed} * ${e} > 0 then to_go - ${speed} * ${e} else 0 end
        where id in (select p.id from site_peers p where p.id > ${lo} and p.id <= ${hi} and ${continues})`.execute(db)
        ).numAffectedRows,
      )
    }
    // Leechers that reached 0 become seeders; their snatch finishes. Only announcing peers (queued
    // above) touch their rows: a peer that stopped is still in the window, and its snatch must not
    // move behind the derivation's back.
    await sql`update site_peers set seeder = 1, finishedat = ${int(now)}
      where id in (select p.id from site_peers p where p.seeder = 0 and p.to_go = 0 and ${continues})`.execute(db)
    await sql`update site_snatched set to_go = p.to_go, leechtime = leechtime + ${e}, last_action = ${int(now)},
        downloaded = (select t.size from site_torrents t where t.id = site_snatched.torrentid) - p.to_go,
        finished = case when p.to_go = 0 then 1 else 0 end,
        completedat = case when p.to_go = 0 and completedat is null then ${int(now)} else completedat end
      from site_peers p
      where p.userid = site_snatched.userid and p.torrent = site_snatched.torrentid and site_snatched.finished = 0
        and ${continues}`.execute(db)

    // The tracker's cleanup: peers silent for two hours are gone.
    const stale = sql`p.last_action < ${int(now - PEER_CLEANUP_MS)}`
    for (const [lo, hi] of peerRanges) {
      const inRange = sql`p.id > ${lo} and p.id <= ${hi} and ${stale}`
      await queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where ${inRange}`)
      count(
        'site_peers',
        (await sql`delete from site_peers where id in (select p.id from site_peers p where ${inRange})`.execute(db)).numAffectedRows,
      )
    }

    // Some finished snatches without a peer start seeding again.
    const restart = sql`s.finished = 1 and ${rnd(sql`s.id`, salt + 6)} < 240
      and not exists (select 1 from site_peers p where p.userid = s.userid and p.torrent = s.torrentid)`
    await queueSiteRows(db, sql`select s.userid, s.torrentid as torrent from site_snatched s where ${restart}`)
    const maxPeer = await maxId(db, 'site_peers')
    const newPeerId = sql`${int(maxPeer)} + row_number() over (order by s.id)`
    count(
      'site_peers',
      (
        await sql`insert into site_peers (id, torrent, peer_id, ip, port, uploaded, downloaded, to_go, seeder, started,
        last_action, prev_action, connectable, userid, agent, finishedat)
      select ${newPeerId}, s.torrentid, ${hex40(database.dialect, newPeerId)}, s.ip, s.port, 0, 0, 0, 1, ${int(now)},
        ${int(now)} - ${rnd(sql`s.id`, salt + 7)} % 900 * 1000, ${int(now)}, 1, s.userid, 'qBittorrent/4.6.7', s.completedat
      from site_snatched s where ${restart}`.execute(db)
      ).numAffectedRows,
    )

    // New claims on torrents members are seeding.
    const claimable = sql`p.seeder = 1 and p.last_action >= ${int(since)} and ${rnd(sql`p.id`, salt + 8)} < 40
      and not exists (select 1 from site_claims c where c.uid = p.userid and c.torrent_id = p.torrent)
      and p.id = (select min(p2.id) from site_peers p2 where p2.userid = p.userid and p2.torrent = p.torrent)`
    await queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where ${claimable}`)
    const maxClaim = await maxId(db, 'site_claims')
    count(
      'site_claims',
      (
        await sql`insert into site_claims (id, uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, last_settle_at, created_at, updated_at)
      select ${int(maxClaim)} + row_number() over (order by p.id), p.userid, p.torrent,
        (select s.id from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent),
        coalesce((select s.seedtime from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent), 0),
        coalesce((select s.uploaded from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent), 0),
        null, ${int(now)}, ${int(now)}
      from site_peers p where ${claimable}`.execute(db)
      ).numAffectedRows,
    )

    // Seeder and leecher counts of the site drift (labels only; records do not depend on them).
    const drift = sql`${rnd(sql`t.id`, salt + 9)} < 300`
    const drifting = await sql<{ id: number }>`select t.id from site_torrents t where ${drift}`.execute(db)
    await sql`update site_torrents set seeders = case when seeders + ${rnd(sql`site_torrents.id`, salt + 10)} % 5 - 2 > 0
        then seeders + ${rnd(sql`site_torrents.id`, salt + 10)} % 5 - 2 else 0 end,
        leechers = ${rnd(sql`site_torrents.id`, salt + 11)} % 4
      where id in (select t.id from site_torrents t where ${drift})`.execute(db)
    await queueTorrents(
      db,
      drifting.rows.map((r) => r.id),
    )
    count('site_torrents', drifting.rows.length)

    // New downloads and new releases: few rows, from the PRNG.
    await newDownloads(db, rng, now, count)
    await newTorrents(db, rng, now, count)
  })

  return { state: { ...state, syncs: sync, lastAdvanceAt: now }, rows }
}

/** Ids per statement of the steps that touch many rows: each is synchronous on SQLite and holds every request for its length. */
const ID_RANGE = 25_000

/** (lo, hi] ranges of ID_RANGE ids covering `table` as it is now (rows added later in the sync are not in them). */
async function idRanges(db: Kysely<DB>, table: 'site_peers' | 'site_snatched'): Promise<[number, number][]> {
  const max = await maxId(db, table)
  const out: [number, number][] = []
  for (let lo = 0; lo < max; lo += ID_RANGE) out.push([lo, Math.min(max, lo + ID_RANGE)])
  return out
}

async function maxId(
  db: Kysely<DB>,
  table: 'site_peers' | 'site_claims' | 'site_snatched' | 'site_torrents' | 'site_torrent_tags',
): Promise<number> {
  const { rows } = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(db)
  return Number(rows[0]?.m ?? 0)
}

function hashSeed(seed: string): number {
  let h = 0
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) % 1_000_003
  return h
}

type Count = (table: string, n: number) => void

/** A few members start downloading something new (a snatch and a leeching peer). */
async function newDownloads(db: Kysely<DB>, rng: Prng, now: number, count: Count): Promise<void> {
  const members = await db
    .selectFrom('users')
    .select(['id', 'site_uid'])
    .where('site_uid', 'is not', null)
    .where('status', '=', 2)
    .orderBy('id')
    .execute()
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
async function newTorrents(db: Kysely<DB>, rng: Prng, now: number, count: Count): Promise<void> {
  const total = Number((await sql<{ n: number }>`select count(*) as n from site_torrents`.execute(db)).rows[0].n)
  const releases = Math.max(1, Math.round(total * 0.0003 * (0.5 + rng.next())))
  const teams = await db.selectFrom('site_teams').select(['id', 'name']).orderBy('id').execute()
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const uploaders = await db
    .selectFrom('users')
    .select(['id', 'site_uid'])
    .where('site_uid', 'is not', null)
    .where('status', '=', 2)
    .orderBy('id')
    .execute()
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
