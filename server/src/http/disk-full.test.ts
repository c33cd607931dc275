/**
 * A full disk under the database, made real on SQLite with max_page_count: the
 * failed write answers a Chinese message that says so, /health reports it, and the log keeps the
 * real cause (not "cannot rollback").
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../config'
import { openDatabase, type AppDatabase } from '../db/database'
import { buildTestApp, openTestDatabases, testClock, type TestDatabase } from '../test/harness'
import { DISK_FULL_REPORT_MS, diskFullMessage } from './storage-trouble'

describe('a full disk on sqlite', () => {
  const [sqlite] = openTestDatabases()
  const clock = testClock()
  const lines: string[] = []
  let db: TestDatabase
  let app: FastifyInstance

  beforeAll(async () => {
    db = await sqlite.open()
    app = await buildTestApp({
      database: db.database,
      config: db.config,
      adminPassword: 'Admin-pass-1',
      clock,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    })
  })
  afterAll(async () => {
    await app?.close()
    await db?.cleanup()
  })

  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
    app.inject({ method, url: `/api/v1${url}`, payload: payload as never, headers: token ? { 'access-token': token } : {} })

  it('a write that does not fit says so in Chinese, /health reports it, the log names the cause', async () => {
    const token = (await call('POST', '/user/login', undefined, { username: 'admin', password: 'Admin-pass-1' })).json().data as string
    const sqliteDb = db.database.sqlite!
    const pages = sqliteDb.pragma('page_count', { simple: true }) as number
    sqliteDb.pragma(`max_page_count = ${pages}`)

    let failed: Awaited<ReturnType<typeof call>> | undefined
    for (let i = 0; i < 200 && !failed; i++) {
      const res = await call('POST', '/user/create', token, { username: `filler${i}`, password: 'Filler-pass-1', remark: 'x'.repeat(200) })
      if (res.statusCode !== 200) failed = res
    }
    expect(failed?.statusCode).toBe(500)
    expect(failed?.json()).toEqual({ code: 500, msg: diskFullMessage, data: null })
    const log = lines.join('')
    expect(log).toContain('database or disk is full')
    expect(log).not.toContain('cannot rollback')

    const health = await call('GET', '/health')
    expect(health.statusCode).toBe(500)
    expect(health.json().msg).toContain('磁盘空间已满')

    // Space freed and the report's time passed: healthy again, and writes work.
    sqliteDb.pragma('max_page_count = 1073741823')
    clock.advance(DISK_FULL_REPORT_MS)
    expect((await call('GET', '/health')).statusCode).toBe(200)
    expect((await call('POST', '/user/create', token, { username: 'after-full', password: 'Filler-pass-1' })).statusCode).toBe(200)
  })
})

/**
 * The real thing where the machine allows it (root: a small tmpfs): the disk fills while a commit
 * writes the log, SQLite rolls the transaction back itself, and the answer and the log still name
 * the full disk rather than the failed second rollback.
 */
const canMount = process.getuid?.() === 0 && process.platform === 'linux'

describe.runIf(canMount)('a really full disk under sqlite', () => {
  const clock = testClock()
  const lines: string[] = []
  let dir = ''
  let app: FastifyInstance | undefined
  let database: AppDatabase | undefined

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seeding-full-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir])
    const config = loadConfig({ DATA_DIR: dir })
    database = await openDatabase(config.database)
    app = await buildTestApp({
      database,
      config,
      adminPassword: 'Admin-pass-1',
      clock,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    })
    // Leave a few pages free.
    database.sqlite!.pragma('wal_checkpoint(TRUNCATE)')
    const free = statfsSync(dir).bavail * statfsSync(dir).bsize
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Math.max(0, free - 48 * 1024)))
  })
  afterAll(async () => {
    await app?.close()
    await database?.close()
    if (dir) {
      execFileSync('umount', [dir])
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('answers the full disk in Chinese and logs its real cause', async () => {
    const inject = (url: string, payload?: unknown, token?: string) =>
      app!.inject({
        method: payload ? 'POST' : 'GET',
        url: `/api/v1${url}`,
        payload: payload as never,
        headers: token ? { 'access-token': token } : {},
      })
    const login = await inject('/user/login', { username: 'admin', password: 'Admin-pass-1' })
    const token = login.statusCode === 200 ? (login.json().data as string) : undefined
    let failed: Awaited<ReturnType<typeof inject>> | undefined = login.statusCode === 200 ? undefined : login
    for (let i = 0; i < 500 && !failed; i++) {
      const res = await inject('/user/create', { username: `full${i}`, password: 'Filler-pass-1', remark: 'x'.repeat(500) }, token)
      if (res.statusCode !== 200) failed = res
    }
    expect(failed?.json()).toEqual({ code: 500, msg: diskFullMessage, data: null })
    const log = lines.join('')
    expect(log).toMatch(/disk is full|SQLITE_FULL/)
    expect(log).not.toContain('cannot rollback')
    expect((await inject('/health')).statusCode).toBe(500)
  })
})
