/**
 * Found by an outside tester (fixed since; the test keeps it so): the webhook target POSTed a wage whose member has no site UID (`"siteUid": null`) — the
 * admin cleared the member's 站点 UID after the month was computed (user.update allows it while no entry is open).
 * The dry run shows that record 不可发放 (blocked: 该保种员没有绑定站点 UID), and the NexusPHP and demo targets answer
 * 失败 for it without touching the site (nexusphp-writer.ts, demo-target.ts); the webhook target has no such check
 * (webhook.ts deliver), so the wage is POSTed with nobody to credit, and a receiver that answers 2xx (a queue that
 * takes every well-signed request) makes the record 已发放 — the console says the member was paid when nobody was.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe.each(openTestDatabases().slice(0, 1))('a wage whose member has no site UID, paid through the webhook, on $name', (backend) => {
  let db: TestDatabase
  let month: WageMonth
  const now = AFTER_MONTH
  const services: PayoutService[] = []
  const received: { siteUid: unknown; wageId: number }[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const payload = JSON.parse(body) as { siteUid: unknown; wageId: number }
      received.push({ siteUid: payload.siteUid, wageId: payload.wageId })
      res.writeHead(200).end('{}') // a queue: takes every signed request
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
    db = await backend.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((r) => server.close(r))
  })

  it('is not POSTed and not marked 已发放: it fails with the reason, as the dry run and the other targets say', async () => {
    // The admin clears the first member's 站点 UID after the month was computed (as user.update does it).
    const [uid, wageId] = [...month.wages.entries()][0]!
    await db.database.db.updateTable('users').set({ site_uid: null }).where('id', '=', month.users.get(uid)!).execute()
    const s = service()
    const preview = await s.preview({ period: PERIOD })
    const shown = preview.list.find((e) => e.wageId === wageId)!
    expect(shown.status).toBe('blocked') // the dry run: 该保种员没有绑定站点 UID

    const results = await s.run({ period: PERIOD }, operator, '127.0.0.1')
    const result = results.find((r) => r.wageId === wageId)!
    // Nothing addressed to nobody reaches the site.
    expect(received.filter((r) => r.siteUid === null)).toEqual([])
    expect(result.status).toBe('failed')
    expect(result.reason).toContain('站点 UID')
    const record = await wageDb(db.database.db)
      .selectFrom('wage_records')
      .select('payment')
      .where('id', '=', wageId)
      .executeTakeFirstOrThrow()
    expect(record.payment).toBe(0)
  })
})
