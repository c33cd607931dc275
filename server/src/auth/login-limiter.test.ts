import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type AppDatabase } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, testClock, type TestDatabase } from '../test/harness'
import { LoginLimiter, type LoginLimits, type Reservation } from './login-limiter'

const limits: LoginLimits = {
  windowMs: 15 * 60_000,
  perUser: 5,
  perAccount: 20,
  knownMs: 30 * 24 * 3600_000,
  ipFree: 20,
  netFree: 100,
  ipBaseDelayMs: 1_000,
  ipMaxDelayMs: 60_000,
}

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

  it('locks an account guessed from many clients after 20 kept attempts, except for a client it logged in from', async () => {
    const l = limiter()
    // The owner logged in from home (an IPv6 /64) once.
    const home = await l.reserve('gina', '2001:db8:70:1::5')
    if (!home.allowed) throw new Error('expected an allowed attempt')
    await l.forgive(home.ticket)
    clock.advance(60_000)
    // A guesser spreads 20 guesses over 20 /64s of one /48: 1 each, far below each /64's own 5.
    for (let n = 0; n < 20; n++) expect((await l.reserve('gina', `2001:db8:71:${n}::1`)).allowed).toBe(true)
    expect(await l.reserve('gina', '2001:db8:71:99::1')).toEqual({ allowed: false, retryAfterSec: 900, accountLocked: true })
    // …and from an IPv4 address the account never logged in from.
    expect(await l.reserve('gina', freshIp())).toEqual({ allowed: false, retryAfterSec: 900, accountLocked: true })
    // Home (any address of its /64) still gets in; other accounts are not affected.
    expect((await l.reserve('gina', '2001:db8:70:1::abcd')).allowed).toBe(true)
    expect((await l.reserve('gina-other', '2001:db8:71:99::1')).allowed).toBe(true)
    // When the guesses leave the window, so does the lock.
    clock.advance(15 * 60_000)
    expect((await l.reserve('gina', '2001:db8:71:99::1')).allowed).toBe(true)
  })

  it('forgets a known client after knownMs', async () => {
    const l = limiter({ perAccount: 1, knownMs: 60 * 60_000 })
    const ip = freshIp()
    const right = await l.reserve('hank', ip)
    if (!right.allowed) throw new Error('expected an allowed attempt')
    await l.forgive(right.ticket)
    // Each time: one guess from elsewhere takes the account's whole allowance; then only the known client gets in.
    clock.advance(45 * 60_000)
    expect((await l.reserve('hank', freshIp())).allowed).toBe(true)
    expect((await l.reserve('hank', freshIp())).allowed).toBe(false)
    expect((await l.reserve('hank', ip)).allowed).toBe(true)
    clock.advance(15 * 60_000)
    expect((await l.reserve('hank', freshIp())).allowed).toBe(true)
    expect(await l.reserve('hank', ip)).toEqual({ allowed: false, retryAfterSec: 900, accountLocked: true })
  })

  it('judges at most 20 attempts at one account sent at once from 40 clients', async () => {
    const l = limiter()
    // Each from its own network: no per-network lock puts them in line, only the account's.
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => l.reserve('ivan', `10.72.${n}.1`)))
    expect(allowed(results)).toBe(20)
  })

  it("slows an IPv6 /48 that sprays many usernames from many /64s, with the /48's own larger allowance", async () => {
    const l = limiter({ netFree: 6 })
    for (let n = 0; n < 6; n++) expect((await l.reserve(`spray${n}`, `2001:db8:73:${n}::1`)).allowed).toBe(true)
    expect(await l.reserve('spray-next', '2001:db8:73:99::1')).toEqual({ allowed: false, retryAfterSec: 1 })
    expect((await l.reserve('spray-next', '2001:db8:74:99::1')).allowed).toBe(true)
    clock.advance(1_000)
    expect((await l.reserve('spray-next', '2001:db8:73:99::1')).allowed).toBe(true)
    expect(await l.reserve('spray-last', '2001:db8:73:98::1')).toEqual({ allowed: false, retryAfterSec: 2 })
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
