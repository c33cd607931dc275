/**
 * The server as `npm run server` runs it: built by build.mjs into dist/, started with plain node
 * (no tsx, so a .ts file read at run time would fail here), on SQLite in a temp DATA_DIR — with the
 * worker threads it starts from dist/wage-worker.js and dist/sync-worker.js.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { migrationsFor } from './db/migrations'
import { defaultRuleBody } from './rules/rules'
import { periodOf, shiftPeriod } from './wages/period'

const serverDir = resolve(import.meta.dirname, '..')
const rootVersion = (JSON.parse(readFileSync(resolve(serverDir, '../package.json'), 'utf8')) as { version: string }).version
const ADMIN_PASSWORD = 'Built-admin-pass-1'

let child: ChildProcess
let dataDir: string
let output = ''
let apiBase = ''
let exited: Promise<number | null>

/** Resolves with the first stdout/stderr match; rejects when the process exits first. */
function waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((ok, fail) => {
    const check = () => {
      const match = output.match(pattern)
      if (match) ok(match)
      else if (child.exitCode !== null || child.signalCode !== null)
        fail(new Error(`the built server exited before ${pattern}:\n${output.slice(-4000)}`))
      else return
      child.stdout!.off('data', check)
      child.stderr!.off('data', check)
      child.off('exit', check)
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    child.on('exit', check)
    check()
  })
}

beforeAll(async () => {
  // The build `npm run build --workspace server` runs; it replaces dist/ files atomically, so a
  // concurrent build or `npm run server` is not disturbed.
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: serverDir })
  dataDir = mkdtempSync(join(tmpdir(), 'seeding-built-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    DEMO_SIZE: 'small',
    SYNC_INTERVAL: '86400',
    LOG_LEVEL: 'info',
  }
  delete env.DATABASE_URL
  child = spawn(process.execPath, ['--enable-source-maps', 'dist/index.js'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  exited = new Promise((ok) => child.once('exit', (code) => ok(code)))
  const collect = (chunk: Buffer) => (output += chunk.toString())
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  // index.ts logs the address it listens on (PORT=0: the port the OS chose).
  apiBase = (await waitForOutput(/"url":"(http:\/\/127\.0\.0\.1:\d+\/api\/v1)"/))[1]!
}, 120_000)

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL')
    await exited
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

let token = ''
// Last month: a month's wages are generated once it is over.
const period = shiftPeriod(periodOf(Date.now(), defaultRuleBody.timezone), 1)

async function call<T>(path: string, body: unknown): Promise<{ status: number; code: number; msg: string; data: T }> {
  const res = await fetch(`${apiBase}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { [TOKEN_HEADER]: token } : {}) },
    body: JSON.stringify(body),
  })
  return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: T }) }
}

describe('the built server (dist/index.js on node)', () => {
  it('answers /health with the database up and the root package version', async () => {
    expect(apiBase).toMatch(new RegExp(`${API_PREFIX}$`))
    const res = await fetch(`${apiBase}/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ code: 200, data: { status: 'ok', db: 'ok', version: rootVersion } })
  })

  it('logs the admin in', async () => {
    const login = await call<string>('/user/login', { username: 'admin', password: ADMIN_PASSWORD })
    expect(login.status).toBe(200)
    token = login.data
    const info = await fetch(`${apiBase}/user/login-info`, { headers: { [TOKEN_HEADER]: token } })
    expect(await info.json()).toMatchObject({ code: 200, data: { username: 'admin' } })
  })

  it('previews the month through the wage worker, and one member with items', async () => {
    const all = await call<{ list: { userId: number }[] }>('/wages/preview', { period })
    expect(all.status, all.msg).toBe(200)
    expect(all.data.list.length).toBeGreaterThan(0)
    const member = all.data.list[0]!.userId
    const one = await call<{ list: { userId: number; items: unknown[] }[] }>('/wages/preview', { period, userId: member })
    expect(one.status, one.msg).toBe(200)
    expect(one.data.list.map((m) => m.userId)).toEqual([member])
    expect(one.data.list[0]!.items.length).toBeGreaterThan(0)
  })

  it('computes and saves the month through the wage worker', async () => {
    const computed = await call<{ saved: number }>('/wages/compute', { period })
    expect(computed.status, computed.msg).toBe(200)
    expect(computed.data.saved).toBeGreaterThan(0)
    const page = await call<{ total: number }>('/wages/page', { page: 1, pageSize: 10, period })
    expect(page.data.total).toBe(computed.data.saved)
    expect(output).not.toMatch(/request failed/)
  })

  it('runs a sync in the sync thread (the demo source, the derivation, the snapshot, the statistics)', async () => {
    const before = Date.now()
    const started = await call<{ running: boolean }>('/sync/run', {})
    expect(started.status, started.msg).toBe(200)
    type Status = { running: boolean; lastError: string | null; lastFinishedAt: string | null; rows: Record<string, number> }
    const status = async () => {
      const res = await fetch(`${apiBase}/sync/status`, { headers: { [TOKEN_HEADER]: token } })
      return ((await res.json()) as { data: Status }).data
    }
    let now = await status()
    while (now.running) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      now = await status()
    }
    expect(now.lastError).toBeNull()
    expect(Date.parse(now.lastFinishedAt!)).toBeGreaterThanOrEqual(before)
    expect(output).not.toMatch(/sync failed/)
  })

  it('re-labels after a rules change in the sync thread', async () => {
    const current = await fetch(`${apiBase}/config/rules`, { headers: { [TOKEN_HEADER]: token } })
    const { version, ...body } = ((await current.json()) as { data: { version: number; targetKeepers: number } }).data
    const saved = await call<{ version: number }>('/config/rules', { ...body, targetKeepers: body.targetKeepers + 1 })
    expect(saved.status, saved.msg).toBe(200)
    expect(saved.data.version).toBe(version + 1)
    // The save answers after its pass: every record was judged under the new version.
    const db = new Database(join(dataDir, 'seeding.db'), { readonly: true })
    try {
      expect(db.prepare('select derived_rules_version from sync_state').pluck().get()).toBe(version + 1)
    } finally {
      db.close()
    }
    expect(output).not.toMatch(/relabel after an admin change failed/)
  })

  it('stops gracefully on SIGTERM', async () => {
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(output).toContain('"msg":"stopped"')
  })

  it('ran every migration (the bundle holds them all)', () => {
    const db = new Database(join(dataDir, 'seeding.db'), { readonly: true })
    try {
      const ran = db.prepare('select name from kysely_migration order by name').pluck().all()
      expect(ran).toEqual(Object.keys(migrationsFor('sqlite')).sort())
    } finally {
      db.close()
    }
  })
})
