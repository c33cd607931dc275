/**
 * A worker thread that runs heavy jobs of one kind on SQLite (wages/offload.ts: wage reads;
 * jobs/sync-offload.ts: the sync and the derivation), so that better-sqlite3's synchronous
 * statements hold the thread's own event loop, not the server's.
 *
 * One thread per kind, started on the first job and reused: starting one costs ~0.2 s from the bundle
 * (loading kysely, pg, zod in a fresh isolate) and ~0.5 s through tsx. It ends after THREAD_IDLE_MS
 * without jobs, or as soon as a job starts in a thread of another kind, and its memory with it: asked
 * to, it closes what it opened (a NexusPHP source's connections say goodbye instead of showing as
 * aborted in the site's MariaDB log, every sync) and exits; one that does not within THREAD_CLOSE_MS is terminated. `close()` ends it the same way once its jobs are done.
 * Jobs arriving together run side by side in it. A crash fails the jobs it had; the next job starts a
 * new thread. Errors cross the boundary as the in-process path would
 * throw them (an AppError keeps its status and Chinese text; anything else its message and code).
 */
import { fileURLToPath } from 'node:url'
import { parentPort, Worker } from 'node:worker_threads'
import { type Kysely, sql, SqliteAdapter } from 'kysely'
import type { DB } from '../db/schema'
import { requestTurnsOf } from '../db/write-turns'
import { AppError } from '../errors'
import { collectGarbage, enableJobGarbageCollection } from './job-gc'

/**
 * What a job thread is sent to work on: the SQLite file, and the server's write turns on it
 * (db/write-turns.ts), whose waiting writes the thread's transactions let in first.
 */
export interface ThreadFile {
  file: string
  turns: SharedArrayBuffer
}

/** The SQLite file a thread can open for `db`, with its turns; null when the job must run in-process. */
export async function workerFile(db: Kysely<DB>): Promise<ThreadFile | null> {
  // PostgreSQL runs statements in the database; a caller inside a transaction has uncommitted writes
  // that are not in the file.
  if (db.isTransaction || !(db.getExecutor().adapter instanceof SqliteAdapter)) return null
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db)
  // '' = ':memory:' or a temporary database: private to its connection.
  const file = rows[0]?.file
  return file ? { file, turns: requestTurnsOf(file).shared } : null
}

interface SerializedError {
  name: string
  message: string
  stack?: string
  code?: unknown
  app?: { code: number; msg: string; headers: Record<string, string> }
}

type Reply = { ok: true; value: unknown } | { ok: false; error: SerializedError }

/** Thread → server: an event of a running job (progress), or its end. */
type ThreadMessage = { id: number; event: unknown } | { id: number; reply: Reply }

/** Server → thread: a job, or the request to close and exit. */
type ServerMessage = { id: number; job: unknown } | { close: true }

/**
 * How long a thread waits for its next job before it ends. An idle thread keeps its isolate and its
 * connections' page caches (up to 96 MiB in the sync thread); kept for a minute after a job, they added
 * to the next job's peak (a relabelling pass right after a compute: two threads). Jobs seconds apart
 * (the breakdown drawer after a preview) still reuse it. Its heap's garbage goes earlier, at the full
 * collection after each job (job-gc.ts).
 */
export const THREAD_IDLE_MS = 10_000

/**
 * The threads of every kind that take jobs now. A job starting in one ends the others that are idle:
 * an idle thread keeps its isolate's heap and its page caches, and beside a busy thread of the other kind
 * (a relabelling pass right after a compute, the estimates right after a derivation) the two added up —
 * the large bench's highest peaks. Reuse within a kind (jobs seconds apart) is unchanged.
 */
const taking = new Set<Thread>()

/** Threads that take jobs now, of every kind (tests). */
export function liveJobThreads(): number {
  return taking.size
}

/** How long a thread asked to close may take to close its connections before it is terminated. */
export const THREAD_CLOSE_MS = 5_000

export function serializeError(error: unknown): SerializedError {
  const e = error instanceof Error ? error : new Error(String(error))
  const code = (e as { code?: unknown }).code
  return {
    name: e.name,
    message: e.message,
    stack: e.stack,
    code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
    app: e instanceof AppError ? { code: e.code, msg: e.msg, headers: e.headers } : undefined,
  }
}

export function deserializeError(error: SerializedError): Error {
  if (error.app) return new AppError(error.app.code, error.app.msg, error.app.headers)
  const e = new Error(error.message) as Error & { code?: unknown }
  e.name = error.name
  if (error.code !== undefined) e.code = error.code
  // The thread's stack: where it failed, for the server log.
  if (error.stack) e.stack = error.stack
  return e
}

export interface ThreadEntry {
  /** The bundle's file beside dist/index.js (server/build.mjs). */
  bundle: string
  /** The .ts entry, for source runs. */
  source: URL
}

/**
 * Source (vitest, `npm run dev`, the benches run src/*.ts through tsx): the .ts entry, with tsx's
 * loader registered inside it — Node 20 does not apply `--import tsx` given in a worker's execArgv —
 * and server/tsconfig.json for the `@shared/*` paths. The bundle (`node dist/index.js`): build.mjs's
 * file beside it.
 */
