/**
 * The steps of a demo sync that touch many rows, as set-based SQL (in id ranges where a table is
 * large: each statement is synchronous on SQLite). Each queues the keys it changes for the derivation.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectName } from '../../../db/database'
import type { DB } from '../../../db/schema'
import { inIdList, int } from '../../../db/sql-fragments'
import { queueSiteRows, queueTorrents } from '../../../derive/queue'
import type { Count } from './new-rows'
import { SHORTEST_ANNOUNCE_MS, announceIntervalSql } from '../announce'
import { hex40, maxId, rnd } from './sql'

/** NexusPHP's cleanup drops peers that stopped announcing; ours after this long. */
const PEER_CLEANUP_MS = 2 * 3600_000

export interface SetStep {
  /**
   * Runs `work` in a transaction of its own: a range's change and the keys it queues commit together,
   * and the file's write lock is free between ranges (a request's write waits for one range, not the sync).
   */
  write<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>
  dialect: DialectName
  now: number
  /** Where the active window began at this sync, and at the previous one (peers active then may announce now). */
  since: number
  prevSince: number
  /** A peer's counters grow by at most this much however long the demo was paused. */
  maxGrowMs: number
  /** This sync's salt of the SQL pseudo-randomness. */
  salt: number
  /** (lo, hi] id ranges of peers as they were when the sync began. */
  peerRanges: readonly [number, number][]
  count: Count
}

/**
 * The peers of (lo, hi] that announce in this sync, as they are before it: active at the last sync, due
 * (their last announce at least their torrent's interval ago — `announce.ts`), and not among the 3 % that
 * miss this turn (they announce late, at a later sync). Read once per range; the writes then read only these.
 */
async function duePeerIds(db: Kysely<DB>, { now, prevSince, salt }: SetStep, lo: number, hi: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select p.id from site_peers p join site_torrents t on t.id = p.torrent
    where p.id > ${lo} and p.id <= ${hi} and p.last_action >= ${int(prevSince)}
      and p.last_action <= ${int(now - SHORTEST_ANNOUNCE_MS)} and ${rnd(sql`p.id`, salt)} >= 300
      and p.last_action + ${announceIntervalSql(sql`t.added`, now)} <= ${int(now)}`.execute(db)
  return rows.map((r) => Number(r.id))
}

/**
 * What the announces of these peers amount to. A peer due for `k` intervals announced `k` times:
 * `announced_at` is its last announce, `grown` the seconds its counters grow by (capped like a long
 * pause), `to_go_after` what a leecher still lacks then; `first` marks its pair's first peer (a snatch
 * with two peers — two clients — moves once, with the first).
 */
function announces({ dialect, now, salt, maxGrowMs }: SetStep, ids: readonly number[]): RawBuilder<unknown> {
  const sinceLast = sql`((${int(now)} - d.last_action) / d.every * d.every)`
  const grown = sql`((case when ${sinceLast} > ${int(maxGrowMs)} then ${int(maxGrowMs)} else ${sinceLast} end) / 1000)`
  const left = sql`d.to_go - (1 + ${rnd(sql`d.id`, salt + 3)} % 40) * 131072 * ${grown}`
  return sql`select d.id, d.userid, d.torrent, d.seeder, d.size,
      case when exists (select 1 from site_peers q where q.userid = d.userid and q.torrent = d.torrent and q.id < d.id)
        then 0 else 1 end as first,
      d.last_action + ${sinceLast} as announced_at, ${grown} as grown,
      case when ${left} > 0 then ${left} else 0 end as to_go_after
    from (select p.id, p.userid, p.torrent, p.seeder, p.to_go, p.last_action, t.size,
        ${announceIntervalSql(sql`t.added`, now)} as every
      from site_peers p join site_torrents t on t.id = p.torrent where ${inIdList(dialect, sql`p.id`, ids)}) d`
}

/**
 * Announcing peers, range by range: seeders' snatches gain seed time and upload, leechers' snatches
 * progress and finish, the peers' own counters grow and a leecher that reached 0 becomes a seeder. The
 * snatches are written before the peers, so every statement reads the peers as they were.
 */
export async function announce(step: SetStep): Promise<void> {
  const { write, salt, peerRanges, count } = step
  const rate = sql`((${rnd(sql`site_snatched.id`, salt + 1)} % 100) * (${rnd(sql`site_snatched.id`, salt + 2)} % 97) * 3)`
  const ofSnatch = sql`a.first = 1 and a.userid = site_snatched.userid and a.torrent = site_snatched.torrentid`
  for (const [lo, hi] of peerRanges) {
    const [seeded, peers] = await write(async (db) => {
      const ids = await duePeerIds(db, step, lo, hi)
      if (ids.length === 0) return [0, 0]
      const a = announces(step, ids)
      await queueSiteRows(db, sql`select a.userid, a.torrent from (${a}) a`)
      const seeded = await sql`update site_snatched set seedtime = seedtime + a.grown,
          uploaded = uploaded + ${rate} * a.grown, last_action = a.announced_at
        from (${a}) a where a.seeder = 1 and ${ofSnatch}`.execute(db)
      await sql`update site_snatched set to_go = a.to_go_after, leechtime = leechtime + a.grown,
          last_action = a.announced_at, downloaded = a.size - a.to_go_after,
          finished = case when a.to_go_after = 0 then 1 else 0 end,
          completedat = case when a.to_go_after = 0 and completedat is null then a.announced_at else completedat end
        from (${a}) a where ${ofSnatch} and site_snatched.finished = 0`.execute(db)
      const peers = await sql`update site_peers set prev_action = site_peers.last_action, last_action = a.announced_at,
          uploaded = site_peers.uploaded + ${rnd(sql`site_peers.id`, salt + 5)} % 50 * 1000 * a.grown, to_go = a.to_go_after,
          seeder = case when a.to_go_after = 0 then 1 else site_peers.seeder end,
          finishedat = case when site_peers.seeder = 0 and a.to_go_after = 0 then a.announced_at else site_peers.finishedat end
        from (${a}) a where site_peers.id = a.id`.execute(db)
      return [seeded.numAffectedRows, peers.numAffectedRows]
    })
    count('site_snatched', seeded)
    count('site_peers', peers)
  }
}

/** The tracker's cleanup: peers silent for two hours are gone. */
export async function dropStalePeers({ write, now, peerRanges, count }: SetStep): Promise<void> {
  const stale = sql`p.last_action < ${int(now - PEER_CLEANUP_MS)}`
  for (const [lo, hi] of peerRanges) {
    const inRange = sql`p.id > ${lo} and p.id <= ${hi} and ${stale}`
    const deleted = await write(async (db) => {
      await queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where ${inRange}`)
      return sql`delete from site_peers where id in (select p.id from site_peers p where ${inRange})`.execute(db)
    })
    count('site_peers', deleted.numAffectedRows)
  }
}

