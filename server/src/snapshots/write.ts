/** Writes the day's counter snapshot and applies the retention policy (see ./policy.ts). */
import { AssignmentLabel, ClaimState } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { yieldToEventLoop } from '../db/sql-fragments'
import { addDays, localDay } from '../domain/local-day'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { recordBaselines } from './baselines'
import { ROLLING_SNAPSHOT_DAYS } from './policy'
import { snapshotDayOnOrAfter, snapshotDays } from './read'

// One statement per ~50,000 records (or torrent ids): on SQLite each blocks the event loop while it runs.
const RECORDS_PER_STATEMENT = 50_000
const TORRENTS_PER_STATEMENT = 50_000

export interface SnapshotOutcome {
  day: number
  /** False when the day had its snapshot already. */
  written: boolean
  pruned: number[]
}

/**
 * Takes the snapshot of `now`'s local day unless it exists (the first sync of a day takes it, the
 * others skip), after noting every sync's new records and assignments (./baselines.ts). Call after
 * the derivation, so the counters are the sync's.
 */
export async function takeDailySnapshot(database: AppDatabase, options: { now: number; timeZone: string }): Promise<SnapshotOutcome> {
  const { db } = database
  await recordBaselines(db, options.now)
  const day = localDay(options.now, options.timeZone)
  const state = await db.selectFrom('sync_state').select('last_snapshot_day').where('id', '=', 1).executeTakeFirst()
  if (state?.last_snapshot_day != null && state.last_snapshot_day >= day) return { day, written: false, pruned: [] }
  // The month's first snapshot is the previous month's end (wages/reader.ts): the torrents (seeders, official or not…)
  // and the claimed or assigned records with it, copied before its counters — a day with counters then has all of
  // them, wherever a sync was cut (the copies are idempotent, and the day is marked taken last).
  const monthEnd = await snapshotDayOnOrAfter(db, Math.floor(day / 100) * 100)
  if (monthEnd === null || monthEnd === day) await copyMonthEnd(db, day)
  // No records yet (a new install's first sync, before any member is added): no snapshot, and the day stays open
  // for the next sync's — an empty day would leave the month with no counters to compute from until tomorrow.
  if (!(await copyRecordCounters(db, day))) return { day, written: false, pruned: [] }
  // A month end without seeders (taken before 0.3.4, or counters copied by a cut sync of an earlier version's order):
  // the seeders now, once — kept from here on, so the month pays the same whenever it is computed.
  if (monthEnd !== null && monthEnd !== day && !(await hasSeeders(db, monthEnd))) await copyTorrentSeeders(db, monthEnd)
  await db.updateTable('sync_state').set({ last_snapshot_day: day }).where('id', '=', 1).execute()
  const pruned = await pruneSnapshots(db, day)
  return { day, written: true, pruned }
}

/** What a month's first snapshot day keeps of the month before it besides the counters: torrents, ties, accounts. */
export async function copyMonthEnd(db: Kysely<DB>, day: number): Promise<void> {
  await copyTorrentSeeders(db, day)
  await copyMonthEndTies(db, day)
  await copyMonthEndAccounts(db, day)
}

/** Copies every record's counters into `day`, one id range per statement. Idempotent. False: there are no records. */
export async function copyRecordCounters(db: Kysely<DB>, day: number, counters = sql`r.seed_time_sec, r.uploaded`): Promise<boolean> {
  const bounds = await sql<{ lo: number | null; hi: number | null }>`select min(id) as lo, max(id) as hi from seed_records`.execute(db)
  const lo = Number(bounds.rows[0]?.lo ?? 0)
  const hi = Number(bounds.rows[0]?.hi ?? -1)
  for (let start = lo; start <= hi; start += RECORDS_PER_STATEMENT) {
    await sql`insert into counter_snapshots (day, record_id, seed_time_sec, uploaded)
      select ${day}, r.id, ${counters} from seed_records r where r.id between ${start} and ${start + RECORDS_PER_STATEMENT - 1}
      on conflict do nothing`.execute(db)
    await yieldToEventLoop()
  }
  return hi >= lo
}

/**
 * Copies every claimed or assigned record's tie into `day` (month_end_ties, migration 0035), one id range per
 * statement. Idempotent. A month's first snapshot day only: the ties a closed month is paid by (wages/reader.ts) — a
 * claim given up or a torrent deleted after the 1st still pays the month it was kept.
 */
