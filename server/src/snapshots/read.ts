/**
 * Reader API of the counter snapshots, for the wage engine.
 *
 *   const start = await snapshotDayOnOrAfter(db, 20260101)      // 20260101 (or the first day the server ran)
 *   for await (const rows of countersAt(db, start)) {           // keyset pages in record_id order
 *     for (const { recordId, seedTimeSec, uploaded } of rows) …
 *   }
 *
 * A month's gain of a record is countersAt(first snapshot of the next month) − countersAt(first
 * snapshot of the month); for the running month use the live seed_records counters as the end.
 * A record missing from the start snapshot was first seen later: its baseline is its first
 * observation (./baselines.ts), never 0: counting from 0 would credit this month with everything
 * it uploaded before it was first seen.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'

export interface CounterRow {
  recordId: number
  seedTimeSec: number
  uploaded: number
}

/**
 * Every day that has a snapshot, ascending (a skip scan: one index probe per day). `table`: the torrents or the ties
 * and accounts kept with some of them (torrent_seeder_snapshots, month_end_ties, month_end_accounts) instead of the
 * records' counters.
 */
export async function snapshotDays(
  db: Kysely<DB>,
  table: 'counter_snapshots' | 'torrent_seeder_snapshots' | 'month_end_ties' | 'month_end_accounts' = 'counter_snapshots',
): Promise<number[]> {
  const days: number[] = []
  let after = -1
  for (;;) {
    const { rows } = await sql<{ d: number | null }>`select min(day) as d from ${sql.table(table)} where day > ${after}`.execute(db)
    const d = rows[0]?.d
    if (d === null || d === undefined) return days
    days.push(Number(d))
    after = Number(d)
  }
}

/** The first snapshot day ≥ `day` (a period's start when the server missed the 1st), or null. */
export async function snapshotDayOnOrAfter(db: Kysely<DB>, day: number): Promise<number | null> {
  const { rows } = await sql<{ d: number | null }>`select min(day) as d from counter_snapshots where day >= ${day}`.execute(db)
  return rows[0]?.d == null ? null : Number(rows[0].d)
}

/** The last snapshot day ≤ `day`, or null. */
export async function snapshotDayOnOrBefore(db: Kysely<DB>, day: number): Promise<number | null> {
  const { rows } = await sql<{ d: number | null }>`select max(day) as d from counter_snapshots where day <= ${day}`.execute(db)
  return rows[0]?.d == null ? null : Number(rows[0].d)
}

/** Streams the counters of one snapshot day in record_id order, `pageSize` rows at a time. */
export async function* countersAt(db: Kysely<DB>, day: number, pageSize = 10_000): AsyncGenerator<CounterRow[]> {
  let after = 0
  for (;;) {
    const rows = await db
      .selectFrom('counter_snapshots')
      .select(['record_id', 'seed_time_sec', 'uploaded'])
      .where('day', '=', day)
      .where('record_id', '>', after)
      .orderBy('record_id')
      .limit(pageSize)
      .execute()
    if (rows.length === 0) return
    yield rows.map((r) => ({ recordId: r.record_id, seedTimeSec: Number(r.seed_time_sec), uploaded: Number(r.uploaded) }))
    after = rows[rows.length - 1].record_id
    if (rows.length < pageSize) return
  }
}

/** Counters of specific records at a day (e.g. one member's wage items). */
export async function countersOf(db: Kysely<DB>, day: number, recordIds: readonly number[]): Promise<Map<number, CounterRow>> {
  const out = new Map<number, CounterRow>()
  for (let i = 0; i < recordIds.length; i += 1000) {
    const rows = await db
      .selectFrom('counter_snapshots')
      .select(['record_id', 'seed_time_sec', 'uploaded'])
      .where('day', '=', day)
      .where('record_id', 'in', recordIds.slice(i, i + 1000))
      .execute()
    for (const r of rows)
      out.set(r.record_id, { recordId: r.record_id, seedTimeSec: Number(r.seed_time_sec), uploaded: Number(r.uploaded) })
  }
  return out
}
