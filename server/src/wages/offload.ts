/**
 * Runs the heavy read + formula part of a wage job in a worker thread (worker.ts) on SQLite.
 *
 * better-sqlite3 runs statements synchronously on the calling thread, so a wage job read on the
 * server's own connections held its event loop for every statement and batch (requests waited
 * ~0.1 s, up to ~0.7 s). A worker opens its own read-only connection on the same file; in WAL mode
 * it neither waits for the server's writer nor blocks it. Writes stay on the server's one writer.
 *
 * PostgreSQL (its statements run in the database), a ':memory:' database (no second connection can
 * open it) and a caller inside a transaction (its uncommitted writes are not in the file) run the
 * same code in-process instead.
 */
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { type Kysely, sql, SqliteAdapter } from 'kysely'
import type { DB } from '../db/schema'
import { deserializeError, type JobAnswers, type WageJob, type WorkerReply } from './worker-protocol'

/** The SQLite file a worker can read for `db`, or null when the job must run in-process. */
export async function workerFile(db: Kysely<DB>): Promise<string | null> {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof SqliteAdapter)) return null
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db)
  // '' = ':memory:' or a temporary database: private to its connection.
  return rows[0]?.file || null
}

/** How long an idle worker is kept for the next job before it ends (and its memory with it). */
const IDLE_MS = 60_000

let jobs = 0

/** Jobs handed to a wage worker by this process (tests check that a job went through one). */
export function wageWorkerJobs(): number {
  return jobs
}

/**
 * Source (vitest, `npm run dev`, the benches run src/*.ts through tsx): the .ts worker, with tsx's
 * loader registered inside it — Node 20 does not apply `--import tsx` given in a worker's execArgv —
 * and server/tsconfig.json for the `@shared/*` paths. The bundle (`node dist/index.js`): build.mjs's
 * dist/wage-worker.js beside it.
 */
function startWorker(): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new Worker(new URL('./wage-worker.js', here))
  const tsx = import.meta.resolve('tsx/esm/api')
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', here))
  const entry = new URL('./worker.ts', here).href
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register({ tsconfig: ${JSON.stringify(tsconfig)} }); return import(${JSON.stringify(entry)}) })`
  return new Worker(boot, { eval: true })
}

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * One worker thread, started on the first job and reused: starting one costs ~0.2 s from the bundle
 * (loading kysely, pg, zod in a fresh isolate) and ~0.5 s through tsx, which a member's breakdown
 * (a preview) would pay on every click. It ends after IDLE_MS without jobs, so the month's columns
 * and the isolate do not stay in memory between computes. Jobs arriving together run side by side
 * in it, each on its own connection. A crash fails the jobs it had; the next job starts a new one.
 */
class WageWorker {
  private readonly worker = startWorker()
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private idle: NodeJS.Timeout | null = null
  ended = false

  constructor(private readonly onEnd: () => void) {
    this.worker.on('message', ({ id, reply }: { id: number; reply: WorkerReply }) => {
      const job = this.pending.get(id)
      this.pending.delete(id)
      if (reply.ok) job?.resolve(reply.value)
      else job?.reject(deserializeError(reply.error))
      this.settled()
    })
    this.worker.on('messageerror', (error) => this.end(error))
    this.worker.on('error', (error) => this.end(error))
    this.worker.on('exit', (code) => this.end(new Error(`the wage worker exited with code ${code} before answering`)))
  }

  run(file: string, job: WageJob): Promise<unknown> {
    const id = this.nextId++
    if (this.idle) clearTimeout(this.idle)
    this.idle = null
    // A job in flight keeps the process up (its caller awaits it); an idle worker does not.
    this.worker.ref()
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ id, file, job })
    })
  }

  private settled(): void {
    if (this.pending.size) return
    this.worker.unref()
    this.idle = setTimeout(() => this.end(null), IDLE_MS)
    this.idle.unref()
  }

  private end(error: unknown): void {
    if (this.ended) return
    this.ended = true
    if (this.idle) clearTimeout(this.idle)
    this.onEnd()
    for (const job of this.pending.values()) job.reject(error)
    this.pending.clear()
    void this.worker.terminate()
  }
}

let current: WageWorker | null = null

/**
 * Runs `job` on `file` in the wage worker. Its error is rethrown as the in-process path would throw
 * it (an AppError keeps its status and text); a worker that dies without answering rejects with an
 * Error, which the API answers as any unexpected failure (500, 服务器内部错误).
 */
export function runInWorker<K extends WageJob['kind']>(file: string, job: Extract<WageJob, { kind: K }>): Promise<JobAnswers[K]> {
  jobs++
  if (!current || current.ended) {
    const worker: WageWorker = new WageWorker(() => {
      if (current === worker) current = null
    })
    current = worker
  }
  return current.run(file, job) as Promise<JobAnswers[K]>
}
