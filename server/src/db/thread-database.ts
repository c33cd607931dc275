/**
 * A worker thread's own connections to the server's SQLite file (a writer and a reader, as the server
 * has), opened on its first job and kept while the thread lives: the page cache stays warm from one
 * job to the next. Their transactions give way to the server's waiting writes. They end with the thread.
 */
import { openDatabase, type AppDatabase } from './database'

const opened = new Map<string, Promise<AppDatabase>>()

/** `turns`: the server's write turns on the file (write-turns.ts), sent with every job. */
export function threadDatabase(file: string, turns: SharedArrayBuffer): Promise<AppDatabase> {
  let database = opened.get(file)
  if (!database) {
    database = openDatabase({ kind: 'sqlite', file }, { jobTurns: turns })
    opened.set(file, database)
  }
  return database
}

/** Closes the thread's connections (the thread is about to exit). */
export async function closeThreadDatabases(): Promise<void> {
  const all = [...opened.values()]
  opened.clear()
  await Promise.all(all.map(async (database) => (await database).close()))
}
