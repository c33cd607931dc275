/**
 * The sync job: every SYNC_INTERVAL seconds the source brings the mirror up to date, then the
 * derivation, the day's counter snapshot, the daily aggregates and the statistics cache follow —
 * all with one sync time. Never two at once: an in-process guard, plus a lease row in sync_state
 * for other processes on the same database (a crashed holder's lease simply expires).
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { SyncProgress } from '@shared/entities'
import type { AppDatabase } from '../db/database'
import { int } from '../db/sql-fragments'
import { withSyncCheckpoints } from '../db/wal'
import { derive, type DeriveOutcome } from '../derive'
import { localDay } from '../domain/local-day'
import { currentRules } from '../rules/rules'
import { takeDailySnapshot, type SnapshotOutcome } from '../snapshots/write'
import { refreshAllStats } from '../stats/cache'
import { recordDailyStats } from '../stats/daily'
import type { Source } from '../sources/source'
import type { WageEstimates } from '../wages/estimates'

/** A sync holding the lease longer than this is presumed dead. */
export const SYNC_LEASE_MS = 30 * 60_000

export interface SyncOutcome {
  ran: true
  now: number
  rows: Record<string, number>
  derive: DeriveOutcome
  snapshot: SnapshotOutcome
  ms: number
}

export type SyncResult = SyncOutcome | { ran: false; reason: 'running' }

export interface SyncDeps {
  database: AppDatabase
  source: Source
  wages: WageEstimates
  clock: () => number
  log?: FastifyBaseLogger
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

export class SyncRunner {
  private readonly owner = randomBytes(8).toString('hex')
  private running: Promise<SyncResult> | null = null
  private timer: NodeJS.Timeout | null = null
  private stopped = false
  private currentProgress: SyncProgress | null = null
  private rerunRequested = false

  constructor(private readonly deps: SyncDeps) {}

  /** Whether this process is running a sync now. */
  get busy(): boolean {
    return this.running !== null
  }

  /** What the running sync of this process is reading (null when none runs or it has not said yet). */
  get progress(): SyncProgress | null {
    return this.running ? this.currentProgress : null
  }

  /** The source's kind (demo, nexusphp, ingest). */
  get sourceKind(): Source['kind'] {
    return this.deps.source.kind
  }

  /**
   * Runs one sync at `now` (default: the clock) and resolves when it is done. Tests call this with
   * their own clock. While one runs, another call answers `{ ran: false }` at once.
   */
  runOnce(now?: number): Promise<SyncResult> {
    if (this.running) return Promise.resolve({ ran: false, reason: 'running' })
    this.currentProgress = null
    const run = this.execute(now).finally(() => {
      this.running = null
      this.currentProgress = null
    })
    this.running = run
    return run
  }

  private async execute(requestedNow: number | undefined): Promise<SyncResult> {
    const { database, source, wages } = this.deps
    const { db } = database
    const started = performance.now()
    // The source's clock when it has one (a source that cannot even answer that fails here, before
    // the lease: the previous data stays and last_error says why).
    const now = requestedNow ?? (source.clock ? await this.sourceNow(source.clock.bind(source)) : this.deps.clock())
    const claimed = await sql`update sync_state set lock_owner = ${this.owner}, lock_expires_at = ${int(now + SYNC_LEASE_MS)},
        last_started_at = ${int(now)}
      where id = 1 and (lock_owner is null or lock_expires_at < ${int(now)})`.execute(db)
    if (Number(claimed.numAffectedRows ?? 0) !== 1) return { ran: false, reason: 'running' }
    try {
      // Few WAL checkpoints during the sync, one at its end (db/wal.ts).
      const { rows, derived, snapshot } = await withSyncCheckpoints(database, async () => {
        const rules = await currentRules(db)
        const rows = await source.sync({ database, now, rules, progress: (progress) => (this.currentProgress = progress) })
        const derived = await derive(database, { now })
        await tidyAfterDerive(database, derived)
        const snapshot = await takeDailySnapshot(database, { now, timeZone: rules.timezone })
        await recordDailyStats(db, localDay(now, rules.timezone))
        await refreshAllStats(db, { now, wages })
        return { rows, derived, snapshot }
      })
      const ms = Math.round(performance.now() - started)
      await db
        .updateTable('sync_state')
        // The end in the sync time's frame (the source's clock when it has one): start + what it took.
        .set({ lock_owner: null, lock_expires_at: null, last_finished_at: now + ms, last_error: null, rows: JSON.stringify(rows) })
        .where('id', '=', 1)
        .where('lock_owner', '=', this.owner)
        .execute()
      return { ran: true, now, rows, derive: derived, snapshot, ms }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await db
        .updateTable('sync_state')
        .set({ lock_owner: null, lock_expires_at: null, last_error: message.slice(0, 2000) })
        .where('id', '=', 1)
        .where('lock_owner', '=', this.owner)
        .execute()
        .catch(() => {})
      throw error
    }
  }

  private async sourceNow(clock: () => Promise<number>): Promise<number> {
    try {
      return await clock()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await this.deps.database.db
        .updateTable('sync_state')
        .set({ last_error: message.slice(0, 2000) })
        .where('id', '=', 1)
        .execute()
        .catch(() => {})
      throw error
    }
  }

  /**
   * A sync soon, without waiting for it (pushed rows are waiting in the derivation queue): now when
   * none runs, else once more right after the running one. Failures land in sync_state.last_error.
   */
  requestRun(): void {
    if (this.stopped) return
    if (this.running) {
      if (!this.rerunRequested) {
        this.rerunRequested = true
        const again = () => {
          this.rerunRequested = false
          this.requestRun()
        }
        this.running.then(again, again)
      }
      return
    }
    this.runOnce().catch((error: unknown) => this.deps.log?.error({ err: error }, 'sync failed'))
  }

  /** Runs a sync every `intervalSec` seconds, the first one `firstDelayMs` from now. */
  start(intervalSec: number, firstDelayMs = intervalSec * 1000): void {
    this.stopped = false
    const schedule = (delay: number) => {
      if (this.stopped) return
      this.timer = setTimeout(() => {
        this.timer = null
        this.runOnce().then(
          (result) => {
            if (result.ran) this.deps.log?.info({ ms: result.ms, rows: result.rows, derive: result.derive }, 'sync finished')
          },
          (error: unknown) => this.deps.log?.error({ err: error }, 'sync failed'),
        ).finally(() => schedule(intervalSec * 1000))
      }, delay)
      this.timer.unref()
    }
    schedule(firstDelayMs)
  }

  /** Stops scheduling, waits for a running sync to end and releases the source. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running?.catch(() => {})
    await this.deps.source.close?.()
  }
}
