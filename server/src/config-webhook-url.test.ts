/**
 * Found by an outside tester (fixed since; the test keeps it so): PAYOUT_WEBHOOK_URL with a user and password in it (https://user:token@hooks.example/…, the
 * usual way to hand a receiver HTTP Basic credentials).
 *
 * README「服务端配置」: `PAYOUT_WEBHOOK_URL` / `PAYOUT_WEBHOOK_SECRET` — 推送接入站点：已发放的工资 POST 到这里.
 * config.ts (header): "Every value is checked here, so a typo stops the server at start with a message naming the
 * variable instead of failing later in a request."
 *
 * What happened: loadConfig accepted the address (config.ts only checks `^https?://`), then every delivery fails —
 * Node's fetch refuses a URL that includes credentials — and payout/webhook.ts:119-122 copies fetch's message,
 * which quotes the whole URL, password included, into the reason that the pay answer returns to the admin's client,
 * that is kept in payout_webhook_deliveries.error and written to the operation log.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, type Config } from './config'
import { migrateToLatest } from './db/migrate'
import { openTestDatabases, type TestDatabase } from './test/harness'
import { createPayoutService, type PayoutService } from './payout/service'
import { buildWageMonth, PERIOD, AFTER_MONTH } from './payout/testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const HOOK_PASSWORD = 'Hook-Basic-Pw-7f3a9c'
const operator = { id: 1, username: 'admin' }

describe.each(openTestDatabases().slice(0, 1))('PAYOUT_WEBHOOK_URL with user:password, on $name', (backend) => {
  let db: TestDatabase
  const services: PayoutService[] = []
  const received: { authorization: string | undefined }[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received.push({ authorization: req.headers.authorization })
      res.writeHead(200).end('{}')
    })
  })
  let url = ''

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://hookuser:${HOOK_PASSWORD}@127.0.0.1:${(server.address() as AddressInfo).port}/p`
    db = await backend.open()
    await migrateToLatest(db.database)
    await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await new Promise((r) => server.close(r))
  })

  /** The configuration as a deployment gets it; null when the server refuses to start (a fix may choose that). */
  function configFromEnv(): { config: Config | null; refusal: string } {
    try {
      const loaded = loadConfig({
        DATA_DIR: db.config.dataDir,
        SOURCE: 'ingest',
        INGEST_KEYS: 'ingest-key-0123456789abcdef',
        PAYOUT_WEBHOOK_URL: url,
        PAYOUT_WEBHOOK_SECRET: SECRET,
      })
      return { config: { ...db.config, source: 'ingest', payout: loaded.payout }, refusal: '' }
    } catch (error) {
      if (error instanceof ConfigError) return { config: null, refusal: error.message }
      throw error
    }
  }

  it('is either refused at start (naming the variable) or delivers; the password never appears in a reason, the delivery table or the operation log', async () => {
    const { config, refusal } = configFromEnv()
    if (config === null) {
      // A fix that refuses such an address at start: clear, and without echoing the password.
      expect(refusal).toContain('PAYOUT_WEBHOOK_URL')
      expect(refusal).not.toContain(HOOK_PASSWORD)
      return
    }
    const s = createPayoutService({ database: db.database, config, clock: () => AFTER_MONTH, webhookBackoffMs: 1_000 })
    services.push(s)
    const results = await s.run({ period: PERIOD }, operator, '127.0.0.1')
    expect(results.length).toBeGreaterThan(0)

    // Nothing the admin's client gets back, nothing kept in the database, quotes the receiver's password.
    const answered = JSON.stringify(results)
    const deliveries = JSON.stringify((await sql`select error from payout_webhook_deliveries`.execute(db.database.db)).rows)
    const logged = JSON.stringify((await sql`select * from operation_log`.execute(db.database.db)).rows)
    expect(answered).not.toContain(HOOK_PASSWORD)
    expect(deliveries).not.toContain(HOOK_PASSWORD)
    expect(logged).not.toContain(HOOK_PASSWORD)

    // Accepted at start, so it must work: the receiver gets the wages (with the credentials as Basic auth).
    expect(received.length).toBeGreaterThan(0)
    expect(results.map((r) => r.status)).not.toContain('failed')
    expect(results.map((r) => r.status)).not.toContain('pending')
  })
})
