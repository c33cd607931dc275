/**
 * Test backends and app builder for the server's API tests.
 *
 *   describe.each(openTestDatabases())('login on $name', (backend) => {
 *     const t = useTestApp(backend, { adminPassword: 'Admin-pass-1' })
 *     it('…', async () => { const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' }) })
 *   })
 *
 * SQLite always runs (a fresh file per test file); PostgreSQL runs too when DATABASE_URL points
 * at one — each test file gets its own database, dropped at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { API_PREFIX, TOKEN_HEADER, type Envelope } from '@shared/endpoints'
import { buildApp, type BuildAppOptions } from '../app'
import type { ScryptParams } from '../auth/password'
import { isPostgresUrl, loadConfig, type Config } from '../config'
import { openDatabase, type AppDatabase, type DialectName } from '../db/database'
import type { Clock } from '../db/time'

/** Cheap scrypt for tests (production uses N = 2^15). */
export const testScrypt: ScryptParams = { N: 2 ** 10, r: 8, p: 1 }

export interface TestDatabase {
  database: AppDatabase
  /** DATA_DIR of this backend (a temp folder). */
  dataDir: string
  config: Config
  /** Closes the database and removes what was created for it. */
  cleanup(): Promise<void>
}

export interface TestBackend {
  name: DialectName
  open(): Promise<TestDatabase>
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'seeding-test-'))
}

const sqliteBackend: TestBackend = {
  name: 'sqlite',
  async open() {
    const dataDir = tempDir()
    const config = loadConfig({ DATA_DIR: dataDir })
    const database = await openDatabase(config.database)
    return {
      database,
      dataDir,
      config,
      async cleanup() {
        await database.close()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  },
}

function postgresBackend(maintenanceUrl: string): TestBackend {
  return {
    name: 'postgres',
    async open() {
      const name = `t_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: maintenanceUrl })
      await admin.connect()
      try {
        await admin.query(`create database ${name}`)
      } finally {
        await admin.end()
      }
      const url = new URL(maintenanceUrl)
      url.pathname = `/${name}`
      const dataDir = tempDir()
      const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url.toString() })
      const database = await openDatabase(config.database)
      return {
        database,
        dataDir,
        config,
        async cleanup() {
          await database.close()
          const client = new pg.Client({ connectionString: maintenanceUrl })
          await client.connect()
          try {
            await client.query(`drop database if exists ${name} with (force)`)
          } finally {
            await client.end()
          }
          rmSync(dataDir, { recursive: true, force: true })
        },
      }
    },
  }
}

/** The backends every API test runs on: SQLite, plus PostgreSQL when DATABASE_URL is a postgres URL. */
export function openTestDatabases(): TestBackend[] {
  const url = process.env.DATABASE_URL
  return url && isPostgresUrl(url) ? [sqliteBackend, postgresBackend(url)] : [sqliteBackend]
}

export interface TestAppOptions extends Partial<Omit<BuildAppOptions, 'config' | 'database'>> {
  database: AppDatabase
  config?: Config
  adminPassword?: string
}

/** An app over an open test database, with quiet logs and cheap password hashing. */
export async function buildTestApp(options: TestAppOptions): Promise<FastifyInstance> {
  const { database, adminPassword, config, ...rest } = options
  // The database is given, so DATA_DIR is only a path in the config; nothing is created there.
  const base = config ?? loadConfig({ DATA_DIR: join(tmpdir(), 'seeding-test-unused') })
  return buildApp({
    scrypt: testScrypt,
    print: () => {},
    checkOutput: true,
    // API tests build the data they need and run syncs themselves.
    seedDemo: false,
    scheduleSync: false,
    ...rest,
    config: { ...base, adminPassword },
    database,
  })
}

/** A settable clock: tests move time instead of waiting. */
export function testClock(start = Date.UTC(2026, 0, 15, 4, 0, 0)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = start
  const clock = (() => now) as Clock & { set(ms: number): void; advance(ms: number): void }
  clock.set = (ms) => void (now = ms)
  clock.advance = (ms) => void (now += ms)
  return clock
}

export interface TestAppHandle {
  readonly app: FastifyInstance
  readonly db: TestDatabase
  /** Calls `/api/v1<path>` and returns the envelope, the status and the headers. */
  call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    options?: {
      token?: string
      body?: unknown
      query?: Record<string, string>
      headers?: Record<string, string>
      /** Sent as is with `content-type: application/json` (unless headers say otherwise). */
      rawBody?: string
      /** The caller's IP (default 127.0.0.1). */
      ip?: string
    },
  ): Promise<{ status: number; body: Envelope<T>; headers: LightMyRequestResponse['headers']; raw: LightMyRequestResponse }>
  /** Logs in and returns the token (fails the test when login fails). */
  login(username: string, password: string): Promise<string>
}

/** Opens the backend and builds an app before the file's tests; closes both after them. */
export function useTestApp(backend: TestBackend, options: Omit<TestAppOptions, 'database'> = {}): TestAppHandle {
  let app: FastifyInstance | undefined
  let db: TestDatabase | undefined

  beforeAll(async () => {
    db = await backend.open()
    app = await buildTestApp({ ...options, config: options.config ?? db.config, database: db.database })
  })
  afterAll(async () => {
    await app?.close()
    await db?.cleanup()
  })

  const handle: TestAppHandle = {
    get app() {
      if (!app) throw new Error('test app not built yet')
      return app
    },
    get db() {
      if (!db) throw new Error('test database not open yet')
      return db
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers }
      if (opts.token !== undefined) headers[TOKEN_HEADER] = opts.token
      const inject: InjectOptions = { method, url: API_PREFIX + path, headers, query: opts.query, remoteAddress: opts.ip }
      if (opts.rawBody !== undefined) {
        inject.payload = opts.rawBody
        headers['content-type'] ??= 'application/json'
      } else if (opts.body !== undefined) inject.payload = opts.body as InjectOptions['payload']
      const raw = await handle.app.inject(inject)
      return { status: raw.statusCode, body: raw.json(), headers: raw.headers, raw }
    },
    async login(username, password) {
      const res = await handle.call<string>('POST', '/user/login', { body: { username, password } })
      if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.body.msg}`)
      return res.body.data
    },
  }
  return handle
}

/** A refused login's message with the wait it names (auth/login.ts retryHint), as a pattern. */
export const hinted = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}（约 \\d+ (秒|分钟)后）$`)
/** A refused login's message without its wait. */
export const withoutHint = (message: string) => message.replace(/（约 \d+ (秒|分钟)后）$/, '')
