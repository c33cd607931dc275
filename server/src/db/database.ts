/**
 * Opens the server's own database: SQLite (better-sqlite3, the default) or PostgreSQL (pg).
 * Both sit behind the same Kysely instance so that every query is written once.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config'
import { answerArrayRows } from './array-rows'
import type { DB } from './schema'
import { routedSqlite, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-routing'
import { requestTurnsOf, WriteTurns } from './write-turns'

export type DialectName = 'sqlite' | 'postgres'

export interface AppDatabase {
  db: Kysely<DB>
  dialect: DialectName
  /**
   * The raw SQLite handle, for bulk loads only (prepared statements in a loop are ~3× faster than
   * built queries). Use it inside `withWriter` (or a transaction) so that nothing else writes meanwhile.
   */
  sqlite?: SQLite.Database
  /** Runs `work` while no other statement of this process writes (SQLite's one writer; PostgreSQL: just runs it). */
  withWriter<T>(work: () => T | Promise<T>): Promise<T>
  /** Closes the pool / file handle. Safe to call twice. */
  close(): Promise<void>
}

const PG_INT8 = 20
const PG_NUMERIC = 1700

/**
 * pg returns int8 and numeric as strings (they may exceed 2^53). Ours are epoch milliseconds,
 * byte counts and amounts, all far below 2^53, so numbers are what the code expects — as SQLite gives.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => (value === null ? null : Number(value))
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

export interface OpenDatabaseOptions {
  /** Errors of idle pooled PostgreSQL connections (e.g. the server restarted); they are not fatal. */
  onBackgroundError?: (error: Error) => void
  /**
   * SQLite, a job thread's connection: the server's write turns on the file (write-turns.ts), whose
   * waiting writes its transactions give way to. Without it the connection is the server's own.
   */
  jobTurns?: SharedArrayBuffer
}

export async function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): Promise<AppDatabase> {
  return config.kind === 'sqlite' ? openSqlite(config.file, options.jobTurns) : openPostgres(config.url, options)
}

function openSqlite(file: string, jobTurns: SharedArrayBuffer | undefined): AppDatabase {
  // A folder it creates is its owner's alone: the database holds password and token hashes and the payout ledger.
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const database = withTextFunctions(new SQLite(file))
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  // Another connection's lock is waited for by the routed driver, without holding the event loop.
  // WAL + NORMAL is durable across application crashes; only an OS crash may lose the last commits.
  database.pragma('synchronous = NORMAL')
  // 64 MiB page cache (default 2 MiB): the derivation updates indexes of millions of rows at
  // random places; with the default most of those pages are re-read through the OS on every batch.
  database.pragma('cache_size = -65536')
  // A long write (a first import) grows the log file; once checkpointed it is cut back to 64 MiB
  // instead of keeping its largest size on disk for good.
  database.pragma('journal_size_limit = 67108864')
  // Requests read here while a transaction holds the writer (sqlite-routing.ts).
  const reader = file === ':memory:' ? null : openSqliteReadonly(file)
  const turns = reader === null ? null : jobTurns ? new WriteTurns('job', jobTurns) : requestTurnsOf(mainFile(database))
  const routed = routedSqlite(database, reader, turns)
  const db = new Kysely<DB>({ dialect: routed.dialect })
  return { db, dialect: 'sqlite', sqlite: database, withWriter: routed.withWriter, close: once(() => db.destroy()) }
}

/** The connection's file as SQLite names it (absolute): the file the job threads are sent (util/job-thread.ts workerFile). */
function mainFile(database: SQLite.Database): string {
  const list = database.pragma('database_list') as { name: string; file: string }[]
  return list.find((d) => d.name === 'main')!.file
}

/**
 * SQLite's lower() and LIKE fold ASCII only: `unicode_lower` folds every script as JavaScript (and PostgreSQL's lower()
 * under a UTF-8 locale) does, so a name with a capital Ü, Ё or Σ matches case-insensitively (sql-fragments.ts foldCase).
 */
function withTextFunctions(database: SQLite.Database): SQLite.Database {
  database.function('unicode_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
  return database
}

/** A read-only connection on a SQLite file: in WAL mode it reads the last commit and never waits for the writer. */
function openSqliteReadonly(file: string, cacheKib = 32_768): SQLite.Database {
  const reader = withTextFunctions(new SQLite(file, { readonly: true, fileMustExist: true }))
  reader.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  reader.pragma(`cache_size = -${cacheKib}`)
  return reader
}

/**
 * A Kysely that can only read the SQLite file, on its own connection with the reader's pragmas and
 * statement cache: for a worker thread (wages/worker.ts), whose statements then hold its own event
 * loop, not the server's. Writes fail (SQLITE_READONLY); transactions are read snapshots.
 */
export function openSqliteReader(file: string, cacheKib?: number): Kysely<DB> {
  return new Kysely<DB>({ dialect: routedSqlite(openSqliteReadonly(file, cacheKib), null).dialect })
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<AppDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes, connectionTimeoutMillis: 10_000 })
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // crashes the process. The pool replaces the client; the next query reconnects.
  pool.on('error', (error) => options.onBackgroundError?.(error))
  pool.on('connect', answerArrayRows)
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  try {
    await sql`select 1`.execute(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return { db, dialect: 'postgres', withWriter: async (work) => work(), close: once(() => db.destroy()) }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined
  return () => (done ??= fn())
}
