/**
 * Seed records (domain.md §1–§2): which (member × torrent) pairs exist, and each one's status,
 * claim state, assignment label and counters. All set-based: the pairs to judge sit in the scratch
 * table `derive_work`, and one member-id range of them is judged per transaction.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'
import { greatest, int, rangesByWeight } from '../db/sql-fragments'
import { disqualifiedSql, seedStatusSql } from '../domain/status'
import type { PassContext } from './context'
import { addRangeToCounts, refreshMemberStats, subtractRangeFromCounts } from './counts'

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

/** Columns of seed_records by the indexes they are in (see migration 0002). */
const writeGroups = [
  ['seed_type', 'claim_state', 'assigned', 'seeding', 'claimed_at'], // in no index
  ['status'],
  ['uploaded', 'seed_time_sec', 'last_action'], // grow together on every sync of an active seeder
  ['downloaded'],
  ['size'],
  ['assigned_at'],
] as const

/**
 * Judges the work of one member range inside the caller's transaction: computes each pair's new
 * row, keeps the count cube exact by subtracting the old rows and adding the new ones, writes only
 * rows (and columns) that changed, deletes records whose tie is gone, and clears the range's work.
 * Returns how many record writes and deletions it made (a row can count twice).
 */
/** The facts of one (member, torrent) pair as SQL, from whatever joins a query uses (`u` = users, `l` = torrent_labels). */
export interface TieColumns {
  userId: RawBuilder<unknown>
  /** Any peer at all / an active leeching one / an active seeding one (0/1, NULL when no peer). */
  peer: RawBuilder<unknown>
  peerLeeching: RawBuilder<unknown>
  peerSeeding: RawBuilder<unknown>
  peerLastAction: RawBuilder<unknown>
  peerUploaded: RawBuilder<unknown>
  peerDownloaded: RawBuilder<unknown>
  snatch: RawBuilder<unknown>
  snatchFinished: RawBuilder<unknown>
  snatchToGo: RawBuilder<unknown>
  snatchUploaded: RawBuilder<unknown>
  snatchDownloaded: RawBuilder<unknown>
  snatchSeedtime: RawBuilder<unknown>
  snatchLastAction: RawBuilder<unknown>
  claim: RawBuilder<unknown>
  claimedAt: RawBuilder<unknown>
  assignment: RawBuilder<unknown>
  assignedAt: RawBuilder<unknown>
}

/**
 * A record's derived columns (status … claimed_at, in derive_batch's order) and the condition that
 * the pair is tied at all — written once for both the per-range and the whole-table pass.
 */
export function recordValuesSql(ctx: PassContext, t: TieColumns): { values: RawBuilder<unknown>; tied: RawBuilder<unknown> } {
  const status = seedStatusSql({
    uploader: sql`(u.site_uid is not null and l.owner = u.site_uid)`,
    activeLeeching: sql`coalesce(${t.peerLeeching}, 0) = 1`,
    activeSeeding: sql`coalesce(${t.peerSeeding}, 0) = 1`,
    claimed: sql`${t.claim} is not null`,
    disqualified: disqualifiedSql({
      memberInactive: sql`u.status <> 2`,
      siteAccountDisabled: sql`exists (select 1 from site_users su where su.id = u.site_uid and su.enabled = 0)`,
      torrentBanned: sql`l.banned = 1`,
      belowMinSize: sql`l.size < ${int(ctx.minSizeBytes)}`,
      // Flag kept by src/wages/estimates.ts.
      belowWageMinimum: sql`exists (select 1 from wage_estimates e where e.user_id = ${t.userId} and e.below_minimum = 1)`,
    }),
    snatch: { id: t.snatch, finished: t.snatchFinished, toGo: t.snatchToGo },
  })
  const lastAction = greatest(ctx.dialect, sql`coalesce(${t.snatchLastAction}, 0)`, sql`coalesce(${t.peerLastAction}, 0)`)
  return {
    values: sql`${status}, l.seed_type,
      case when ${t.claim} is null then 1 else 2 end,
      case when ${t.assignment} is null then 2 else 1 end,
      case when coalesce(${t.peerSeeding}, 0) = 1 then 1 else 0 end,
      l.size,
      coalesce(${t.snatchUploaded}, ${t.peerUploaded}, 0), coalesce(${t.snatchDownloaded}, ${t.peerDownloaded}, 0), coalesce(${t.snatchSeedtime}, 0),
      ${lastAction}, coalesce(${t.assignedAt}, 0), coalesce(${t.claimedAt}, 0)`,
    tied: sql`(${t.snatch} is not null or ${t.claim} is not null or ${t.assignment} is not null or ${t.peer} is not null
      or (u.site_uid is not null and l.owner = u.site_uid))`,
  }
}

