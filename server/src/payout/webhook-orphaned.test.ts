/**
 * README 「推送接入」: a delivery not yet acknowledged is retried automatically, also after a restart. A server killed after
 * run() opened the entries (pending, no retry time) and before it recorded their deliveries — the receiver may even have
 * applied them — left entries that retryDue never selected (`next_attempt_at <= now` is never true for NULL): 待处理 for
 * ever. Now such an entry untouched for an hour is delivered again (its Idempotency-Key unchanged), once.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { openEntries } from './ledger'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe('webhook entries opened by a server killed before it recorded the delivery', () => {
  let db: TestDatabase
  let month: WageMonth
  let now = AFTER_MONTH
  const services: PayoutService[] = []
  const keys: string[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      keys.push(String(req.headers['idempotency-key']))
      res.writeHead(200).end('{}')
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
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((r) => server.close(r))
  })

  it('the restarted server delivers them by itself', async () => {
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
    expect(keys).toEqual([])
    now += 31 * 60_000
    expect(await restarted.retryDue()).toBe(2)
    const entries = await db.database.db.selectFrom('payout_ledger').select(['state', 'ledger_key']).orderBy('id').execute()
    expect(entries.map((e) => e.state)).toEqual(['done', 'done'])
    expect([...keys].sort()).toEqual(entries.map((e) => e.ledger_key).sort())
    // Delivered once: nothing is due after.
    now += 24 * 3600_000
    expect(await restarted.retryDue()).toBe(0)
    expect(keys).toHaveLength(2)
  })
})
