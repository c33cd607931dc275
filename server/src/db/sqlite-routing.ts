/**
 * SQLite with a writer and a reader connection on one file (WAL). Kysely's own SQLite dialect has a
 * single connection behind a mutex, so a transaction — a wage compute, a derivation range, a sync
 * page — made every request's reads queue behind it; and its statements, synchronous, never let the
 * event loop take a request meanwhile (BENCHMARKS.md「Requests while heavy work runs」). Here:
 *
 * - a read statement outside a transaction runs on the reader at once: in WAL mode it sees the last
 *   committed state and never waits for the writer;
 * - transactions, writes and anything else hold the writer, one Kysely connection at a time, until
 *   the connection is released (a plain query: that statement; a transaction: until commit/rollback;
 *   `db.connection()`: from its first write to its end);
 * - `withWriter` holds the writer for code that uses the raw handle (bulk loads);
 * - a job of many statements gives the event loop a turn every SQLITE_SLICE_MS (EventLoopTurns);
 * - another connection's write transaction (the sync thread's, jobs/sync-thread.ts) is waited for
 *   without holding the event loop: transactions BEGIN IMMEDIATE, and a BEGIN or a statement
 *   outside a transaction that finds the file locked is tried again after a timer (busyRetry), not
 *   in SQLite's busy handler, which sleeps on the calling thread; a job thread's transactions give
 *   way to the server's waiting writes (write-turns.ts).
 *
 * A ':memory:' database has no second connection: everything then runs on the writer, as before.
 */
import { performance } from 'node:perf_hooks'
import SQLite from 'better-sqlite3'
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'
import { withStatementCache } from './statement-cache'
import type { WriteTurns } from './write-turns'

/** One holder at a time, in the order they asked. */
class Mutex {
  private tail: Promise<void> = Promise.resolve()

  lock(): Promise<() => void> {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const acquired = this.tail.then(() => release)
    this.tail = this.tail.then(() => held)
    return acquired
  }
}

type Handle = ReturnType<typeof withStatementCache>
type Statement = SQLite.Statement<unknown[], Record<string, unknown>>

/** Only statements that read: SELECT/WITH that SQLite itself calls read-only (BEGIN is "read-only" too, so the verb is checked first). */
const READ_VERB = /^\s*(select|with)\b/i

/**
 * A compiled query marked by array-rows.ts: its rows are wanted as arrays of column values
 * (better-sqlite3's raw mode), not as objects.
 */
export const ARRAY_ROWS = Symbol('array rows')
type MaybeArrayRows = CompiledQuery & { [ARRAY_ROWS]?: true }

