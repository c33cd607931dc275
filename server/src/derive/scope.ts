/**
 * Which (member × torrent) pairs a pass judges: a pair exists while the member has an assignment, a
 * claim, a peer or a snatch on the torrent, or uploaded it. The pairs go into the scratch table
 * `derive_work`, cut into member-id ranges of about a batch each.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { rangesByWeight } from '../db/sql-fragments'
import type { PassContext } from './context'

/**
 * The ties of a set of members (`m`: id, site_uid) as (user_id, torrent_id): an assignment, a
 * claim, a peer, a snatch, or being the uploader. The same list, by torrent, is `tiesOfTorrents`.
 */
function tiesOfMembers(members: ReturnType<typeof sql>) {
  return sql`select m.id as user_id, p.torrent as torrent_id from ${members} m join site_peers p on p.userid = m.site_uid
    union select m.id, s.torrentid from ${members} m join site_snatched s on s.userid = m.site_uid
    union select m.id, c.torrent_id from ${members} m join site_claims c on c.uid = m.site_uid
    union select m.id, t.id from ${members} m join site_torrents t on t.owner = m.site_uid
    union select a.user_id, a.torrent_id from ${members} m join assignments a on a.user_id = m.id`
}

function tiesOfTorrents(torrents: ReturnType<typeof sql>) {
  return sql`select u.id as user_id, p.torrent as torrent_id from ${torrents} d join site_peers p on p.torrent = d.torrent_id join users u on u.site_uid = p.userid
    union select u.id, s.torrentid from ${torrents} d join site_snatched s on s.torrentid = d.torrent_id join users u on u.site_uid = s.userid
    union select u.id, c.torrent_id from ${torrents} d join site_claims c on c.torrent_id = d.torrent_id join users u on u.site_uid = c.uid
    union select u.id, t.id from ${torrents} d join site_torrents t on t.id = d.torrent_id join users u on u.site_uid = t.owner
    union select a.user_id, a.torrent_id from ${torrents} d join assignments a on a.torrent_id = d.torrent_id`
}

/** Full pass: member-id ranges of about `size` records, weighted by what each member had or has. */
export async function memberRanges(db: Kysely<DB>, size: number): Promise<[number, number][]> {
  const { rows } = await sql<{ key: number; n: number }>`select id as key, n from (
      select u.id, coalesce(m.records, 0) + (select count(*) from site_snatched s where s.userid = u.site_uid) as n
      from users u left join member_seed_stats m on m.user_id = u.id
      union all
      select distinct r.user_id, 1 from seed_records r where not exists (select 1 from users u where u.id = r.user_id)
    ) x order by id`.execute(db)
  return rangesByWeight(
    rows.map((r) => ({ key: r.key, n: Number(r.n) })),
    size,
  )
}

/** Incremental pass: member-id ranges over the queued work. */
export async function workRanges(db: Kysely<DB>, size: number): Promise<[number, number][]> {
  const { rows } = await sql<{
    key: number
    n: number
  }>`select user_id as key, count(*) as n from derive_work group by user_id order by user_id`.execute(db)
  return rangesByWeight(
    rows.map((r) => ({ key: r.key, n: Number(r.n) })),
    size,
  )
}

/** Full pass, per range: every tie of the range's members plus every record they have now. */
export async function scopeMembers(db: Kysely<DB>, [a, b]: [number, number]): Promise<void> {
  const members = sql`(select id, site_uid from users where id between ${a} and ${b})`
  // The union has no duplicates and the range has no work yet: a plain insert (PostgreSQL's
  // ON CONFLICT inserts speculatively, row by row).
  await sql`insert into derive_work (user_id, torrent_id)
    select user_id, torrent_id from (${tiesOfMembers(members)}
      union select user_id, torrent_id from seed_records where user_id between ${a} and ${b}) x`.execute(db)
}

/**
 * PostgreSQL plans the joins of a batch from the scratch tables' statistics; without fresh ones
 * (a truncated table looks empty) it picks nested loops over 100,000 rows — 49 s instead of 0.7 s.
 * ANALYZE samples, so it costs milliseconds. SQLite's nested loops do not depend on it.
 */
export async function analyzeScratch(ctx: PassContext, table: 'derive_work' | 'derive_batch' | 'derive_torrents'): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`analyze ${sql.table(table)}`.execute(ctx.db)
}

/**
 * Incremental pass: the pairs to re-judge, from the queue (pairs; whole members; whole torrents whose
 * record-relevant fields changed, flagged in derive_torrents) and from time alone: peers that were
 * active at the previous sync (`prevSince`) and are not any more, although no row changed.
 */
export async function scopeQueued(ctx: PassContext, maxQueueId: number, prevSince: number | null): Promise<void> {
  const { db } = ctx
  await sql`insert into derive_work (user_id, torrent_id)
    select distinct user_id, torrent_id from derive_queue
    where id <= ${maxQueueId} and user_id is not null and torrent_id is not null
    on conflict do nothing`.execute(db)

  const members = sql`(select id, site_uid from users where id in (
    select user_id from derive_queue where id <= ${maxQueueId} and torrent_id is null and user_id is not null))`
  await sql`insert into derive_work (user_id, torrent_id)
    select user_id, torrent_id from (${tiesOfMembers(members)}
      union select r.user_id, r.torrent_id from seed_records r
        where r.user_id in (select user_id from derive_queue where id <= ${maxQueueId} and torrent_id is null and user_id is not null)) x
    where true on conflict do nothing`.execute(db)

  const torrents = sql`(select torrent_id from derive_torrents where records_affected = 1)`
  await sql`insert into derive_work (user_id, torrent_id)
    select user_id, torrent_id from (${tiesOfTorrents(torrents)}
      union select r.user_id, r.torrent_id from seed_records r join derive_torrents d on d.torrent_id = r.torrent_id where d.records_affected = 1) x
    where true on conflict do nothing`.execute(db)

  if (prevSince !== null && prevSince < ctx.since) {
    await sql`insert into derive_work (user_id, torrent_id)
      select distinct u.id, p.torrent from site_peers p join users u on u.site_uid = p.userid
      where p.last_action >= ${prevSince} and p.last_action < ${ctx.since}
      on conflict do nothing`.execute(db)
  }
}
