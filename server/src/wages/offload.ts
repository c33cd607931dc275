/**
 * Runs the heavy read + formula part of a wage job in a worker thread (worker.ts) on SQLite.
 *
 * better-sqlite3 runs statements synchronously on the calling thread, so a wage job read on the
 * server's own connections held its event loop for every statement and batch (requests waited
 * ~0.1 s, up to ~0.7 s). The thread opens its own read-only connection on the same file; in WAL mode
 * it neither waits for the server's writer nor blocks it. Writes stay on the server's one writer.
 *
 * PostgreSQL, a ':memory:' database and a caller inside a transaction run the same code in-process
 * instead (util/job-thread.ts `workerFile`).
 */
import { jobThread, type ThreadFile } from '../util/job-thread'
import type { JobAnswers, WageJob, WageThreadJob } from './worker-protocol'

export { workerFile } from '../util/job-thread'

const thread = jobThread<WageThreadJob>({ bundle: 'wage-worker.js', source: new URL('./worker.ts', import.meta.url) })

/** Jobs handed to a wage worker by this process (tests check that a job went through one). */
export function wageWorkerJobs(): number {
  return thread.jobs
}

/** Runs `job` on `target` (workerFile) in the wage worker. */
export function runInWorker<K extends WageJob['kind']>(target: ThreadFile, job: Extract<WageJob, { kind: K }>): Promise<JobAnswers[K]> {
  return thread.run({ ...target, job }) as Promise<JobAnswers[K]>
}
