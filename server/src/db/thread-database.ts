/**
 * A worker thread's own connections to the server's SQLite file (a writer and a reader, as the server
 * has), opened on its first job and kept while the thread lives: the page cache stays warm from one
 * job to the next. They end with the thread.
 */
import { openDatabase, type AppDatabase } from './database'

const opened = new Map<string, Promise<AppDatabase>>()

export function threadDatabase(file: string): Promise<AppDatabase> {
  let database = opened.get(file)
  if (!database) {
    database = openDatabase({ kind: 'sqlite', file })
    opened.set(file, database)
  }
  return database
}
