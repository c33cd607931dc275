/**
 * The real server in a process of its own on loopback, as `npm run server` starts it
 * (`server/src/index.ts`, NODE_ENV=production, LOG_LEVEL=info, the log read from its stdout), on a
 * demo data set kept between runs in bench/.data (SQLite) or a database of its own (PostgreSQL).
 * Shared by bench/load.ts and bench/heavy-work.ts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { BENCH_ADMIN_PASSWORD, dataRoot, type Dialect } from './dataset'
import { freePort } from '../server/src/test/free-port'

/** This checkout's root (the bench's own). */
export const repoRoot = join(import.meta.dirname, '..')

/** PostgreSQL: a database of its own (`<name>`, kept between runs, like the SQLite folder) next to the one `base` names. */
export async function postgresUrl(base: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (exists.rowCount === 0) await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

/** A size field of /proc/<pid>/status in MB: VmRSS (now) or VmHWM (the peak since the process started). */
/**
 * CPU seconds a process has used so far, all its threads, user + system (/proc/<pid>/stat, Linux;
 * null elsewhere). Ticks are 1/100 s on Linux (USER_HZ).
 */
export function procCpuSec(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/**
 * Starts a process's VmHWM afresh from its present RSS (Linux: "5" to /proc/<pid>/clear_refs), so the
 * next reading is the peak since now. False where that is not possible (another OS, not our process).
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Math.round(Number(match[1]) / 1024) : null
  } catch {
    return null
  }
}

export interface ServerProcess {
  child: ChildProcess
  apiBase: string
  /** Bytes the server wrote to stdout (its log) so far. */
  logBytes(): number
  stop(): Promise<void>
}

export interface ServerProcessOptions {
  /** Names the data set: bench/.data/<bench>-<dialect>-<size>, PostgreSQL database seeding_<bench>_<size>. */
  bench: string
  /** KEY=VALUE pairs given to the server process (after the defaults: they win). */
  serverEnv?: readonly string[]
  /** The checkout whose server/ runs (default: this one) — e.g. a worktree of an earlier commit. */
  root?: string
  /**
   * Run the server as `npm run server` does: bundled by server/build.mjs, with plain node (its threads
   * load their bundles too). Default: the sources through tsx, whose loader and transpiled modules
   * are in every thread's memory — not what a deployment runs, so memory figures want this.
   */
  built?: boolean
  /** An existing data set to serve (bench/dataset.ts's, which bench:wages prepares in-process) instead of this bench's own. */
  dataset?: { dataDir: string; databaseUrl?: string }
}

export async function startServerProcess(dialect: Dialect, size: string, options: ServerProcessOptions): Promise<ServerProcess> {
  const dataDir = options.dataset?.dataDir ?? join(dataRoot, `${options.bench}-${dialect}-${size}`)
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  // The bench's own tsx settings (its tsconfig path) are not the server's.
  const { DATABASE_URL: base, ACCESS_LOG: _accessLog, TSX_TSCONFIG_PATH: _tsconfig, ...inherited } = process.env
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    DEMO_SIZE: size,
    LOG_LEVEL: 'info',
    // No scheduled sync during the run (the first would come after SYNC_INTERVAL).
    SYNC_INTERVAL: String(7 * 24 * 3600),
    ...(dialect === 'postgres'
      ? { DATABASE_URL: options.dataset?.databaseUrl ?? (await postgresUrl(base!, `seeding_${options.bench}_${size}`)) }
      : {}),
    ...Object.fromEntries((options.serverEnv ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
  }
  const serverDir = join(options.root ?? repoRoot, 'server')
  if (options.built) execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' })
  const args = options.built ? ['--enable-source-maps', 'dist/index.js'] : ['--import', 'tsx', 'src/index.ts']
  const child = spawn(process.execPath, args, { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let logBytes = 0
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (logBytes += chunk.length))
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const apiBase = `http://127.0.0.1:${port}/api/v1`

  // The first start generates the demo data set (a minute or more at `default`).
  const deadline = Date.now() + 30 * 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`)
    if (Date.now() > deadline) throw new Error('the server did not start within 30 minutes')
    const ok = await fetch(`${apiBase}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return {
    child,
    apiBase,
    logBytes: () => logBytes,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

export async function login(apiBase: string): Promise<string> {
  const res = await fetch(`${apiBase}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  })
  const body = (await res.json()) as { code: number; data: string; msg: string }
  if (body.code !== 200) throw new Error(`login failed: ${body.msg}`)
  return body.data
}

/** The short commit of a checkout (a worktree too), or null outside git. */
export function gitCommit(root = repoRoot): string | null {
  try {
    return (
      execFileSync('git', ['-C', root, 'rev-parse', '--short=7', 'HEAD'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || null
    )
  } catch {
    return null
  }
}