function resultOf<R>(statement: Statement, compiled: MaybeArrayRows): QueryResult<R> {
  const parameters = compiled.parameters as unknown[]
  if (statement.reader && compiled[ARRAY_ROWS]) {
    // The statement is shared (statement-cache.ts): back to objects for the next user.
    statement.raw(true)
    try {
      return { rows: statement.all(parameters) as R[] }
    } finally {
      statement.raw(false)
    }
  }
  if (statement.reader) return { rows: statement.all(parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return {
    insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
    numAffectedRows: changes != null ? BigInt(changes) : undefined,
    rows: [],
  }
}

/** How long a write blocked in SQLite's busy handler waits for another connection's lock (readers, `withWriter`). */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000

/**
 * How long a write waits on a timer for another connection's lock before failing with SQLITE_BUSY:
 * the wait holds nothing but the request itself, and a thread that writes batch after batch (a
 * large sync) leaves only short gaps between its transactions for a timer to catch.
 */
export const SQLITE_LOCK_WAIT_MS = 15_000

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}

/**
 * Runs `statement` on `raw`; when the file is locked by another connection, tries again after a
 * timer until SQLITE_LOCK_WAIT_MS have passed. Only where nothing was done: a statement run
 * outside a transaction (SQLite undid it) or a BEGIN. Inside a transaction — which BEGIN IMMEDIATE
 * started holding the lock — the error is the caller's. `turns` (write-turns.ts): the server's
 * connection counts itself as waiting meanwhile; a job thread's gives way to such waiting writes first.
 */
async function busyRetry<R>(raw: SQLite.Database, run: () => R, turns: WriteTurns | null): Promise<R> {
  if (raw.inTransaction) return run()
  if (turns?.role === 'job') await turns.giveWay()
  const deadline = performance.now() + SQLITE_LOCK_WAIT_MS
  let stopWaiting: (() => void) | null = null
  try {
    for (let wait = 1; ; wait = Math.min(wait * 2, 16)) {
      try {
        return run()
      } catch (error) {
        if (!isBusy(error) || raw.inTransaction || performance.now() >= deadline) throw error
      }
      if (turns?.role === 'request') stopWaiting ??= turns.startWaiting()
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  } finally {
    stopWaiting?.()
  }
}

/** How long statements may run back to back before the event loop gets a turn. */
export const SQLITE_SLICE_MS = 10

/**
 * better-sqlite3 runs each statement synchronously, and Kysely's awaits around it resolve as
 * microtasks: a job of many statements (a wage compute, a sync step) never let the event loop take
 * a request until it ended, whichever connection the request would read on. So every
 * SQLITE_SLICE_MS of statements without a turn, the next statement waits for one (setImmediate:
 * incoming requests run first). A turn the job gives by itself (it awaited the network) counts.
 */
class EventLoopTurns {
  private lastTurn = performance.now()
  private watching = false

  async beforeStatement(): Promise<void> {
    if (!this.watching) {
      this.watching = true
      setImmediate(() => this.turned())
    }
    if (performance.now() - this.lastTurn < SQLITE_SLICE_MS) return
    await new Promise<void>((resolve) => setImmediate(resolve))
  }

  private turned(): void {
    this.lastTurn = performance.now()
    this.watching = false
  }
}

class RoutedConnection implements DatabaseConnection {
  private release: (() => void) | null = null

  constructor(private readonly driver: RoutedSqliteDriver) {}

  async holdWriter(): Promise<void> {
    if (!this.release) this.release = await this.driver.writerLock.lock()
  }

  releaseWriter(): void {
    const release = this.release
    this.release = null
    release?.()
  }

  private async statementFor(sql: string): Promise<{ statement: Statement; onWriter: boolean }> {
    const onReader = this.release ? null : this.driver.readStatement(sql)
    if (onReader) return { statement: onReader, onWriter: false }
    await this.holdWriter()
    return { statement: this.driver.writer.prepare(sql) as Statement, onWriter: true }
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.driver.turns.beforeStatement()
    const { statement, onWriter } = await this.statementFor(compiled.sql)
    if (!onWriter) return resultOf<R>(statement, compiled)
    return busyRetry(this.driver.rawWriter, () => resultOf<R>(statement, compiled), this.driver.writeTurns)
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    await this.driver.turns.beforeStatement()
    const { statement } = await this.statementFor(compiled.sql)
    if (!statement.reader) throw new Error('SQLite streams only statements that return rows')
    let n = 0
    for (const row of statement.iterate(compiled.parameters as unknown[])) {
      yield { rows: [row as R] }
      if (++n % 256 === 0) await this.driver.turns.beforeStatement()
    }
  }
}

class RoutedSqliteDriver implements Driver {
  readonly writerLock = new Mutex()
  readonly turns = new EventLoopTurns()
  readonly writer: Handle
  private readonly reader: Handle | null

  constructor(
    readonly rawWriter: SQLite.Database,
    rawReader: SQLite.Database | null,
    readonly writeTurns: WriteTurns | null,
  ) {
    // Locks are waited for by busyRetry (a timer), never by SQLite's busy handler (a sleep on this
    // thread). A read-only connection (a worker's) takes no lock that a writer holds: it keeps its own.
    if (!rawWriter.readonly) rawWriter.pragma('busy_timeout = 0')
    this.writer = withStatementCache(rawWriter)
    this.reader = rawReader && withStatementCache(rawReader)
  }

  /** The reader's statement for `sql` when it only reads and the reader can run it (a temp table lives on the writer only). */
  readStatement(sql: string): Statement | null {
    if (!this.reader || !READ_VERB.test(sql)) return null
    try {
      const statement = this.reader.prepare(sql) as Statement
      return statement.readonly ? statement : null
    } catch {
      return null
    }
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this)
  }

  /**
   * IMMEDIATE: the write lock is taken (or waited for) at BEGIN. A deferred transaction that read
   * and then found another connection's newer commit could not write at all (SQLITE_BUSY_SNAPSHOT).
   */
  async beginTransaction(connection: RoutedConnection): Promise<void> {
    await connection.holdWriter()
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }

  async commitTransaction(connection: RoutedConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  /** SQLite rolls back by itself on some errors (SQLITE_FULL); a second ROLLBACK would fail and hide the real error. */
  async rollbackTransaction(connection: RoutedConnection): Promise<void> {
    if (this.rawWriter.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async savepoint(connection: RoutedConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`))
  }

  async rollbackToSavepoint(connection: RoutedConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`))
  }

  async releaseSavepoint(connection: RoutedConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`))
  }

  async releaseConnection(connection: RoutedConnection): Promise<void> {
    connection.releaseWriter()
  }

  async destroy(): Promise<void> {
    this.reader?.close()
    this.writer.close()
  }

  /**
   * Runs `work` while no Kysely statement of this process uses the writer. Its raw statements wait
   * for another connection's lock in SQLite's busy handler (bulk loads: startup, the benches).
   */
  async withWriter<T>(work: () => T | Promise<T>): Promise<T> {
    const release = await this.writerLock.lock()
    const busy = this.rawWriter.pragma('busy_timeout', { simple: true })
    this.rawWriter.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
    try {
      return await work()
    } finally {
      this.rawWriter.pragma(`busy_timeout = ${Number(busy)}`)
      release()
    }
  }
}

/** Several Kysely connections at once: the driver decides which share the writer. */
class RoutedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true
  }
}

export interface RoutedSqlite {
  dialect: Dialect
  withWriter<T>(work: () => T | Promise<T>): Promise<T>
}

/** `turns`: the file's write turns between the server's threads (write-turns.ts); null for a read-only or private connection. */
export function routedSqlite(writer: SQLite.Database, reader: SQLite.Database | null, turns: WriteTurns | null = null): RoutedSqlite {
  const driver = new RoutedSqliteDriver(writer, reader, turns)
  const dialect: Dialect = {
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new RoutedSqliteAdapter(),
    createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db),
  }
  return { dialect, withWriter: (work) => driver.withWriter(work) }
}
