/**
 * The sync job: every SYNC_INTERVAL seconds the source brings the mirror up to date, then the
 * derivation, the day's counter snapshot, the daily aggregates and the statistics cache follow —
 * all with one sync time. Never two at once: an in-process guard, plus the sync lease for other
 * processes on the same database (db/lease.ts: a dead holder's lease is taken over at once on
 * this machine, within seconds from another; a restart finishes the interrupted sync right away).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { SyncProgress } from '@shared/entities'
import type { AppDatabase } from '../db/database'
import { derive, type DeriveOptions, type DeriveOutcome } from '../derive'
import type { SnapshotOutcome } from '../snapshots/write'
import { refreshAllStats } from '../stats/cache'
import type { SourceSpec } from '../sources/create'
import type { Source, SourceSite } from '../sources/source'
import { workerFile } from '../util/job-thread'
import type { WageEstimates } from '../wages/estimates'
import { acquireLease, clearDeadLease, HEARTBEAT_MS, STALE_AFTER_MS } from '../db/lease'
import { diskFullMessage, isDiskFull, type StorageTrouble } from '../http/storage-trouble'
import { closeSyncThread, deriveInThread, syncStepsInThread } from './sync-offload'
import { leaseLostMessage, runSyncSteps } from './sync-steps'

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
  /**
   * What `source` was built from: given, a SQLite file database runs the sync's steps in the sync
   * thread (sync-offload.ts) with the same source built there. Without it (tests with a source of
   * their own), in-process.
   */
  sourceSpec?: SourceSpec
  wages: WageEstimates
  clock: () => number
  log?: FastifyBaseLogger
  /** Told when a sync fails on a full disk, so /health reports it too. */
  storage?: StorageTrouble
}

export class SyncRunner {
  private running: Promise<SyncResult> | null = null
  private timer: NodeJS.Timeout | null = null
  private stopped = false
  private currentProgress: SyncProgress | null = null
  private rerunRequested = false
  /** The site as the sync thread's source read it at the last sync there. */
  private threadSite: SourceSite | null = null

  constructor(private readonly deps: SyncDeps) {}

  /** Whether this process is running a sync now. */
  get busy(): boolean {
    return this.running !== null
  }

  /** What the running sync of this process is reading (null when none runs or it has not said yet). */
  get progress(): SyncProgress | null {
    return this.running ? this.currentProgress : null
  }

  /**
   * A derivation pass outside a sync (the relabelling after an admin change, derive/relabel.ts,
   * which holds the lease): where the sync's steps run — the sync thread on a SQLite file.
   */
  async derivePass(options: Pick<DeriveOptions, 'now' | 'full'>): Promise<DeriveOutcome> {
    const { database, sourceSpec } = this.deps
    const target = sourceSpec ? await workerFile(database.db) : null
    return target ? deriveInThread(target, options) : derive(database, options)
  }

  /** The source's kind (demo, nexusphp, ingest). */
  get sourceKind(): Source['kind'] {
    return this.deps.source.kind
  }

  /** The site as the source reads it (NexusPHP: time zone, peer lifetime), for /sync/status; null for other sources. */
  get site(): SourceSite | null {
    return this.threadSite ?? this.deps.source.site?.() ?? null
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
    // Set once another process took the lease over: the steps (here or in the sync thread) stop at their next report.
    const lost = new Int32Array(new SharedArrayBuffer(4))
    const lease = await acquireLease(db, {
      what: 'sync',
      clock: this.deps.clock,
      claimSet: { last_started_at: now },
      onLost: () => {
        Atomics.store(lost, 0, 1)
        this.deps.log?.error('sync lease taken over by another process while this sync ran (it stalled): it stops')
      },
    })
    if (!lease) return { ran: false, reason: 'running' }
    const held = () => Atomics.load(lost, 0) === 0
    try {
      const progress = (progress: SyncProgress) => (this.currentProgress = progress)
      const spec = this.deps.sourceSpec
      const target = spec ? await workerFile(db) : null
      let steps
      if (spec && target) {
        steps = await syncStepsInThread(target, spec, now, progress, lost.buffer as SharedArrayBuffer)
        this.threadSite = steps.site
        // The thread ends now, not after its idle time: the statistics refresh and the wage estimates
        // (in the wage thread) come next, and beside a live sync thread a sync after a rules change peaked
        // at 413–567 MB at 2 M records, 329–349 without it. The next sync is minutes away; a relabelling
        // pass meanwhile starts a new thread (~0.2 s).
        await closeSyncThread()
      } else {
        steps = await runSyncSteps(database, source, now, progress, held)
      }
      if (!held()) throw new Error(leaseLostMessage)
      const { rows, derived, snapshot } = steps
      this.currentProgress = { table: 'stats', read: 0, total: null }
      await refreshAllStats(db, { now, wages })
      const ms = Math.round(performance.now() - started)
      // The end in the sync time's frame (the source's clock when it has one): start + what it took.
      await lease.release({ last_finished_at: now + ms, last_error: null, rows: JSON.stringify(rows) })
      return { ran: true, now, rows, derive: derived, snapshot, ms }
    } catch (error) {
      // A full disk is said in Chinese on /data-sync (the raw text is English: "database or disk is full").
      const full = isDiskFull(error)
      if (full) this.deps.storage?.markFull(this.deps.clock())
      const message = full ? diskFullMessage : error instanceof Error ? error.message : String(error)
      await lease.release({ last_error: message.slice(0, 2000) }).catch(() => {})
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

  /** Resolves once no sync runs and none is requested after it (a push's runs chain: one more after the running one). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.catch(() => {})
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

  /**
   * Runs a sync every `intervalSec` seconds, the first one `firstDelayMs` from now — or at once when
   * the last one was cut short by its process dying (its derivation queue and half-written mirror
   * wait for it). A lease whose holder may live elsewhere is looked at again once it would be stale.
   */
  start(intervalSec: number, firstDelayMs = intervalSec * 1000): void {
    this.stopped = false
    const resumeIfInterrupted = (again: boolean) =>
      clearDeadLease(this.deps.database.db, this.deps.clock()).then(
        (interrupted) => {
          if (interrupted) {
            this.deps.log?.warn('the last sync was interrupted (its process died): running it again now')
            this.requestRun()
          } else if (again) {
            setTimeout(() => void resumeIfInterrupted(false), STALE_AFTER_MS + HEARTBEAT_MS).unref()
          }
        },
        (error: unknown) => this.deps.log?.error({ err: error }, 'could not read the sync lease'),
      )
    void resumeIfInterrupted(true)
    const schedule = (delay: number) => {
      if (this.stopped) return
      this.timer = setTimeout(() => {
        this.timer = null
        this.runOnce()
          .then(
            (result) => {
              if (result.ran) this.deps.log?.info({ ms: result.ms, rows: result.rows, derive: result.derive }, 'sync finished')
            },
            (error: unknown) => this.deps.log?.error({ err: error }, 'sync failed'),
          )
          .finally(() => schedule(intervalSec * 1000))
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
    // The thread's own source (a NexusPHP pool) quits its connections too, instead of being cut off at exit.
    if (this.deps.sourceSpec) await closeSyncThread()
  }
}
