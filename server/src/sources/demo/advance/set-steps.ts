/**
 * The steps of a demo sync that touch many rows, as set-based SQL (in id ranges where a table is
 * large: each statement is synchronous on SQLite). Each queues the keys it changes for the derivation.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectName } from '../../../db/database'
import type { DB } from '../../../db/schema'
import { int } from '../../../db/sql-fragments'
import { queueSiteRows, queueTorrents } from '../../../derive/queue'
import type { Count } from './new-rows'
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
  /** Seconds of growth this sync simulates. */
  elapsedSec: number
  /** Where the active window began at this sync. */
  since: number
  /** This sync's salt of the SQL pseudo-randomness. */
  salt: number
  /** Peers that were active at the last sync and keep announcing (97 %); the others just stop. */
  continues: RawBuilder<unknown>
  /** (lo, hi] id ranges of peers and snatches as they were when the sync began. */
  peerRanges: readonly [number, number][]
  snatchRanges: readonly [number, number][]
  count: Count
}

/** Announcing peers: seeders gain seed time and upload on their snatches, leechers progress. */
export async function growAnnouncing({
  write,
  now,
  elapsedSec: e,
  salt,
  continues,
  peerRanges,
  snatchRanges,
  count,
}: SetStep): Promise<void> {
  for (const [lo, hi] of peerRanges) {
    await write((db) =>
      queueSiteRows(db, sql`select p.userid, p.torrent from site_peers p where p.id > ${lo} and p.id <= ${hi} and ${continues}`),
    )
  }
  const rate = sql`((${rnd(sql`site_snatched.id`, salt + 1)} % 100) * (${rnd(sql`site_snatched.id`, salt + 2)} % 97) * 3)`
  for (const [lo, hi] of snatchRanges) {
    const updated = await write((db) =>
      sql`update site_snatched set seedtime = seedtime + ${e}, uploaded = uploaded + ${rate} * ${e},
          last_action = ${int(now)}
        where site_snatched.id > ${lo} and site_snatched.id <= ${hi}
          and exists (select 1 from site_peers p where p.userid = site_snatched.userid and p.torrent = site_snatched.torrentid
          and p.seeder = 1 and ${continues})`.execute(db),
    )
    count('site_snatched', updated.numAffectedRows)
  }
  const speed = sql`(1 + ${rnd(sql`site_peers.id`, salt + 3)} % 40) * 131072`
  for (const [lo, hi] of peerRanges) {
    const updated = await write((db) =>
      sql`update site_peers set prev_action = last_action,
          last_action = ${int(now)} - ${rnd(sql`site_peers.id`, salt + 4)} % 600 * 1000,
          uploaded = uploaded + ${rnd(sql`site_peers.id`, salt + 5)} % 50 * 1000 * ${e},
          to_go = case when to_go - ${speed} * ${e} > 0 then to_go - ${speed} * ${e} else 0 end
        where id in (select p.id from site_peers p where p.id > ${lo} and p.id <= ${hi} and ${continues})`.execute(db),
    )
    count('site_peers', updated.numAffectedRows)
  }
}

/**
 * Leechers that reached 0 become seeders; their snatch finishes. Only announcing peers (queued by
 * `growAnnouncing`) touch their rows: a peer that stopped is still in the window, and its snatch must
 * not move behind the derivation's back. In peer-id ranges (one statement over the whole table held
 * the write lock ~7 s at 2 M records); a snatch with two peers (two clients) moves once, with its
 * first peer.
 */
export async function finishLeechers({ write, now, elapsedSec: e, continues, peerRanges }: SetStep): Promise<void> {
  for (const [lo, hi] of peerRanges) {
    const inRange = sql`p.id > ${lo} and p.id <= ${hi} and ${continues}`
    await write(async (db) => {
      await sql`update site_peers set seeder = 1, finishedat = ${int(now)}
        where id in (select p.id from site_peers p where ${inRange} and p.seeder = 0 and p.to_go = 0)`.execute(db)
      await sql`update site_snatched set to_go = p.to_go, leechtime = leechtime + ${e}, last_action = ${int(now)},
          downloaded = (select t.size from site_torrents t where t.id = site_snatched.torrentid) - p.to_go,
          finished = case when p.to_go = 0 then 1 else 0 end,
          completedat = case when p.to_go = 0 and completedat is null then ${int(now)} else completedat end
        from (select p.userid, p.torrent, p.to_go from site_peers p where ${inRange}
            and not exists (select 1 from site_peers q where q.userid = p.userid and q.torrent = p.torrent and q.id < p.id)) p
        where p.userid = site_snatched.userid and p.torrent = site_snatched.torrentid and site_snatched.finished = 0`.execute(db)
    })
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
