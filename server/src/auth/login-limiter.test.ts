import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type AppDatabase } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, testClock, type TestDatabase } from '../test/harness'
import { LoginLimiter, type LoginLimits, type Reservation } from './login-limiter'

const limits: LoginLimits = { windowMs: 15 * 60_000, perUser: 5, ipFree: 20, ipBaseDelayMs: 1_000, ipMaxDelayMs: 60_000 }

describe.each(openTestDatabases())('LoginLimiter on $name', (backend) => {
  let db: TestDatabase
  const clock = testClock()
  let ipSeq = 0
  /** Each test guesses from its own address, so their counts do not meet. */
  const freshIp = () => `10.1.0.${++ipSeq}`
  const limiter = (overrides: Partial<LoginLimits> = {}, database?: AppDatabase) =>
    new LoginLimiter(database ?? db.database, { ...limits, ...overrides }, clock)
  const allowed = (list: Reservation[]) => list.filter((r) => r.allowed).length

  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  it('locks a username from an IP after 5 kept attempts, and only that pair', async () => {
    const l = limiter()
    const ip = freshIp()
    for (let i = 0; i < 5; i++) expect((await l.reserve('alice', ip)).allowed).toBe(true)
    expect(await l.reserve('alice', ip)).toEqual({ allowed: false, retryAfterSec: 900 })
    expect((await l.reserve('alice', freshIp())).allowed).toBe(true)
    expect((await l.reserve('bob', ip)).allowed).toBe(true)
  })

  it('slides: the oldest attempt leaving the window lets one through', async () => {
    const l = limiter()
    const ip = freshIp()
    await l.reserve('alice', ip)
    clock.advance(60_000)
    for (let i = 0; i < 4; i++) await l.reserve('alice', ip)
    clock.advance(13 * 60_000)
    expect(await l.reserve('alice', ip)).toEqual({ allowed: false, retryAfterSec: 60 })
    clock.advance(60_000)
    expect((await l.reserve('alice', ip)).allowed).toBe(true)
  })

  it('judges at most the limit of attempts sent at once (counted before they are judged)', async () => {
    const l = limiter()
    const ip = freshIp()
    const results = await Promise.all(Array.from({ length: 40 }, () => l.reserve('carol', ip)))
    expect(allowed(results)).toBe(5)
  })

  it('refunds a right password and forgives the pair, but keeps what the IP spent', async () => {
    const l = limiter({ ipFree: 6 })
    const ip = freshIp()
    for (let i = 0; i < 4; i++) await l.reserve('dave', ip)
    const right = await l.reserve('dave', ip)
    if (!right.allowed) throw new Error('expected an allowed attempt')
    await l.forgive(right.ticket)
    // The pair starts again; the IP still holds its 4 failures: 2 more are free, the 3rd waits.
    expect(allowed([await l.reserve('dave', ip), await l.reserve('dave', ip)])).toBe(2)
    expect(await l.reserve('dave', ip)).toEqual({ allowed: false, retryAfterSec: 1 })
  })

  it('slows an IP that sprays many usernames, doubling its wait up to the cap, and no other IP', async () => {
    const l = limiter({ ipFree: 3, ipMaxDelayMs: 4_000 })
    const ip = freshIp()
    for (let i = 0; i < 3; i++) expect((await l.reserve(`user${i}`, ip)).allowed).toBe(true)
    expect(await l.reserve('next', ip)).toEqual({ allowed: false, retryAfterSec: 1 })
    expect((await l.reserve('next', freshIp())).allowed).toBe(true)
    const waits: number[] = []
    for (let i = 0; i < 4; i++) {
      const refused = await l.reserve('next', ip)
      if (refused.allowed) throw new Error('expected a refusal')
      waits.push(refused.retryAfterSec)
      clock.advance(refused.retryAfterSec * 1000)
      expect((await l.reserve(`after${i}`, ip)).allowed).toBe(true)
    }
    expect(waits).toEqual([1, 2, 4, 4])
  })

  it('an unjudged attempt (refund) does not count', async () => {
    const l = limiter()
    const ip = freshIp()
    for (let i = 0; i < 10; i++) {
      const r = await l.reserve('erin', ip)
      if (!r.allowed) throw new Error('refused')
      await l.refund(r.ticket)
    }
    expect((await l.reserve('erin', ip)).allowed).toBe(true)
  })

  it.runIf(backend.name === 'postgres')('holds across two server processes on one database', async () => {
    const second = await openDatabase(db.config.database)
    try {
      const a = limiter()
      const b = limiter({}, second)
      const ip = freshIp()
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).reserve('frank', ip)))
      expect(allowed(results)).toBe(5)
    } finally {
      await second.close()
    }
  })
})
