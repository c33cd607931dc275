/**
 * Several server processes on one database (README "Several server processes"): two apps, each
 * with its own connection and its own in-memory caches, over one database. What one of them
 * changes — a sync's derivation, a statistics refresh, a logout — the other's cached reads show:
 * page-seed totals counted per data version, the dashboard figures, the session cache (within
 * SESSION_CACHE_MS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX, TOKEN_HEADER, type Envelope } from '@shared/endpoints'
import type { AllSeedingStats } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { SESSION_CACHE_MS } from '../auth/sessions'
import { openDatabase, type AppDatabase } from '../db/database'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { loadConfig } from '../config'
import { buildTestApp, openTestDatabases, testClock, testScrypt, useTestApp, type TestDatabase } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { createWageEstimates } from '../wages/estimates'
import { wageDb } from '../wages/tables'

const ADMIN_PASSWORD = 'Admin-pass-1'
const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases())('two server processes on one $name database', (backend) => {
  const clock = testClock(NOW)
  const a = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let bDb: AppDatabase
  let b: FastifyInstance
  let world: SeedingWorld
  const tokens = { a: '', b: '' }

  async function callB<T>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body?: object,
  ): Promise<{ status: number; body: Envelope<T> }> {
    const res = await b.inject({ method, url: API_PREFIX + path, headers: { [TOKEN_HEADER]: token }, payload: body })
    return { status: res.statusCode, body: res.json() }
  }
  const totalB = async (body: object) =>
    (await callB<{ total: number }>('POST', '/user/page-seed', tokens.b, { page: 1, pageSize: 5, ...body })).body.data.total
  const totalA = async (body: object) =>
    (await a.call<{ total: number }>('POST', '/user/page-seed', { token: tokens.a, body: { page: 1, pageSize: 5, ...body } })).body.data
      .total

  beforeAll(async () => {
    const { db } = a.db.database
    world = new SeedingWorld(db)
    const hash = await hashPassword('Member-pass-1', testScrypt)
    await world.member('alice', 1001, { passwordHash: hash })
    await world.member('bob', 1002, { passwordHash: hash })
    for (let i = 1; i <= 6; i++)
      await world.torrent(i, { name: `${i % 2 ? 'Silent.Harbor' : 'Iron.Tide'}.${2018 + i}.1080p.WEB-DL`, size: i * GIB })
    // As NexusPHP's announce writes them: alice seeds the odd (Harbor) torrents, bob has snatched them.
    for (const id of [1, 3]) await world.peer(1001, id, { seeder: true, lastAction: NOW - 5 * MIN })
    for (const id of [1, 3, 5]) await world.snatch(1002, id, { finished: true, uploaded: GIB, seedtime: 3600, lastAction: NOW - 3600_000 })
    await derive(a.db.database, { now: NOW })

    // The second process: its own connection (a pool on PostgreSQL, a WAL reader on SQLite) and caches.
    bDb = await openDatabase(a.db.config.database)
    b = await buildTestApp({ database: bDb, config: a.db.config, adminPassword: ADMIN_PASSWORD, clock })
    tokens.a = await a.login('admin', ADMIN_PASSWORD)
    const login = await b.inject({
      method: 'POST',
      url: `${API_PREFIX}/user/login`,
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    })
    tokens.b = (login.json() as Envelope<string>).data
  })
  afterAll(async () => {
    await b?.close()
    await bDb?.close()
  })

  it("sees the other's derivation in page-seed totals it counted and cached", async () => {
    const byName = { torrentName: 'Harbor' }
    // Status 4: seeding, not claimed.
    const seedingByName = { torrentName: 'Harbor', status: 4 }
    const before = { name: await totalB(byName), seeding: await totalB(seedingByName) }
    expect(before).toEqual({ name: await totalA(byName), seeding: await totalA(seedingByName) })
    // Asked twice: the second answer comes from b's cache.
    expect(await totalB(seedingByName)).toBe(before.seeding)

    // Process a's sync: bob starts seeding torrent 5 (a Harbor torrent), the derivation commits.
    await world.peer(1002, 5, { seeder: true, lastAction: NOW - MIN })
    await derive(a.db.database, { now: NOW })

    const after = await totalB(seedingByName)
    expect(after).toBe(before.seeding + 1)
    expect(after).toBe(await totalA(seedingByName))
    expect(await totalB(byName)).toBe(await totalA(byName))
  })

  it("sees the other's statistics refresh in the dashboard figures", async () => {
    const read = async () => (await callB<AllSeedingStats>('GET', '/statistics/all-seeding-sta', tokens.b)).body.data
    const first = await read()
    expect(await read()).toEqual(first)

    clock.advance(MIN)
    const refreshed = await a.call<AllSeedingStats>('GET', '/statistics/refresh-index-statistics-cache', { token: tokens.a })
    expect(refreshed.status).toBe(200)
    const seen = await read()
    expect(seen.computedAt).not.toBe(first.computedAt)
    expect(seen).toEqual(refreshed.body.data)
  })

  it('refuses a token the other logged out, within SESSION_CACHE_MS', async () => {
    const token = await a.login('admin', ADMIN_PASSWORD)
    expect((await callB('GET', '/user/login-info', token)).status).toBe(200)
    expect((await a.call('POST', '/user/logout', { token, body: {} })).status).toBe(200)
    clock.advance(SESSION_CACHE_MS)
    expect((await callB('GET', '/user/login-info', token)).status).toBe(401)
  })
})

/**
 * The month's wage estimates are recomputed by whichever process serves a dashboard after the data
 * changed: two at once must not collide (each replaces every row of wage_estimates).
 */
describe.each(openTestDatabases().filter((b) => b.name === 'postgres'))(
  'wage estimates from two processes on one $name database',
  (backend) => {
    let tdb: TestDatabase
    let app: FastifyInstance
    let other: AppDatabase
    beforeAll(async () => {
      tdb = await backend.open()
      // The small demo community: members with this month's counters, so every estimate writes rows.
      app = await buildTestApp({
        database: tdb.database,
        config: { ...loadConfig({ DATA_DIR: tdb.dataDir, DEMO_SIZE: 'small' }), database: tdb.config.database },
        seedDemo: true,
      })
      other = await openDatabase(tdb.config.database)
    }, 120_000)
    afterAll(async () => {
      await app?.close()
      await other?.close()
      await tdb?.cleanup()
    })

    it('recompute at the same moment without a duplicate-key failure, and agree', async () => {
      const here = createWageEstimates()
      const there = createWageEstimates()
      const now = Date.now()
      // Before the fix about one pair in eight failed with "duplicate key … wage_estimates_pkey".
      for (let i = 0; i < 30; i++) await Promise.all([here.refresh(tdb.database.db, now, true), there.refresh(other.db, now, true)])
      const rows = await wageDb(tdb.database.db)
        .selectFrom('wage_estimates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(rows.n)).toBeGreaterThan(0)
      expect(await here.total(tdb.database.db, now)).toBe(await there.total(other.db, now))
    })
  },
)
