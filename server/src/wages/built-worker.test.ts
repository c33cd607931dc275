/**
 * The wage worker from the bundle: `node dist/index.js` (plain node, no tsx) starts
 * dist/wage-worker.js for a preview and a compute on SQLite, and answers them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { defaultRuleBody } from '../rules/rules'
import { periodOf } from './period'

const serverDir = resolve(import.meta.dirname, '../..')
const ADMIN_PASSWORD = 'Built-admin-pass-1'

let child: ChildProcess
let exited: Promise<number | null>
let dataDir: string
let apiBase = ''
let token = ''
let output = ''

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: serverDir })
  dataDir = mkdtempSync(join(tmpdir(), 'seeding-built-wages-'))
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
  // The demo community (with this month's snapshot) is generated before the server listens.
  apiBase = await new Promise<string>((ok, fail) => {
    const check = (chunk?: Buffer) => {
      if (chunk) output += chunk.toString()
      const match = output.match(/"url":"(http:\/\/127\.0\.0\.1:\d+\/api\/v1)"/)
      if (match) ok(match[1]!)
      else if (child.exitCode !== null) fail(new Error(`the built server exited:\n${output.slice(-4000)}`))
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    child.once('exit', () => check())
  })
  expect(apiBase.endsWith(API_PREFIX)).toBe(true)
  token = (await call<string>('/user/login', { username: 'admin', password: ADMIN_PASSWORD })).data
}, 120_000)

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL')
    await exited
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function call<T>(path: string, body: unknown): Promise<{ status: number; code: number; msg: string; data: T }> {
  const res = await fetch(`${apiBase}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { [TOKEN_HEADER]: token } : {}) },
    body: JSON.stringify(body),
  })
  return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: T }) }
}

describe('wages from the bundle (dist/wage-worker.js)', () => {
  const period = periodOf(Date.now(), defaultRuleBody.timezone)

  it('previews the month, and one member with items', async () => {
    const all = await call<{ list: { userId: number; amount: number }[] }>('/wages/preview', { period })
    expect(all.status, all.msg).toBe(200)
    expect(all.data.list.length).toBeGreaterThan(0)
    const member = all.data.list[0]!.userId
    const one = await call<{ list: { userId: number; items: unknown[] }[] }>('/wages/preview', { period, userId: member })
    expect(one.status, one.msg).toBe(200)
    expect(one.data.list.map((m) => m.userId)).toEqual([member])
    expect(Array.isArray(one.data.list[0]!.items)).toBe(true)
  })

  it('computes and saves the month', async () => {
    const computed = await call<{ saved: number }>('/wages/compute', { period })
    expect(computed.status, computed.msg).toBe(200)
    expect(computed.data.saved).toBeGreaterThan(0)
    const page = await call<{ total: number }>('/wages/page', { page: 1, pageSize: 10, period })
    expect(page.data.total).toBe(computed.data.saved)
    expect(output).not.toMatch(/request failed/)
  })
})