function startThread(entry: ThreadEntry): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry.bundle}`, import.meta.url))
  const tsx = import.meta.resolve('tsx/esm/api')
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url))
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register({ tsconfig: ${JSON.stringify(tsconfig)} }); return import(${JSON.stringify(entry.source.href)}) })`
  return new Worker(boot, { eval: true })
}

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  onEvent?: (event: unknown) => void
}

class Thread {
  private readonly worker: Worker
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private idle: NodeJS.Timeout | null = null
  private closing = false
  private readonly exited: Promise<void>
  /** No new job goes to it (it is closing or gone). */
  ended = false

  constructor(
    entry: ThreadEntry,
    private readonly idleMs: number,
    private readonly onEnd: () => void,
  ) {
    this.worker = startThread(entry)
    taking.add(this)
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.on('message', (message: ThreadMessage) => {
      const job = this.pending.get(message.id)
      if ('event' in message) return job?.onEvent?.(message.event)
      this.pending.delete(message.id)
      if (message.reply.ok) job?.resolve(message.reply.value)
      else job?.reject(deserializeError(message.reply.error))
      this.settled()
    })
    this.worker.on('messageerror', (error) => this.end(error))
    this.worker.on('error', (error) => this.end(error))
    this.worker.on('exit', (code) => this.end(new Error(`the ${entry.bundle} thread exited with code ${code} before answering`)))
  }

  run(job: unknown, onEvent?: (event: unknown) => void): Promise<unknown> {
    const id = this.nextId++
    if (this.idle) clearTimeout(this.idle)
    this.idle = null
    for (const other of taking) if (other !== this && other.pending.size === 0) void other.close()
    // A job in flight keeps the process up (its caller awaits it); an idle thread does not.
    this.worker.ref()
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onEvent })
      this.worker.postMessage({ id, job } satisfies ServerMessage)
    })
  }

  private settled(): void {
    if (this.pending.size) return
    this.worker.unref()
    if (this.closing) return this.askToClose()
    this.idle = setTimeout(() => void this.close(), this.idleMs)
    this.idle.unref()
  }

  /** Ends the thread once its jobs are done: it closes its connections and exits (or is terminated). */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = true
      this.stopTaking()
      if (!this.pending.size) this.askToClose()
    }
    return this.exited
  }

  private askToClose(): void {
    // Whoever awaits the close (a server shutting down) must not see the process end first: an idle
    // thread is unref'd, and with nothing else left Node would exit while it closes.
    this.worker.ref()
    this.worker.postMessage({ close: true } satisfies ServerMessage)
    const force = setTimeout(() => void this.worker.terminate(), THREAD_CLOSE_MS)
    force.unref()
    void this.exited.then(() => clearTimeout(force))
  }

  /** No job goes to it any more. */
  private stopTaking(): void {
    if (this.idle) clearTimeout(this.idle)
    this.idle = null
    if (this.ended) return
    this.ended = true
    taking.delete(this)
    this.onEnd()
  }

  /** It failed or exited: its jobs fail with `error`. */
  end(error: unknown): void {
    this.stopTaking()
    for (const job of this.pending.values()) job.reject(error)
    this.pending.clear()
    void this.worker.terminate()
  }
}

export interface JobThread<Job> {
  /**
   * Runs `job` in the thread; `onEvent` hears what the job emits meanwhile. A thread that dies
   * without answering rejects with an Error (the API answers it as any unexpected failure).
   */
  run(job: Job, onEvent?: (event: unknown) => void): Promise<unknown>
  /** Jobs handed to the thread by this process (tests check that a job went through one). */
  readonly jobs: number
  /** Ends the current thread, if any, once its jobs are done (it closes its connections); a later job starts a new one. */
  close(): Promise<void>
}

export function jobThread<Job>(entry: ThreadEntry, idleMs = THREAD_IDLE_MS): JobThread<Job> {
  let current: Thread | null = null
  let jobs = 0
  return {
    run(job, onEvent) {
      jobs++
      if (!current || current.ended) {
        const thread: Thread = new Thread(entry, idleMs, () => {
          if (current === thread) current = null
        })
        current = thread
      }
      return current.run(job, onEvent)
    },
    get jobs() {
      return jobs
    },
    close() {
      return current ? current.close() : Promise.resolve()
    },
  }
}

/**
 * Thread side: answers every job the server sends with `handle`'s value (and the buffers to
 * transfer) or its error; `emit` sends the job's events. Asked to close (no job is running then),
 * it runs `close` — the connections the jobs opened — and exits.
 */
export function serveJobs<Job>(
  handle: (job: Job, emit: (event: unknown) => void) => Promise<{ value: unknown; transfer?: ArrayBuffer[] }>,
  close: () => Promise<void> = async () => {},
): void {
  const port = parentPort!
  enableJobGarbageCollection()
  port.on('message', (message: ServerMessage) => {
    if ('close' in message) {
      void close()
        .catch(() => {})
        .finally(() => process.exit(0))
      return
    }
    const { id, job } = message
    const emit = (event: unknown) => port.postMessage({ id, event } satisfies ThreadMessage)
    handle(job as Job, emit)
      .then(
        ({ value, transfer }) => port.postMessage({ id, reply: { ok: true, value } } satisfies ThreadMessage, transfer ?? []),
        (error: unknown) => port.postMessage({ id, reply: { ok: false, error: serializeError(error) } } satisfies ThreadMessage),
      )
      // What the job left is garbage now: collected at once, not while the next job builds its own.
      .finally(collectGarbage)
  })
}
