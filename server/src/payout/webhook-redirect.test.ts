/**
 * Found by an outside tester (fixed since; the test keeps it so): a webhook receiver that answers the POST with a redirect (301/302/303 — e.g. nginx's usual
 * `return 301 https://…` for a PAYOUT_WEBHOOK_URL entered as http://, or a moved path) gets the wage as a GET
 * without a body: fetch's default `redirect: 'follow'` turns a redirected POST into a GET (WHATWG fetch, §4.4
 * HTTP-redirect fetch), and whatever the redirected GET answers is taken as the receiver's answer to the wage.
 * When that page answers 200 (a landing or health page, an "ok" script that does nothing on GET) the console marks
 * the record 已发放 and the entry done — no request with the wage, its signature and body ever reached the ingest
 * site, so the member is never credited and nothing retries it (lost payment, silently).
 *
 * What a site sees: 工资 shows 已发放, 数据同步's delivery log shows HTTP 200; the ingest site's credit log has nothing.
 * Correct (domain.md §7 "retried with backoff until the receiver answers 2xx"; webhook.ts header "Until it answers 2xx
 * the entry stays pending"): only a 2xx answer to the signed POST itself counts. A 3xx is not a delivery: the entry
 * stays pending (with the redirect named as the reason) and is retried — webhook.ts deliver() now fetches with `redirect: 'manual'`
 * and treats any non-2xx, 3xx included, as not delivered.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH } from './testing/wage-month'

const SECRET = 'webhook-secret-redirect-0123456789'
const operator = { id: 1, username: 'admin' }

describe.each(openTestDatabases().slice(0, 1))('a webhook receiver that redirects the POST, on $name', (backend) => {
  let db: TestDatabase
  let service: PayoutService
  /** What reached the receiver: method, path and body of every request. */
  const seen: { method: string; url: string; body: string }[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body })
      // The old address moved permanently (as an http → https redirect does); the new path is a page answering 200.
      if (req.url === '/payout') return res.writeHead(301, { location: '/moved' }).end()
      if (req.url === '/moved' && req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      res.writeHead(405).end()
    })
  })

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    db = await backend.open()
    await migrateToLatest(db.database)
    await buildWageMonth(db.database, { count: 1, operator })
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: {
        writeDatabaseUrl: undefined,
        webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payout`,
        webhookSecret: SECRET,
      },
    }
    service = createPayoutService({ database: db.database, config, clock: () => AFTER_MONTH, webhookBackoffMs: 1_000 })
  }, 60_000)
  afterAll(async () => {
    await service?.close()
    await db?.cleanup()
    await new Promise((resolve) => server.close(resolve))
  })

  it('is not taken as delivered: the wage never reached the receiver as a POST, so the record stays unpaid and pending', async () => {
    const results = await service.run({ period: PERIOD }, operator, '127.0.0.1')
    // The receiver got the signed POST once and answered 301 (fetch used to follow it with a GET without the body, which
    // no receiver credits, and took that page's 200 as the delivery).
    const posts = seen.filter((r) => r.method === 'POST' && r.body.includes('idempotencyKey'))
    expect(posts.map((r) => r.url)).toEqual(['/payout'])
    // Nothing was credited by the receiver: the payout must not say 成功 / 已发放.
    expect(results.map((r) => r.status)).toEqual(['pending'])
    const records = await wageDb(db.database.db).selectFrom('wage_records').select(['payment']).where('period', '=', PERIOD).execute()
    expect(records.map((r) => Number(r.payment))).toEqual([0])
    const entries = await db.database.db.selectFrom('payout_ledger').select(['state']).execute()
    expect(entries.map((e) => e.state)).toEqual(['pending'])
    // The admin is told why and what to change.
    expect(results[0]!.reason).toContain('接收方返回 HTTP 301，要求转到 /moved')
    expect(results[0]!.reason).toContain('PAYOUT_WEBHOOK_URL')
  })
})
