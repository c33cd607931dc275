/**
 * Ingest sites: paid wages POSTed to PAYOUT_WEBHOOK_URL, signed, one Idempotency-Key per wage
 * record, retried with backoff until the receiver answers 2xx — across receiver failures and a
 * server restart (a new app over the same database), on SQLite and PostgreSQL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutResult } from '@shared/payout'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { payWages } from '../wages/engine'
import { createPayoutService, type PayoutService } from './service'
import { HAND_PAID } from './wages'
import { webhookDeliveryLog } from './webhook-log'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

/** A receiver that refuses the first `failFirst` requests and credits each idempotency key once. */
class Receiver {
  failFirst = 0
  requests = 0
  badSignatures = 0
  readonly credited = new Map<string, { wageId: number; credit: string }>()
  readonly server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      this.requests++
      const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`)
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''))
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        this.badSignatures++
        return res.writeHead(401).end()
      }
      if (this.failFirst > 0) {
        this.failFirst--
        return res.writeHead(503).end()
      }
      const key = String(req.headers['idempotency-key'])
      const payload = JSON.parse(body) as { idempotencyKey: string; wageId: number; credit: string }
      expect(payload.idempotencyKey).toBe(key)
      if (!this.credited.has(key)) this.credited.set(key, { wageId: payload.wageId, credit: payload.credit })
      res.writeHead(200).end('{}')
    })
  })
  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/payout`
  }
}

describe.each(openTestDatabases())('paying through the webhook on $name', (backend) => {
  let db: TestDatabase
  let month: WageMonth
  const receiver = new Receiver()
  const services: PayoutService[] = []
  let now = AFTER_MONTH

  const service = () => {
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: { writeDatabaseUrl: undefined, webhookUrl: receiver.url(), webhookSecret: SECRET },
    }
    const created = createPayoutService({ database: db.database, config, clock: () => now, webhookBackoffMs: 1_000 })
    services.push(created)
    return created
  }

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
    db = await backend.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 3, operator })
  })
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((resolve) => receiver.server.close(resolve))
  })

  it('a failing receiver gets each wage again after the pause, also from a restarted server, and credits each key once', async () => {
    receiver.failFirst = 4
    const first = service()
    const results: PayoutResult[] = await first.run({ period: PERIOD }, operator, '127.0.0.1')
    // Three refused: pending with the reason and the retry time; nothing is 已发放 yet.
    expect(results.map((r) => r.status)).toEqual(['pending', 'pending', 'pending'])
    expect(results[0]!.reason).toContain('接收方返回 HTTP 503')
    // The delivery log of 数据同步: each record pending, its one 503 and the time of its retry.
    const pending = await webhookDeliveryLog(db.database.db)
    expect(pending.map((d) => d.wageId).sort()).toEqual([...month.wages.values()].sort())
    for (const d of pending) {
      expect(d).toMatchObject({
        state: 'pending',
        attempts: 1,
        lastStatus: 503,
        lastError: null,
        idempotencyKey: `seeding-console:wage:${d.wageId}:${PERIOD}`,
        period: PERIOD,
      })
      expect(d.nextRetryAt).toBe(new Date(now + 1_000).toISOString())
      expect(d.lastAttemptAt).toBe(new Date(now).toISOString())
    }
    expect(await wageDb(db.database.db).selectFrom('wage_records').select('id').where('payment', '=', 1).execute()).toEqual([])
    // Not due yet: nothing is sent.
    expect(await first.retryDue()).toBe(0)
    expect(receiver.requests).toBe(3)
    await first.close()

    // A restarted server picks up the pending deliveries once they are due.
    const restarted = service()
    now += 1_000
    expect(await restarted.retryDue()).toBe(2) // the 4th request still fails
    now += 2_000
    expect(await restarted.retryDue()).toBe(1)
    expect(await restarted.retryDue()).toBe(0)

    expect(receiver.badSignatures).toBe(0)
    expect([...receiver.credited.values()].map((c) => c.wageId).sort()).toEqual([...month.wages.values()].sort())
    const records = await wageDb(db.database.db).selectFrom('wage_records').select(['payment', 'paid_by_name']).execute()
    expect(records.every((r) => r.payment === 1 && r.paid_by_name === 'admin')).toBe(true)
    const deliveries = await db.database.db.selectFrom('payout_webhook_deliveries').select(['status']).execute()
    expect(deliveries.map((d) => d.status).sort()).toEqual([200, 200, 200, 503, 503, 503, 503])

    const delivered = await webhookDeliveryLog(db.database.db)
    expect(delivered.map((d) => [d.state, d.lastStatus, d.nextRetryAt])).toEqual([
      ['done', 200, null],
      ['done', 200, null],
      ['done', 200, null],
    ])
    expect(delivered.map((d) => d.attempts).sort()).toEqual([2, 2, 3])

    // Paying again sends nothing.
    const again = await restarted.run({ period: PERIOD }, operator, '127.0.0.1')
    expect(again.map((r) => r.status)).toEqual(['already', 'already', 'already'])
    expect(receiver.requests).toBe(7)
  })
})

describe.each(openTestDatabases())('a webhook delivery being retried when its record is marked 已发放 by hand, on $name', (backend) => {
  let db: TestDatabase
  const receiver = new Receiver()
  let service: PayoutService | null = null
  let now = AFTER_MONTH
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
    db = await backend.open()
    await migrateToLatest(db.database)
  })
  afterAll(async () => {
    await service?.close()
    await db?.cleanup()
    await new Promise((resolve) => receiver.server.close(resolve))
  })

  it('is not delivered again: the entry ends 失败 with the reason, the others are delivered', async () => {
    const month = await buildWageMonth(db.database, { count: 3, operator })
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: { writeDatabaseUrl: undefined, webhookUrl: receiver.url(), webhookSecret: SECRET },
    }
    service = createPayoutService({ database: db.database, config, clock: () => now, webhookBackoffMs: 1_000 })
    receiver.failFirst = 3
    expect((await service.run({ period: PERIOD }, operator, '127.0.0.1')).map((r) => r.status)).toEqual(['pending', 'pending', 'pending'])
    const [handPaid, ...others] = [...month.wages.values()].sort((a, b) => a - b)
    expect((await payWages(db.database, { ids: [handPaid!], now, operator, ip: '127.0.0.1' })).paid).toBe(1)
    now += 1_000
    expect(await service.retryDue()).toBe(2)
    expect([...receiver.credited.values()].map((c) => c.wageId).sort((a, b) => a - b)).toEqual(others)
    const entry = await db.database.db.selectFrom('payout_ledger').selectAll().where('wage_id', '=', handPaid!).executeTakeFirstOrThrow()
    expect(entry).toMatchObject({ state: 'failed', reason: HAND_PAID, next_attempt_at: null })
    now += 60_000
    expect(await service.retryDue()).toBe(0)
    expect(receiver.requests).toBe(5)
  })
})