export async function copyMonthEndTies(db: Kysely<DB>, day: number): Promise<void> {
  const claimed = sql`case when r.claim_state = ${sql.lit(ClaimState.Claimed)} then 1 else 0 end`
  const assigned = sql`case when r.assigned = ${sql.lit(AssignmentLabel.Assigned)} then 1 else 0 end`
  // The member's claim of the torrent (one per uid and torrent): its begins from before its first settlement, else
  // the ones it holds now — as the wage reader reads them for a claim made in the month (wages/reader.ts).
  const claimBegin = (column: string) =>
    sql`case when r.claim_state = ${sql.lit(ClaimState.Claimed)} then (select coalesce(${sql.ref(`b.${column}`)}, ${sql.ref(`c.${column}`)})
      from users u join site_claims c on c.uid = u.site_uid and c.torrent_id = r.torrent_id
        left join claim_first_begins b on b.claim_id = c.id and b.created_at = c.created_at
      where u.id = r.user_id) end`
  const claimId = sql`case when r.claim_state = ${sql.lit(ClaimState.Claimed)} then (select c.id
      from users u join site_claims c on c.uid = u.site_uid and c.torrent_id = r.torrent_id where u.id = r.user_id) end`
  const bounds = await sql<{ lo: number | null; hi: number | null }>`select min(id) as lo, max(id) as hi from seed_records`.execute(db)
  const lo = Number(bounds.rows[0]?.lo ?? 0)
  const hi = Number(bounds.rows[0]?.hi ?? -1)
  for (let start = lo; start <= hi; start += RECORDS_PER_STATEMENT) {
    await sql`insert into month_end_ties (day, record_id, user_id, torrent_id, seed_type, claimed, claimed_at,
        claim_seed_time_begin, claim_uploaded_begin, claim_id, assigned, assigned_at)
      select ${day}, r.id, r.user_id, r.torrent_id, r.seed_type, ${claimed}, case when ${claimed} = 1 then r.claimed_at else 0 end,
        ${claimBegin('seed_time_begin')}, ${claimBegin('uploaded_begin')}, ${claimId},
        ${assigned}, case when ${assigned} = 1 then r.assigned_at else 0 end
      from seed_records r where r.id between ${start} and ${start + RECORDS_PER_STATEMENT - 1}
        and (r.claim_state = ${sql.lit(ClaimState.Claimed)} or r.assigned = ${sql.lit(AssignmentLabel.Assigned)})
      on conflict do nothing`.execute(db)
    await yieldToEventLoop()
  }
}

/**
 * Copies every member's site account state into `day` (month_end_accounts, migration 0038): enabled, deleted. Idempotent.
 * A month's first snapshot day only, with the ties: an account the site disables after the 1st still is paid the month.
 */
export async function copyMonthEndAccounts(db: Kysely<DB>, day: number): Promise<void> {
  const deleted = (await siteAccountsMirrored(db)) ? sql`case when s.id is null then 1 else 0 end` : sql`0`
  await sql`insert into month_end_accounts (day, user_id, site_enabled, site_deleted)
    select ${day}, u.id, case when s.enabled = 0 then 0 else 1 end, ${deleted}
    from users u left join site_users s on s.id = u.site_uid
    where u.site_uid is not null
    on conflict do nothing`.execute(db)
}

/**
 * Copies every torrent that has seed records into `day` (torrent_seeder_snapshots, migrations 0031 and 0035): its
 * seeders, name, size, age, seed type and ban — one id range per statement. Idempotent. Only a month's first snapshot
 * day takes them: that is the moment a closed month's wage reads them at (`N` "at period end", domain.md §4), and
 * keeping them for every torrent every day would be 200,000 rows a day.
 */
export async function copyTorrentSeeders(db: Kysely<DB>, day: number): Promise<void> {
  const bounds = await sql<{
    lo: number | null
    hi: number | null
  }>`select min(torrent_id) as lo, max(torrent_id) as hi from torrent_labels`.execute(db)
  const lo = Number(bounds.rows[0]?.lo ?? 0)
  const hi = Number(bounds.rows[0]?.hi ?? -1)
  for (let start = lo; start <= hi; start += TORRENTS_PER_STATEMENT) {
    await sql`insert into torrent_seeder_snapshots (day, torrent_id, seeders, name, size, added, seed_type, banned)
      select ${day}, l.torrent_id, l.seeders, l.name, l.size, l.added, l.seed_type, l.banned from torrent_labels l
      where l.torrent_id between ${start} and ${start + TORRENTS_PER_STATEMENT - 1}
        and exists (select 1 from seed_records r where r.torrent_id = l.torrent_id)
      on conflict do nothing`.execute(db)
    await yieldToEventLoop()
  }
}

async function hasSeeders(db: Kysely<DB>, day: number): Promise<boolean> {
  return (await db.selectFrom('torrent_seeder_snapshots').select('day').where('day', '=', day).limit(1).executeTakeFirst()) !== undefined
}

/** Deletes days older than the rolling window unless they are the first snapshot day of their month (counters and seeders). */
export async function pruneSnapshots(db: Kysely<DB>, today: number): Promise<number[]> {
  const cutoff = addDays(today, -ROLLING_SNAPSHOT_DAYS)
  const days = await snapshotDays(db)
  const firstOfMonth = new Set<number>()
  const seenMonths = new Set<number>()
  for (const day of days) {
    const month = Math.floor(day / 100)
    if (!seenMonths.has(month)) {
      seenMonths.add(month)
      firstOfMonth.add(day)
    }
  }
  const doomed = days.filter((day) => day < cutoff && !firstOfMonth.has(day))
  for (const day of doomed) await db.deleteFrom('counter_snapshots').where('day', '=', day).execute()
  // The torrents and ties are kept as long as their day's counters. They are written on a month's first day only, which stays:
  // this deletes only what a day's counters no longer keep (say, rows written out of turn by hand or a script).
  for (const table of ['torrent_seeder_snapshots', 'month_end_ties', 'month_end_accounts'] as const)
    for (const day of await snapshotDays(db, table))
      if (day < cutoff && !firstOfMonth.has(day)) await db.deleteFrom(table).where('day', '=', day).execute()
  return doomed
}
