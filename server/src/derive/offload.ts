/**
 * The derivation in a worker thread of its own on SQLite (thread.ts), for the relabelling pass after
 * an admin change (relabel.ts): a full pass after a rules change judges every record, and on the
 * server's connections its batches and commits held every request for their length. The sync's own
 * derivation runs in the sync thread with the rest of the sync (jobs/sync-offload.ts); the two never
 * overlap (both hold the sync lease).
 *
 * PostgreSQL, ':memory:' and a caller inside a transaction run in-process.
 */
import type { AppDatabase } from '../db/database'
import { jobThread, workerFile } from '../util/job-thread'
import { derive, type DeriveOptions, type DeriveOutcome } from './index'

export interface DeriveThreadJob {
  file: string
  now: number
  full?: boolean
}

const thread = jobThread<DeriveThreadJob>({ bundle: 'derive-worker.js', source: new URL('./thread.ts', import.meta.url) })

/** Passes handed to the derive thread by this process (tests check that a pass went through it). */
export function deriveThreadJobs(): number {
  return thread.jobs
}

export async function deriveOffloaded(database: AppDatabase, options: Pick<DeriveOptions, 'now' | 'full'>): Promise<DeriveOutcome> {
  const file = await workerFile(database.db)
  if (!file) return derive(database, options)
  return thread.run({ file, now: options.now, full: options.full }) as Promise<DeriveOutcome>
}
