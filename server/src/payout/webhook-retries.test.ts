/**
 * Webhook retries as a receiver that follows the IETF Idempotency-Key draft sees them:
 * - a receiver that applied a delivery and answered 500 gets the retry with the same key and the same bytes
 *   (payout_webhook_deliveries.body), though the message template changed in between — the texts used to be rebuilt,
 *   and such a receiver answers 422 to a reused key with another payload: the entry retried for ever, never 已发放;
 * - entries opened by a server killed before it recorded their deliveries (pending, no retry time) used to be left
 *   待处理 for ever (`next_attempt_at <= now` is never true for NULL): untouched for an hour, they are delivered again;
 * - and a run that takes longer than that (a slow receiver, many members) is not raced by that retry, nor a retry in
 *   flight by a run the admin starts meanwhile: each delivery is taken first, by the run or the retry, and the other
 *   leaves it while it is held (a lease) or waits for its retry time.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { openEntries } from './ledger'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe('webhook retries', () => {
  let db: TestDatabase
  let month: WageMonth
  let now = AFTER_MONTH
  const services: PayoutService[] = []
  /** The bodies each Idempotency-Key was sent with, in order; the first one applied (credited). */
  const bodies = new Map<string, string[]>()
  let failAfterApplying = false
  /** Set: the next request's answer waits for `released` (a slow receiver); `reached` is called when it arrives. */
  let slow: { reached: () => void; released: Promise<void> } | null = null
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', async () => {
      const key = String(req.headers['idempotency-key'])
      if (slow) {
        const { reached, released } = slow
        slow = null
        reached()
        await released
      }
      const seen = bodies.get(key)
      if (seen) {
        seen.push(body)
        // Same key, other payload: 422 (draft-ietf-httpapi-idempotency-key-header §2.7).
        return res.writeHead(seen[0] === body ? 200 : 422).end()
      }
      bodies.set(key, [body])
      return res.writeHead(failAfterApplying ? 500 : 200).end()
    })
  })
  const service = () => {
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: {
        writeDatabaseUrl: undefined,
        webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`,
        webhookSecret: SECRET,
      },
    }
    const s = createPayoutService({ database: db.database, config, clock: () => now, webhookBackoffMs: 1_000 })
    services.push(s)
    return s
  }
  const states = async () => (await db.database.db.selectFrom('payout_ledger').select('state').orderBy('id').execute()).map((e) => e.state)

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  beforeEach(async () => {
    await db.database.db.deleteFrom('payout_webhook_deliveries').execute()
    await db.database.db.deleteFrom('payout_ledger').execute()
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null })
      .execute()
    bodies.clear()
    failAfterApplying = false
  })
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((r) => server.close(r))
  })

  it('a retry carries the bytes of the first delivery, though the template changed, and the entry ends done', async () => {
    failAfterApplying = true
    const s = service()
    const results = await s.run({ period: PERIOD }, operator, '127.0.0.1')
    expect(results.map((r) => r.status)).toEqual(['pending', 'pending'])
    // Between the attempts the admin edits the message template (官种设置 → 站内信模板).
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(
      db.database.db,
      { ...rules, payoutMessageTemplate: { subject: '{月份} 工资', body: '{用户名}：{金额}' } },
      now + 1,
      null,
    )
    failAfterApplying = false
    now += 5_000
    await s.retryDue()
    expect(bodies.size).toBe(2)
    for (const [key, sent] of bodies) {
      expect(sent.length, key).toBe(2)
      expect(sent[1], `retry of ${key} is the same request`).toBe(sent[0])
    }
    expect(await states()).toEqual(['done', 'done'])
  })

  it('entries a killed server opened and never recorded are delivered again after an hour, once', async () => {
    // What run() had done when it was SIGKILLed: the month's entries opened, nothing recorded of the deliveries.
    await openEntries(
      db.database.db,
      [...month.wages].map(([uid, wageId]) => ({
        wageId,
        period: PERIOD,
        userId: month.users.get(uid)!,
        siteUid: uid,
        amount: month.amounts.get(uid)!,
      })),
      { target: 'webhook', operator, now },
    )
    const restarted = service()
    // Not while a run may still be reaching them.
    now += 30 * 60_000
    expect(await restarted.retryDue()).toBe(0)
    expect(bodies.size).toBe(0)
    now += 31 * 60_000
    expect(await restarted.retryDue()).toBe(2)
    expect(await states()).toEqual(['done', 'done'])
    const keys = (await db.database.db.selectFrom('payout_ledger').select('ledger_key').execute()).map((e) => e.ledger_key)
    expect([...bodies.keys()].sort()).toEqual(keys.sort())
    // Delivered once: nothing is due after.
    now += 24 * 3600_000
    expect(await restarted.retryDue()).toBe(0)
    expect([...bodies.values()].map((sent) => sent.length)).toEqual([1, 1])
  })

  it('a run slower than an hour and the orphaned-delivery retry deliver each entry once', async () => {
    let release = () => {}
    const released = new Promise<void>((r) => (release = r))
    const reached = new Promise<void>((r) => (slow = { reached: r, released }))
    const s = service()
    const running = s.run({ period: PERIOD }, operator, '127.0.0.1')
    await reached
    // The run has taken over an hour to get here; the background loop polls: it takes the member not yet reached.
    now += 61 * 60_000
    expect(await s.retryDue()).toBe(1)
    release()
    const results = await running
    expect(results.map((r) => r.status)).toEqual(['paid', 'pending'])
    expect([...bodies.values()].map((sent) => sent.length)).toEqual([1, 1])
    expect(await states()).toEqual(['done', 'done'])
  })

  it('a run started while the retry loop is delivering an entry leaves it to that delivery', async () => {
    failAfterApplying = true
    const first = service()
    expect((await first.run({ period: PERIOD }, operator, '127.0.0.1')).map((r) => r.status)).toEqual(['pending', 'pending'])
    failAfterApplying = false
    now += 5_000
    let release = () => {}
    const released = new Promise<void>((r) => (release = r))
    const reached = new Promise<void>((r) => (slow = { reached: r, released }))
    // The background loop takes the due entries; its first POST is held by the receiver.
    const retrying = first.retryDue()
    await reached
    // Meanwhile the admin (this process or another) pays the month again: the run leaves the entry in flight, and
    // delivers the other, which the retry loop has not taken yet (and then finds taken).
    const again = await service().run({ period: PERIOD }, operator, '127.0.0.1')
    expect(again.map((r) => r.status)).toEqual(['pending', 'paid'])
    expect(again[0]!.reason).toContain('正在推送中或等待自动重试')
    release()
    expect(await retrying).toBe(1)
    expect([...bodies.values()].map((sent) => sent.length)).toEqual([2, 2])
    expect(await states()).toEqual(['done', 'done'])
  })
})
