/**
 * The sync's heavy steps, and the relabelling passes after admin changes, in a worker thread of their
 * own on SQLite (sync-thread.ts), with their own connections on the file (the two never overlap: both
 * hold the sync lease).
 *
 * better-sqlite3 runs each statement on the calling thread: on the server's connections the demo
 * source's range statements (~0.2 s at the default size), the derivation's batches and their commits
 * held every request for their length — page-seed p99 ~250 ms during a sync, the target
 * 100 ms. In the thread they hold only the thread. Requests still read the last commit at once
 * (WAL); a request that writes waits for the thread's current transaction on a timer
 * (db/sqlite-routing.ts), without holding the event loop, and the thread lets it in before its next
 * transaction (db/write-turns.ts).
 *
 * PostgreSQL (statements run in the database), ':memory:' and a caller inside a transaction run
 * in-process.
 */
import type { SyncProgress } from '@shared/entities'
import type { DeriveOptions, DeriveOutcome } from '../derive'
import type { SourceSpec } from '../sources/create'
import type { SourceSite } from '../sources/source'
import { jobThread, type ThreadFile } from '../util/job-thread'
import type { SyncSteps } from './sync-steps'

/** `lost`: an Int32Array's memory the server sets to 1 once the sync's lease is taken over (the thread then stops). */
export type SyncThreadJob = ThreadFile &
  ({ kind: 'sync'; spec: SourceSpec; now: number; lost: SharedArrayBuffer } | { kind: 'derive'; now: number; full?: boolean })

/** A sync's steps as the thread ran them, and the site as its source read it then. */
export type ThreadSyncSteps = SyncSteps & { site: SourceSite | null }

const thread = jobThread<SyncThreadJob>({ bundle: 'sync-worker.js', source: new URL('./sync-thread.ts', import.meta.url) })

/** Jobs handed to the sync thread by this process (tests check that a job went through it). */
export function syncThreadJobs(): number {
  return thread.jobs
}

export function syncStepsInThread(
  target: ThreadFile,
  spec: SourceSpec,
  now: number,
  progress: (progress: SyncProgress) => void,
  lost: SharedArrayBuffer,
): Promise<ThreadSyncSteps> {
  return thread.run({ kind: 'sync', ...target, spec, now, lost }, (event) => progress(event as SyncProgress)) as Promise<ThreadSyncSteps>
}

/** Ends the sync thread once its jobs are done; it closes its source's connections first (after each sync, SyncRunner.stop). */
export function closeSyncThread(): Promise<void> {
  return thread.close()
}

/** A derivation pass (derive/index.ts) in the thread. */
export function deriveInThread(target: ThreadFile, options: Pick<DeriveOptions, 'now' | 'full'>): Promise<DeriveOutcome> {
  return thread.run({ kind: 'derive', ...target, now: options.now, full: options.full }) as Promise<DeriveOutcome>
}
