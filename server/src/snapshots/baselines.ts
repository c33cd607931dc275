/**
 * Baselines the daily snapshots cannot give (a record's counters where its wage window starts),
 * written by every sync after its derivation (migration 0014):
 *
 * - a record's first observation: its counters at the sync that created it. A record missing from
 *   its window's start snapshot counts from here (部分月份), never from 0.
 * - an assignment's start: the record's counters at the first sync after it was assigned, the
 *   baseline of an assignment that began inside the period (later than the assignment by at most one
 *   sync interval).
 * - a 站点 UID change: the member's records' counters once they are derived from the new account (no
 *   derivation of the member pending), dated by the change — their baseline from then on (migration 0036).
 */
import { AssignmentLabel } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { int, yieldToEventLoop } from '../db/sql-fragments'

// One statement per ~50,000 records (a first sync notes every record): on SQLite each blocks the event loop.
const RECORDS_PER_STATEMENT = 50_000

/** Assignments younger than this are looked at each sync (a month and a few days of slack). */
const ASSIGNMENT_LOOKBACK_MS = 35 * 24 * 3600 * 1000

export async function recordBaselines(db: Kysely<DB>, now: number): Promise<void> {
  // Record ids are never reused (AUTOINCREMENT / identity), so everything above the highest id seen is new.
  const { rows } = await sql<{ seen: number | null; hi: number | null }>`select (select max(record_id) from record_first_counters) as seen,
    (select max(id) from seed_records) as hi`.execute(db)
  const hi = Number(rows[0]?.hi ?? 0)
  for (let from = Number(rows[0]?.seen ?? 0); from < hi; from += RECORDS_PER_STATEMENT) {
    await sql`insert into record_first_counters (record_id, seen_at, seed_time_sec, uploaded)
      select r.id, ${int(now)}, r.seed_time_sec, r.uploaded from seed_records r
      where r.id > ${int(from)} and r.id <= ${int(from + RECORDS_PER_STATEMENT)}
      on conflict do nothing`.execute(db)
    await yieldToEventLoop()
  }
  await sql`insert into assignment_counters (record_id, assigned_at, seed_time_sec, uploaded)
    select r.id, r.assigned_at, r.seed_time_sec, r.uploaded from seed_records r
    where r.assigned_at >= ${int(now - ASSIGNMENT_LOOKBACK_MS)} and r.assigned = ${sql.lit(AssignmentLabel.Assigned)}
      and not exists (select 1 from assignment_counters a where a.record_id = r.id and a.assigned_at = r.assigned_at)
    on conflict do nothing`.execute(db)
  await noteSiteUidRebases(db)
}

/**
 * The counters of the records of members whose 站点 UID changed, once derived from the new account (record_rebases),
 * by a sync: not by the change's own relabelling pass, which runs before the NexusPHP source has read the new
 * account's rows (its next sync does). A change whose member still has a derivation queued or under way waits: until
 * then the records may hold the old account's counters.
 */
async function noteSiteUidRebases(db: Kysely<DB>): Promise<void> {
  const derived = sql`not exists (select 1 from derive_queue q where q.user_id = c.user_id)
    and not exists (select 1 from derive_work w where w.user_id = c.user_id)`
  // Changed and changed back before a sync saw it (a slip corrected at once): the records count the account they
  // counted before, the start snapshot's — no rebase.
  await sql`delete from site_uid_changes where user_id in (select c.user_id from site_uid_changes c join users u on u.id = c.user_id
      where ${derived} and u.site_uid = c.from_uid
        and c.changed_at = (select min(e.changed_at) from site_uid_changes e where e.user_id = c.user_id))`.execute(db)
  await sql`insert into record_rebases (record_id, rebased_at, seed_time_sec, uploaded, noted_before_day)
    select r.id, c.changed_at, r.seed_time_sec, r.uploaded, coalesce((select s.last_snapshot_day from sync_state s where s.id = 1), 0)
    from site_uid_changes c join seed_records r on r.user_id = c.user_id
    where ${derived}
    on conflict do nothing`.execute(db)
  await sql`delete from site_uid_changes where user_id in (select c.user_id from site_uid_changes c where ${derived})`.execute(db)
}