/** Some finished snatches without a peer start seeding again. */
export async function restartSeeding({ write, dialect, now, salt, count }: SetStep): Promise<void> {
  const restart = sql`s.finished = 1 and ${rnd(sql`s.id`, salt + 6)} < 240
      and not exists (select 1 from site_peers p where p.userid = s.userid and p.torrent = s.torrentid)`
  const inserted = await write(async (db) => {
    await queueSiteRows(db, sql`select s.userid, s.torrentid as torrent from site_snatched s where ${restart}`)
    const maxPeer = await maxId(db, 'site_peers')
    const newPeerId = sql`${int(maxPeer)} + row_number() over (order by s.id)`
    return sql`insert into site_peers (id, torrent, peer_id, ip, port, uploaded, downloaded, to_go, seeder, started,
        last_action, prev_action, connectable, userid, agent, finishedat)
      select ${newPeerId}, s.torrentid, ${hex40(dialect, newPeerId)}, s.ip, s.port, 0, 0, 0, 1, ${int(now)},
        ${int(now)} - ${rnd(sql`s.id`, salt + 7)} % 900 * 1000, ${int(now)}, 1, s.userid, 'qBittorrent/4.6.7', s.completedat
      from site_snatched s where ${restart}`.execute(db)
  })
  count('site_peers', inserted.numAffectedRows)
}

/** New claims on torrents members are seeding. */
export async function newClaims({ write, now, since, salt, count }: SetStep): Promise<void> {
  const claimable = sql`p.seeder = 1 and p.last_action >= ${int(since)} and ${rnd(sql`p.id`, salt + 8)} < 40
      and not exists (select 1 from site_claims c where c.uid = p.userid and c.torrent_id = p.torrent)
      and p.id = (select min(p2.id) from site_peers p2 where p2.userid = p.userid and p2.torrent = p.torrent)`
  const inserted = await write(async (db) => {
    await queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where ${claimable}`)
    const maxClaim = await maxId(db, 'site_claims')
    return sql`insert into site_claims (id, uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, last_settle_at, created_at, updated_at)
      select ${int(maxClaim)} + row_number() over (order by p.id), p.userid, p.torrent,
        (select s.id from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent),
        coalesce((select s.seedtime from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent), 0),
        coalesce((select s.uploaded from site_snatched s where s.userid = p.userid and s.torrentid = p.torrent), 0),
        null, ${int(now)}, ${int(now)}
      from site_peers p where ${claimable}`.execute(db)
  })
  count('site_claims', inserted.numAffectedRows)
}

/** Seeder and leecher counts of the site drift (labels only; records do not depend on them). */
export async function driftTorrentCounts({ write, salt, count }: SetStep): Promise<void> {
  const drift = sql`${rnd(sql`t.id`, salt + 9)} < 300`
  const drifted = await write(async (db) => {
    const drifting = await sql<{ id: number }>`select t.id from site_torrents t where ${drift}`.execute(db)
    await sql`update site_torrents set seeders = case when seeders + ${rnd(sql`site_torrents.id`, salt + 10)} % 5 - 2 > 0
        then seeders + ${rnd(sql`site_torrents.id`, salt + 10)} % 5 - 2 else 0 end,
        leechers = ${rnd(sql`site_torrents.id`, salt + 11)} % 4
      where id in (select t.id from site_torrents t where ${drift})`.execute(db)
    await queueTorrents(
      db,
      drifting.rows.map((r) => r.id),
    )
    return drifting.rows.length
  })
  count('site_torrents', drifted)
}