export async function judgeRange(ctx: PassContext, range: [number, number]): Promise<number> {
  const { db, now, since } = ctx
  const [a, b] = range

  const record = recordValuesSql(ctx, {
    userId: sql`w.user_id`,
    peer: sql`pf.user_id`,
    peerLeeching: sql`pf.leeching`,
    peerSeeding: sql`pf.seeding`,
    peerLastAction: sql`pf.last_action`,
    peerUploaded: sql`pf.uploaded`,
    peerDownloaded: sql`pf.downloaded`,
    snatch: sql`s.id`,
    snatchFinished: sql`s.finished`,
    snatchToGo: sql`s.to_go`,
    snatchUploaded: sql`s.uploaded`,
    snatchDownloaded: sql`s.downloaded`,
    snatchSeedtime: sql`s.seedtime`,
    snatchLastAction: sql`s.last_action`,
    claim: sql`c.id`,
    claimedAt: sql`c.created_at`,
    assignment: sql`a.id`,
    assignedAt: sql`a.assigned_at`,
  })

  await sql`with pf as (
      select w.user_id, w.torrent_id,
        max(case when p.last_action >= ${int(since)} and p.to_go > 0 then 1 else 0 end) as leeching,
        max(case when p.last_action >= ${int(since)} and p.seeder = 1 then 1 else 0 end) as seeding,
        max(p.last_action) as last_action, max(p.uploaded) as uploaded, max(p.downloaded) as downloaded
      from derive_work w join users u on u.id = w.user_id
        join site_peers p on p.userid = u.site_uid and p.torrent = w.torrent_id
      where w.user_id between ${a} and ${b}
      group by w.user_id, w.torrent_id)
    insert into derive_batch (user_id, torrent_id, status, seed_type, claim_state, assigned, seeding, size,
      uploaded, downloaded, seed_time_sec, last_action, assigned_at, claimed_at)
    select w.user_id, w.torrent_id, ${record.values}
    from derive_work w
      join users u on u.id = w.user_id
      join torrent_labels l on l.torrent_id = w.torrent_id
      left join pf on pf.user_id = w.user_id and pf.torrent_id = w.torrent_id
      left join site_snatched s on s.userid = u.site_uid and s.torrentid = w.torrent_id
      left join site_claims c on c.uid = u.site_uid and c.torrent_id = w.torrent_id
      left join assignments a on a.user_id = w.user_id and a.torrent_id = w.torrent_id
    where w.user_id between ${a} and ${b} and ${record.tied}`.execute(db)
  await analyzeScratch(ctx, 'derive_batch')

  // Pairs whose record is already exactly right leave the work: in a full pass over unchanged data
  // that is nearly all of them, and the cube deltas and writes below then cost next to nothing.
  const recordColumns = [
    'status',
    'seed_type',
    'claim_state',
    'assigned',
    'seeding',
    'size',
    'uploaded',
    'downloaded',
    'seed_time_sec',
    'last_action',
    'assigned_at',
    'claimed_at',
  ] as const
  const unchanged = sql.join(
    recordColumns.map((c) => sql`r.${sql.ref(c)} = x.${sql.ref(c)}`),
    sql` and `,
  )
  await sql`delete from derive_work where user_id between ${a} and ${b} and exists (
      select 1 from derive_batch x join seed_records r on r.user_id = x.user_id and r.torrent_id = x.torrent_id
      where x.user_id = derive_work.user_id and x.torrent_id = derive_work.torrent_id and ${unchanged})`.execute(db)
  await sql`delete from derive_batch where user_id between ${a} and ${b} and not exists (
      select 1 from derive_work w where w.user_id = derive_batch.user_id and w.torrent_id = derive_batch.torrent_id)`.execute(db)

  // Each torrent's record count moves with the records that appear or go, in this transaction.
  await sql`update torrent_labels set records = torrent_labels.records + d.delta
    from (select w.torrent_id,
            sum((case when x.user_id is null then 0 else 1 end) - (case when r.id is null then 0 else 1 end)) as delta
          from derive_work w
            left join derive_batch x on x.user_id = w.user_id and x.torrent_id = w.torrent_id
            left join seed_records r on r.user_id = w.user_id and r.torrent_id = w.torrent_id
          where w.user_id between ${a} and ${b}
          group by w.torrent_id) d
    where torrent_labels.torrent_id = d.torrent_id and d.delta <> 0`.execute(db)

  await subtractRangeFromCounts(db, range)

  // Writes grouped by the indexes their columns are in, each statement setting only its group:
  // SQLite rewrites every index that holds a column of the SET list, whether the value changed or
  // not. So a sync's bulk — every active seeder's counters grow — rewrites the 5 counter indexes,
  // not all 12, and a rules change that flips seed types (in no index) rewrites none.
  const inRange = sql`b.user_id between ${a} and ${b}`
  const sameRecord = sql`seed_records.user_id = b.user_id and seed_records.torrent_id = b.torrent_id`
  const inserted = await sql`insert into seed_records (user_id, torrent_id, ${sql.join(recordColumns.map((c) => sql.ref(c)))}, derived_at)
    select b.user_id, b.torrent_id, ${sql.join(recordColumns.map((c) => sql.ref(`b.${c}`)))}, ${int(now)}
    from derive_batch b
    where ${inRange} and not exists (select 1 from seed_records r where r.user_id = b.user_id and r.torrent_id = b.torrent_id)`.execute(db)
  let written = Number(inserted.numAffectedRows ?? 0)
  for (const group of writeGroups) {
    const set = sql.join(group.map((c) => sql`${sql.ref(c)} = b.${sql.ref(c)}`))
    const differs = sql.join(
      group.map((c) => sql`seed_records.${sql.ref(c)} <> b.${sql.ref(c)}`),
      sql` or `,
    )
    const updated = await sql`update seed_records set ${set}, derived_at = ${int(now)}
      from derive_batch b where ${inRange} and ${sameRecord} and (${differs})`.execute(db)
    written += Number(updated.numAffectedRows ?? 0)
  }

  const deleted = await sql`delete from seed_records where id in (
      select r.id from derive_work w join seed_records r on r.user_id = w.user_id and r.torrent_id = w.torrent_id
      where w.user_id between ${a} and ${b}
        and not exists (select 1 from derive_batch x where x.user_id = w.user_id and x.torrent_id = w.torrent_id))`.execute(db)

  await addRangeToCounts(db, range)
  await refreshMemberStats(db, range)

  await sql`delete from derive_batch where user_id between ${a} and ${b}`.execute(db)
  await sql`delete from derive_work where user_id between ${a} and ${b}`.execute(db)
  return written + Number(deleted.numAffectedRows ?? 0)
}
