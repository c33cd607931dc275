/**
 * A receiver that answers 503 or 429 with Retry-After (RFC 9110 §10.2.3) says when to come back. The retry used to
 * follow our own backoff only (10 s, 20 s, …): an overloaded or maintained receiver got the month's wages again at once,
 * every one failing and noted in 数据同步. The retry time is now the later of the backoff and the receiver's wish (at most
 * a day), in seconds or as an HTTP date; an unreadable value is ignored.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { createPayoutService, type PayoutService } from './service'
import { MAX_RETRY_AFTER_MS } from './webhook'
import { webhookDeliveryLog } from './webhook-log'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'

const operator = { id: 1, username: 'admin' }

describe('a receiver’s Retry-After', () => {
  let db: TestDatabase
  let month: WageMonth
  let now = AFTER_MONTH
  const services: PayoutService[] = []
  /** The next answer: status and Retry-After (null: none). */
  let answer: { status: number; retryAfter: string | null } = { status: 200, retryAfter: null }
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(answer.status, answer.retryAfter === null ? {} : { 'retry-after': answer.retryAfter }).end())
  })
  const service = () => {
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: {
        writeDatabaseUrl: undefined,
        webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`,
        webhookSecret: 'webhook-secret-0123456789',
      },
    }
    const created = createPayoutService({ database: db.database, config, clock: () => now, webhookBackoffMs: 1_000 })
    services.push(created)
    return created
  }
  const nextRetry = async (wageId: number) => (await webhookDeliveryLog(db.database.db)).find((d) => d.wageId === wageId)!.nextRetryAt

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 4, operator })
  })
  beforeEach(() => {
    now += 3_600_000
  })
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((resolve) => server.close(resolve))
  })

  it('in seconds: the retry waits as long as the receiver asks', async () => {
    answer = { status: 503, retryAfter: '600' }
    const [result] = await service().run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(result!.status).toBe('pending')
    expect(await nextRetry(month.wages.get(1001)!)).toBe(new Date(now + 600_000).toISOString())
  })

  it('as an HTTP date', async () => {
    answer = { status: 429, retryAfter: new Date(now + 7_200_000).toUTCString() }
    await service().run({ ids: [month.wages.get(1002)!] }, operator, '127.0.0.1')
    expect(await nextRetry(month.wages.get(1002)!)).toBe(new Date(now + 7_200_000).toISOString())
  })

  it('at most a day; a wish shorter than the backoff, or unreadable, keeps the backoff', async () => {
    answer = { status: 503, retryAfter: String(30 * 86_400) }
    await service().run({ ids: [month.wages.get(1003)!] }, operator, '127.0.0.1')
    expect(await nextRetry(month.wages.get(1003)!)).toBe(new Date(now + MAX_RETRY_AFTER_MS).toISOString())
    for (const retryAfter of ['0', 'soon']) {
      now += 3_600_000
      answer = { status: 503, retryAfter }
      await service().run({ ids: [month.wages.get(1004)!] }, operator, '127.0.0.1')
      const entry = await db.database.db
        .selectFrom('payout_ledger')
        .select(['attempts'])
        .where('wage_id', '=', month.wages.get(1004)!)
        .executeTakeFirstOrThrow()
      expect(await nextRetry(month.wages.get(1004)!)).toBe(new Date(now + 1_000 * 2 ** (Number(entry.attempts) - 1)).toISOString())
    }
  })
})
