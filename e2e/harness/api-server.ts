/**
 * Starts the real API server (server/src/index.ts under tsx: the source under test, no build step) in a child process,
 * on a free port, with a fresh SQLite data directory and a known admin password.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { freePort } from '../../server/src/test/free-port'

const root = resolve(import.meta.dirname, '../..')

export interface RunningServer {
  url: string
  apiBase: string
  dataDir: string
  adminPassword: string
  output: () => string
  /** Direct access to the server's SQLite file (e.g. to age a session). */
  sql<T = unknown>(statement: string, ...params: unknown[]): T[]
  stop(): Promise<void>
}

export interface ApiServerOptions {
  /** The demo members' password (DEMO_MEMBER_PASSWORD); unset, nobody can log in as a member. */
  memberPassword?: string
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningServer> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'seeding-console-server-'))
  const adminPassword = 'E2e-admin-pass-9'
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: 'warn',
  }
  if (options.memberPassword) env.DEMO_MEMBER_PASSWORD = options.memberPassword
  delete env.DATABASE_URL // the browser suite runs on the default SQLite store
  // One process (`node --import tsx`), not tsx's launcher + child: the stop signal reaches the
  // server itself, which shuts down gracefully, and no orphan is left behind.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: join(root, 'server'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))

  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`)
    try {
      const answer = await fetch(`${url}/api/v1/health`)
      if (answer.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer /health in 60 s:\n${output}`)
    await new Promise((ok) => setTimeout(ok, 200))
  }

  return {
    url,
    apiBase: `${url}/api/v1`,
    dataDir,
    adminPassword,
    output: () => output,
    sql(statement, ...params) {
      const db = new Database(join(dataDir, 'seeding.db'))
      try {
        const prepared = db.prepare(statement)
        return (prepared.reader ? prepared.all(...params) : (prepared.run(...params), [])) as never
      } finally {
        db.close()
      }
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((ok) => child.once('exit', ok))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((ok) => setTimeout(ok, 10_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

/**
 * One call to the API as the admin (a login of its own), for a suite's setup — say, last month's wages generated as
 * 工资计算 → 确认生成 does, or another admin's change made while the page is open. Answers the envelope's data; a
 * failed call fails the setup with the server's message.
 */
export async function callAsAdmin<T = unknown>(server: RunningServer, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const call = async (how: 'GET' | 'POST', to: string, payload: unknown, token?: string) => {
    const answer = await fetch(`${server.apiBase}${to}`, {
      method: how,
      headers: { ...(how === 'POST' ? { 'content-type': 'application/json' } : {}), ...(token ? { 'access-token': token } : {}) },
      body: how === 'POST' ? JSON.stringify(payload) : undefined,
    })
    const envelope = (await answer.json()) as { code: number; msg: string; data: unknown }
    if (envelope.code !== 200) throw new Error(`${how} ${to}: ${envelope.code} ${envelope.msg}`)
    return envelope.data
  }
  const token = (await call('POST', '/user/login', { username: 'admin', password: server.adminPassword })) as string
  return (await call(method, path, body, token)) as T
}

export const postAsAdmin = <T = unknown>(server: RunningServer, path: string, body: unknown): Promise<T> =>
  callAsAdmin<T>(server, 'POST', path, body)
