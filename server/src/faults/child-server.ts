/**
 * A real server (`src/index.ts`, as `npm run server` runs it) in a child process, for the fault
 * suite: it can be SIGKILLed at any point and started again on the same data. The test keeps its
 * own connection to the same database to watch the server's state and to check the outcome.
 *
 *   const store = await openStore('sqlite')          // or 'postgres' (DATABASE_URL)
 *   const server = await startChild(store)           // waits until /health answers
 *   await server.waitForOutput(/demo community generated/)
 *   server.kill()                                    // SIGKILL; resolves when the process is gone
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { API_PREFIX, TOKEN_HEADER, type Envelope } from '@shared/endpoints'
import { loadConfig } from '../config'
import { openDatabase, type AppDatabase, type DialectName } from '../db/database'
import { freePort } from '../test/free-port'

const serverDir = resolve(import.meta.dirname, '../..')
export const ADMIN_PASSWORD = 'Fault-admin-pass-1'

/** One database (SQLite file in a temp DATA_DIR, or a fresh PostgreSQL database) that outlives server processes. */
export interface Store {
  dialect: DialectName
  dataDir: string
  databaseUrl?: string
  /** The test's own connection (opened on first use, after the server created the file/schema). */
  open(): Promise<AppDatabase>
  cleanup(): Promise<void>
}

export async function openStore(dialect: DialectName): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'seeding-fault-'))
  let databaseUrl: string | undefined
  let maintenance: string | undefined
  let name: string | undefined
  if (dialect === 'postgres') {
    maintenance = process.env.DATABASE_URL
    if (!maintenance) throw new Error('DATABASE_URL is not set')
    name = `f_${randomBytes(6).toString('hex')}`
    await withClient(maintenance, (c) => c.query(`create database ${name}`))
    const url = new URL(maintenance)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
  }
  let database: AppDatabase | undefined
  return {
    dialect,
    dataDir,
    databaseUrl,
    async open() {
      database ??= await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }).database)
      return database
    },
    async cleanup() {
      await database?.close()
      if (maintenance && name) await withClient(maintenance, (c) => c.query(`drop database if exists ${name} with (force)`))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

export interface ChildServer {
  readonly pid: number
  readonly apiBase: string
  /** The process is gone (killed, stopped or crashed). */
  readonly exited: boolean
  /** Everything the process wrote (stdout and stderr). */
  output(): string
  /** Resolves when the output matches (the server logs JSON lines); rejects when the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{ status: number; body: Envelope<T> }>
  login(username?: string, password?: string): Promise<string>
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>
  /** SIGTERM (graceful); resolves once the process is gone. */
  stop(): Promise<void>
}

export interface ChildOptions {
  /** Extra environment (e.g. SYNC_INTERVAL). */
  env?: Record<string, string>
  /** Resolve as soon as the process runs, before /health answers (to kill it during its start). */
  dontWaitForHealth?: boolean
}

export async function startChild(store: Store, options: ChildOptions = {}): Promise<ChildServer> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: store.dataDir,
    ADMIN_PASSWORD,
    DEMO_SIZE: 'small',
    // Syncs run when the test says (立即同步), or when a restart resumes an interrupted one.
    SYNC_INTERVAL: '86400',
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    ...options.env,
  }
  if (store.databaseUrl) env.DATABASE_URL = store.databaseUrl
  else delete env.DATABASE_URL
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()))
  child.once('exit', () => {
    for (const listener of listeners) listener()
  })
  const gone = () => child.exitCode !== null || child.signalCode !== null

  const apiBase = `http://127.0.0.1:${port}${API_PREFIX}`
  const server: ChildServer = {
    pid: child.pid!,
    apiBase,
    get exited() {
      return gone()
    },
    output: () => output,
    waitForOutput(pattern, timeoutMs = 60_000) {
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => done(new Error(`no ${pattern} in ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs)
        const done = (error?: Error) => {
          clearTimeout(timer)
          listeners.delete(check)
          if (error) fail(error)
          else ok()
        }
        const check = () => {
          if (pattern.test(output)) done()
          else if (gone()) done(new Error(`the server exited before ${pattern}:\n${output.slice(-4000)}`))
        }
        listeners.add(check)
        check()
      })
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = {}
      if (opts.token) headers[TOKEN_HEADER] = opts.token
      if (opts.body !== undefined) headers['content-type'] = 'application/json'
      const answer = await fetch(apiBase + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) })
      return { status: answer.status, body: (await answer.json()) as Envelope<never> }
    },
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const res = await server.call<string>('POST', '/user/login', { body: { username, password } })
      if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.body.msg}`)
      return res.body.data
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (!gone()) child.kill('SIGTERM')
      await exited
    },
  }
  if (options.dontWaitForHealth) return server
  try {
    await server.waitForOutput(/listening on/, 90_000)
  } catch (error) {
    await server.kill()
    throw error
  }
  return server
}

/**
 * Polls `probe` back to back (each poll is one query: the wait is for state, and as short as a
 * query) until it answers true; false when `until` says the moment has passed. Between polls the
 * event loop runs (a synchronous SQLite probe would otherwise starve the answers `until` waits for).
 */
export async function pollUntil(probe: () => Promise<boolean>, until: () => boolean | Promise<boolean>): Promise<boolean> {
  for (;;) {
    if (await probe()) return true
    if (await until()) return false
    await new Promise((resolve) => setImmediate(resolve))
  }
}
