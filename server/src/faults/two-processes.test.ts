/**
 * Two real server processes on one PostgreSQL database (the deployment with a second server for
 * availability): sessions, login limits, the scheduled sync and wage writes are shared through
 * the database, so either process may answer any call. PostgreSQL only (SQLite is one process's file).
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shiftPeriod, periodOf } from '../wages/period'
import { openStore, pollUntil, startChild, type ChildServer, type Store } from './child-server'

const postgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false

/** Syncs every second in both processes: they contend for the lease all the time. */
const env = { SYNC_INTERVAL: '1' }

const SLACK_MS = 30

interface SyncSpan {
  process: string
  start: number
  end: number
}

/** The syncs a process logged as finished (`time` is the end, `ms` what it took). */
function finishedSyncs(name: string, server: ChildServer): SyncSpan[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"sync finished"'))
    .map((line) => JSON.parse(line) as { time: number; ms: number })
    .map((entry) => ({ process: name, start: entry.time - entry.ms, end: entry.time }))
}

describe.skipIf(!postgres)('two server processes on one PostgreSQL', { timeout: 120_000 }, () => {
  let store: Store
  let a: ChildServer
  let b: ChildServer

  beforeAll(async () => {
    store = await openStore('postgres')
    a = await startChild(store, { env })
    b = await startChild(store, { env })
  })
  afterAll(async () => {
    await a?.kill()
    await b?.kill()
    await store?.cleanup()
  })

  const db = async () => (await store.open()).db

  it('a token from one process works on the other', async () => {
    const token = await a.login()
    expect((await b.call('GET', '/user/login-info', { token })).status).toBe(200)
    const fromB = await b.login()
    expect((await a.call('GET', '/user/login-info', { token: fromB })).status).toBe(200)
  })

  it('login limits hold across both processes', async () => {
    const member = await (
      await db()
    )
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'normal')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const attempt = (server: ChildServer) =>
      server.call('POST', '/user/login', { body: { username: member.username, password: 'wrong-password-1' } })
    const first = await attempt(a)
    expect(first.status).not.toBe(200)
    // Five in all from this address, alternating: the next, on either process, is refused as locked.
    for (const server of [b, a, b, a]) expect((await attempt(server)).status).not.toBe(200)
    const refused = await attempt(b)
    expect(refused.status).not.toBe(200)
    expect(refused.body.msg).not.toBe(first.body.msg)
  })

  it('one sync at a time: the scheduled syncs of the two processes never overlap', async () => {
    await pollUntil(
      async () => finishedSyncs('a', a).length + finishedSyncs('b', b).length >= 6,
      () => false,
    )
    const all = [...finishedSyncs('a', a), ...finishedSyncs('b', b)].sort((x, y) => x.start - y.start)
    // A span's start is taken just before its claim of the lease, and its end logged just after the
    // release: a sync that follows at once may seem to start a few ms early. Two at once would
    // overlap by a whole sync (100 ms and more).
    for (let i = 1; i < all.length; i++) expect(all[i].start, JSON.stringify(all)).toBeGreaterThanOrEqual(all[i - 1].end - SLACK_MS)
  })

  it('a killed holder’s lease is taken over by the other process at once', async () => {
    const holding = async () =>
      (await (await db()).selectFrom('sync_state').select('lock_owner').where('id', '=', 1).executeTakeFirstOrThrow()).lock_owner?.includes(
        `|${a.pid}|`,
      ) === true
    await pollUntil(holding, () => false)
    await a.kill()
    const bSyncs = finishedSyncs('b', b).length
    // The lease as if just renewed: only "its process is gone" lets b take it now.
    await (
      await db()
    )
      .updateTable('sync_state')
      .set({ lock_expires_at: Date.now() + 3600_000 })
      .where('id', '=', 1)
      .where('lock_owner', 'like', `%|${a.pid}|%`)
      .execute()
    await pollUntil(
      async () => finishedSyncs('b', b).length > bSyncs,
      () => false,
    )
    a = await startChild(store, { env })
  })

  it('pays and computes from both at once are correct', async () => {
    const period = shiftPeriod(periodOf(Date.now(), 'Asia/Shanghai'), 1)
    const [tokenA, tokenB] = [await a.login(), await b.login()]
    const computes = await Promise.all([
      a.call('POST', '/wages/compute', { token: tokenA, body: { period } }),
      b.call('POST', '/wages/compute', { token: tokenB, body: { period } }),
    ])
    for (const c of computes) expect(c.status, JSON.stringify(c.body)).toBe(200)
    const records = async () =>
      (
        await sql<{
          id: number
          user_id: number
          payment: number
        }>`select id, user_id, payment from wage_records where period = ${period} order by user_id`.execute(await db())
      ).rows.map((r) => ({ id: Number(r.id), user_id: Number(r.user_id), payment: Number(r.payment) }))
    const computed = await records()
    expect(computed.length).toBeGreaterThan(2)
    // One record per member, whatever the order of the two computes.
    expect(new Set(computed.map((r) => r.user_id)).size).toBe(computed.length)

    // The same records paid from both at once: each paid exactly once.
    const ids = computed.map((r) => r.id)
    const pays = await Promise.all([
      a.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', { token: tokenA, body: { ids } }),
      b.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', { token: tokenB, body: { ids } }),
    ])
    for (const p of pays) expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(pays[0].body.data.paid + pays[1].body.data.paid).toBe(ids.length)
    expect((await records()).every((r) => r.payment === 1)).toBe(true)

    // A compute on one and a pay on the other at once: "paid" means paid.
    const next = shiftPeriod(period, 1)
    expect((await a.call('POST', '/wages/compute', { token: tokenA, body: { period: next } })).status).toBe(200)
    const before = (
      await sql<{ id: number }>`select id from wage_records where period = ${next} and payment = 0`.execute(await db())
    ).rows.map((r) => Number(r.id))
    const [, pay] = await Promise.all([
      a.call('POST', '/wages/compute', { token: tokenA, body: { period: next } }),
      b.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', { token: tokenB, body: { ids: before } }),
    ])
    if (pay.status === 200) {
      const paid = Number(
        (await sql<{ n: number }>`select count(*) as n from wage_records where period = ${next} and payment = 1`.execute(await db()))
          .rows[0].n,
      )
      expect(paid).toBe(pay.body.data.paid + pay.body.data.alreadyPaid)
    }
  })
})
