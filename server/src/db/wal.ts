/**
 * SQLite's write-ahead log during a long series of commits (a sync: a transaction per page, then the
 * derivation). By default every commit that finds the log past 1,000 pages checkpoints: it copies the
 * pages the last commits touched back into the database file and syncs the file — the same table and
 * index pages again and again, with an fsync each time. Here: no checkpoint until the work is done,
 * then one. (The log grows meanwhile — by what the work writes; readers see every commit as usual.)
 */
import type { AppDatabase } from './database'

export async function withOneCheckpoint<T>(database: AppDatabase, work: () => Promise<T>): Promise<T> {
  const raw = database.dialect === 'sqlite' ? database.sqlite : undefined
  if (!raw) return work()
  const previous = Number(raw.pragma('wal_autocheckpoint', { simple: true }))
  // Nested (or concurrent) use: only the outermost call checkpoints.
  if (previous === 0) return work()
  raw.pragma('wal_autocheckpoint = 0')
  try {
    return await work()
  } finally {
    raw.pragma(`wal_autocheckpoint = ${previous}`)
    raw.pragma('wal_checkpoint(PASSIVE)')
  }
}
