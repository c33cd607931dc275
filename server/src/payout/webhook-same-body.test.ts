/**
 * A receiver that applied a delivery and answered 500 (or timed out) gets the retry with the same Idempotency-Key and
 * the same bytes (payout_webhook_deliveries.body), though the message template changed in between: the texts came
 * from the rules' template, rank and username at the time of sending, and a receiver following the IETF
 * Idempotency-Key draft answers 422 to a reused key with another payload — the entry retried for ever, never 已发放.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe('a webhook receiver that applied a delivery and answered 500, then sees the retry', () => {
  let db: TestDatabase
  let now = AFTER_MONTH
  const services: PayoutService[] = []
  const bodies = new Map<string, string[]>()
  let failAfterApplying = true
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const key = String(req.headers['idempotency-key'])
      const seen = bodies.get(key)
      if (seen) {
        seen.push(body)
        // Same key, other payload: 422 (draft-ietf-httpapi-idempotency-key-header §2.7).
        return res.writeHead(seen[0] === body ? 200 : 422).end()
      }
      bodies.set(key, [body]) // applied (credited)
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
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((r) => server.close(r))
  })

  it('the retry carries the same bytes, and the entry ends done', async () => {
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
    for (const [key, sent] of bodies) {
      expect(sent.length, key).toBe(2)
      expect(sent[1], `retry of ${key} is the same request`).toBe(sent[0])
    }
    const entries = await db.database.db.selectFrom('payout_ledger').select(['state']).execute()
    expect(entries.map((e) => e.state)).toEqual(['done', 'done'])
  })
})
