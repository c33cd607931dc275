/**
 * The count cube `seed_record_counts` and the per-member figures built from it.
 *
 * page-seed must answer an exact `total` for any mix of its enumerable filters (status, seed type,
 * claim state, assignment label; optionally one member) without counting millions of rows per
 * request (an exact COUNT over 180k rows blocks SQLite's loop for 15 ms, and every request waits). The
 * cube holds one row per (member, status, seed type, claim state, assigned) with its record count,
 * seeding count and size and uploaded sum; user_id 0 is the whole team. Any such total is then a
 * sum over at most 64 rows. The derivation keeps it exact with deltas: before a range's records
 * change their old rows are subtracted, afterwards the new ones are added, in the same transaction.
 * A full pass ends by rebuilding it from scratch, so a drift could never outlive the next full pass.
 */
import { AssignmentLabel } from '@shared/enums'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'

const cubeKey = sql`user_id, status, seed_type, claim_state, assigned`

/**
 * Adds the range's `rows` to the cube with `sign` (1 or −1): the judged pairs' records before they
 * change (subtract), and after (add: their new rows are the batch itself, so no second read of the
 * records is needed).
 */
async function applyRows(db: Kysely<DB>, rows: RawBuilder<unknown>, sign: 1 | -1): Promise<void> {
  const s = sql.lit(sign)
  await sql`with changed as (${rows})
    insert into seed_record_counts (${cubeKey}, records, seeding, seeding_size, uploaded)
    select * from (
      select user_id, status, seed_type, claim_state, assigned,
        ${s} * count(*), ${s} * sum(seeding), ${s} * sum(seeding * size), ${s} * sum(uploaded)
      from changed group by user_id, status, seed_type, claim_state, assigned
      union all
      select 0, status, seed_type, claim_state, assigned,
        ${s} * count(*), ${s} * sum(seeding), ${s} * sum(seeding * size), ${s} * sum(uploaded)
      from changed group by status, seed_type, claim_state, assigned
    ) d where true
    on conflict (${cubeKey}) do update set records = seed_record_counts.records + excluded.records,
      seeding = seed_record_counts.seeding + excluded.seeding,
      seeding_size = seed_record_counts.seeding_size + excluded.seeding_size,
      uploaded = seed_record_counts.uploaded + excluded.uploaded`.execute(db)
}

const cubeColumns = (alias: string) =>
  sql.join(
    ['user_id', 'status', 'seed_type', 'claim_state', 'assigned', 'seeding', 'size', 'uploaded'].map((c) => sql.ref(`${alias}.${c}`)),
  )

/** Before the range's records change: their current rows leave the cube. */
export async function subtractRangeFromCounts(db: Kysely<DB>, [a, b]: [number, number]): Promise<void> {
  await applyRows(
    db,
    sql`select ${cubeColumns('r')} from derive_work w join seed_records r on r.user_id = w.user_id and r.torrent_id = w.torrent_id
      where w.user_id between ${a} and ${b}`,
    -1,
  )
}

/** After: the range's new rows (derive_batch, where only pairs with a record now are left) enter it. */
export async function addRangeToCounts(db: Kysely<DB>, range: [number, number]): Promise<void> {
  await applyRows(db, sql`select ${cubeColumns('x')} from derive_batch x where x.user_id between ${range[0]} and ${range[1]}`, 1)
  await sql`delete from seed_record_counts where records = 0 and (user_id = 0 or user_id between ${range[0]} and ${range[1]})`.execute(db)
}

/** `member_seed_stats` of the range's members, from their cube rows (≤ 64 each). */
export async function refreshMemberStats(db: Kysely<DB>, [a, b]: [number, number]): Promise<void> {
  const low = Math.max(a, 1)
  await sql`insert into member_seed_stats (user_id, records, seeding_count, seeding_size, assigned_count, uploaded)
    select * from (
      select user_id, sum(records), sum(seeding), sum(seeding_size), sum(case when assigned = ${sql.lit(AssignmentLabel.Assigned)} then records else 0 end), sum(uploaded)
      from seed_record_counts where user_id between ${low} and ${b} group by user_id
    ) m where true
    on conflict (user_id) do update set records = excluded.records, seeding_count = excluded.seeding_count,
      seeding_size = excluded.seeding_size, assigned_count = excluded.assigned_count, uploaded = excluded.uploaded`.execute(db)
  await sql`delete from member_seed_stats where user_id between ${low} and ${b}
    and not exists (select 1 from seed_record_counts c where c.user_id = member_seed_stats.user_id)`.execute(db)
}

/** Rebuilds the cube and the member figures from `seed_records` (end of a full pass, bulk loads). */
export async function rebuildCounts(db: Kysely<DB>): Promise<void> {
  await sql`delete from seed_record_counts`.execute(db)
  await sql`insert into seed_record_counts (${cubeKey}, records, seeding, seeding_size, uploaded)
    select user_id, status, seed_type, claim_state, assigned, count(*), sum(seeding), sum(seeding * size), sum(uploaded)
    from seed_records group by user_id, status, seed_type, claim_state, assigned`.execute(db)
  await sql`insert into seed_record_counts (${cubeKey}, records, seeding, seeding_size, uploaded)
    select 0, status, seed_type, claim_state, assigned, sum(records), sum(seeding), sum(seeding_size), sum(uploaded)
    from seed_record_counts group by status, seed_type, claim_state, assigned`.execute(db)
  await sql`delete from member_seed_stats`.execute(db)
  await sql`insert into member_seed_stats (user_id, records, seeding_count, seeding_size, assigned_count, uploaded)
    select user_id, sum(records), sum(seeding), sum(seeding_size), sum(case when assigned = ${sql.lit(AssignmentLabel.Assigned)} then records else 0 end), sum(uploaded)
    from seed_record_counts where user_id > 0 group by user_id`.execute(db)
}
