/**
 * The ids a paced primary-key scan (a table with table-level locks, session.ts `span`) does not read
 * window by window: those the table does not have. Ids only grow (auto-increment) and rows that leave
 * leave holes, so a table whose rows come and go holds a band of high ids — a real site's peers around
 * 40,000,000, a long-lived seeder's far below — and a scan from 0 in windows of at most `lockedScanIds`
 * ids issued thousands of statements that found nothing. So a scan starts just before the table's next
 * id past its cursor, and after a window that returned no row asks again (`SELECT MIN(id) … WHERE id > ?`:
 * answered from the primary key, no row read): a gap of any size costs one statement. A skipped gap
 * stays empty (a new row takes an id past every existing one), so a cursor moved past it misses nothing.
 *
 * A window also returns no row where the table is dense but the scan's filter (members, changed rows)
 * keeps none: there the next id is right after the window and the ask saved nothing — after such an ask
 * the next comes only after 1, 2, 4… more empty windows (a few asks where windows were needed anyway).
 */
import type { SourceTable } from '../schema-check'
import type { SyncSession } from './session'

/**
 * Where the first window of a scan of `table` whose cursor is at `after` starts: just before the table's
 * next id, `end` when it has none up to `end`. Asked once per sync and cursor (a read-ahead plan and its
 * step start alike); only where the scan is paced, never on a hash-keyed table (no order to ask in).
 */
export async function scanStart(s: SyncSession, table: SourceTable, after: number, end: number): Promise<number> {
  if (after >= end || !s.engines.locking.has(table) || s.engines.hashKeyed.has(table)) return after
  const next = await s.once(`next id ${table} ${after}`, async () => {
    const rows = await s.source.query<{ m: number | null }>(`SELECT MIN(id) AS m FROM ${table} WHERE id > ?`, [after], table)
    const m = rows[0]?.m
    return m === null || m === undefined ? null : Number(m)
  })
  return next === null ? end : Math.max(after, Math.min(end, next - 1))
}

/** One scan's way past the gaps of `table` up to `end`. */
export class ScanGaps {
  /** Empty windows to let pass before the next ask, and those passed since the last. */
  private wait = 0
  private passed = 0

  constructor(
    private readonly s: SyncSession,
    private readonly table: SourceTable,
    private readonly end: number,
  ) {}

  /** Where the scan's first window starts, its cursor at `after`. */
  start(after: number): Promise<number> {
    return scanStart(this.s, this.table, after, this.end)
  }

  /** Where the window after one that ended at `after` starts (`found`: that window returned rows). */
  async next(after: number, found: boolean): Promise<number> {
    if (found || this.passed++ < this.wait) return after
    this.passed = 0
    const start = await this.start(after)
    this.wait = start - after >= this.s.span(this.table, true) ? 0 : Math.max(1, this.wait * 2)
    return start
  }
}
