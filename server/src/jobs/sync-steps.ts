/**
 * A sync's heavy steps, all at one sync time: the source brings the mirror up to date, then the
 * derivation, the day's counter snapshot and the daily aggregates. The sync job (sync.ts) runs them
 * in the sync thread on SQLite (sync-offload.ts), in-process otherwise; the statistics refresh
 * after them stays with the job (it is short, and its wage estimates have a thread of their own).
 */
import { sql } from 'kysely'
import type { SyncProgress } from '@shared/entities'
import type { AppDatabase } from '../db/database'
import { withSyncCheckpoints } from '../db/wal'
import { derive, type DeriveOutcome } from '../derive'
import { localDay } from '../domain/local-day'
import { currentRules } from '../rules/rules'
import { takeDailySnapshot, type SnapshotOutcome } from '../snapshots/write'
import { recordDailyStats } from '../stats/daily'
import type { Source } from '../sources/source'

export interface SyncSteps {
  rows: Record<string, number>
  derived: DeriveOutcome
  snapshot: SnapshotOutcome
}

/** Rows a pass must write before PostgreSQL's seed_records is vacuumed right away. */
export const VACUUM_AFTER_CHANGES = 50_000

/**
 * PostgreSQL only: after a pass that rewrote many records, VACUUM (ANALYZE) them now rather than
 * when autovacuum gets to it — index-only scans (the deep pages of page-seed) need the visibility
 * map, and the planner fresh row counts. SQLite needs neither.
 */
async function tidyAfterDerive(database: AppDatabase, derived: DeriveOutcome): Promise<void> {
  if (database.dialect !== 'postgres' || derived.changed < VACUUM_AFTER_CHANGES) return
  await sql`vacuum (analyze) seed_records`.execute(database.db)
  await sql`vacuum (analyze) torrent_labels`.execute(database.db)
}

/** Said on /data-sync when a sync stopped because another server process took its lease over (db/lease.ts). */
export const leaseLostMessage = '同步已中止：本进程停顿超过 10 秒，另一个服务器进程接手了同步'

/**
 * `held`: whether the sync still holds the lease. One that lost it (it stalled past STALE_AFTER_MS and another process
 * took it over, running its own sync on the same tables) stops at its next step or batch — each progress report is one —
 * instead of deriving, snapshotting and answering success beside the other (found by an outside tester).
 */
export async function runSyncSteps(
  database: AppDatabase,
  source: Source,
  now: number,
  report: (progress: SyncProgress) => void,
  held: () => boolean = () => true,
): Promise<SyncSteps> {
  const { db } = database
  const progress = (progress: SyncProgress) => {
    if (!held()) throw new Error(leaseLostMessage)
    report(progress)
  }
  // Few WAL checkpoints during the sync, one at its end (db/wal.ts).
  return withSyncCheckpoints(database, async () => {
    const rules = await currentRules(db)
    const rows = await source.sync({ database, now, rules, progress })
    // The console's own steps show on /data-sync too (shared/enums.ts syncStepLabels).
    progress({ table: 'derive:torrents', read: 0, total: null })
    const derived = await derive(database, {
      now,
      onProgress: (step, read, total) => progress({ table: `derive:${step}`, read, total }),
    })
    await tidyAfterDerive(database, derived)
    progress({ table: 'snapshot', read: 0, total: null })
    const snapshot = await takeDailySnapshot(database, { now, timeZone: rules.timezone })
    await recordDailyStats(db, localDay(now, rules.timezone))
    return { rows, derived, snapshot }
  })
}
