/**
 * SQLite's write-ahead log during a sync (a transaction per page, then the derivation's batches). By
 * default every commit that finds the log past 1,000 pages (4 MiB) checkpoints: it copies the pages the
 * last commits touched back into the database file and syncs it — an incremental NexusPHP sync did that
 * a dozen times. Without any checkpoint until the end the log grows by everything the sync writes: a
 * demo sync of 1.1 M records left a 7.5 GB log and ran 35% slower (page lookups search a longer log).
 * Here: a checkpoint only past 16,384 pages (64 MiB), and one at the end.
 */
import type { AppDatabase } from './database'

/** Pages in the log before a commit checkpoints, while a sync runs. */
export const SYNC_CHECKPOINT_PAGES = 16_384

export async function withSyncCheckpoints<T>(database: AppDatabase, work: () => Promise<T>): Promise<T> {
  const raw = database.dialect === 'sqlite' ? database.sqlite : undefined
  if (!raw) return work()
  const previous = Number(raw.pragma('wal_autocheckpoint', { simple: true }))
  // Nested (or concurrent) use: only the outermost call sets and checkpoints.
  if (previous === SYNC_CHECKPOINT_PAGES) return work()
  raw.pragma(`wal_autocheckpoint = ${SYNC_CHECKPOINT_PAGES}`)
  try {
    return await work()
  } finally {
    raw.pragma(`wal_autocheckpoint = ${previous}`)
    raw.pragma('wal_checkpoint(PASSIVE)')
  }
}
