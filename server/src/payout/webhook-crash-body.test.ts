/**
 * Found by an outside tester (fixed since; the test keeps it so): the body of a webhook delivery was saved only AFTER the receiver answered
 * (webhook.ts deliver(): payout_webhook_deliveries is inserted once fetch() returns). A server killed while the POST
 * is in flight — the receiver has it, has credited it — leaves no saved body, so the retry after the restart rebuilds
 * the body from the template / texts of that moment (webhook.ts requestBody → webhookBody). The same Idempotency-Key
 * then arrives with another payload: a receiver that follows the IETF Idempotency-Key draft (the receiver the existing
 * webhook-retries test models) answers 422, for ever: the record is never 已发放, though the member was paid.
 *
 * The in-flight kill is simulated by a receiver that holds its answer: the first server never gets to record
 * anything; a second server over the same database (the restarted one) retries the entry once its lease is over.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe.each(openTestDatabases().slice(0, 1))('a webhook delivery in flight when the server dies, on $name', (backend) => {
  let db: TestDatabase
  let now = AFTER_MONTH
  const services: PayoutService[] = []
  /** Bodies per Idempotency-Key, in arrival order; the first one is applied (credited). */
  const bodies = new Map<string, string[]>()
  const answers: number[] = []
  /** The first request is held (its answer never reaches the server that sent it before it dies). */
  let held: ServerResponse | null = null
  let reached: () => void = () => {}
  const firstArrived = new Promise<void>((r) => (reached = r))
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const key = String(req.headers['idempotency-key'])
      const seen = bodies.get(key)
      if (!seen) {
        bodies.set(key, [body]) // applied: the member is credited
        held = res
        reached()
        return
      }
      seen.push(body)
      // Same key, other payload: 422 (draft-ietf-httpapi-idempotency-key-header §2.7); same payload: the stored answer.
      const status = seen[0] === body ? 200 : 422
      answers.push(status)
      res.writeHead(status).end()
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
    await buildWageMonth(db.database, { count: 1, operator })
  }, 60_000)
  afterAll(async () => {
    ;(held as ServerResponse | null)?.destroy()
    for (const s of services) await s.close().catch(() => {})
    await db?.cleanup()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  it('the retry after the restart sends the bytes the receiver already applied, and the record ends 已发放', async () => {
    // The admin pays the month; the POST reaches the receiver, which credits it; the server is killed before the answer.
    const dying = service().run({ period: PERIOD }, operator, '127.0.0.1')
    dying.catch(() => {})
    await firstArrived
    // Between the crash and the restart the admin edits the message template (官种设置 → 站内信模板).
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(
      db.database.db,
      { ...rules, payoutMessageTemplate: { subject: '{月份} 工资', body: '{用户名}：{金额}' } },
      now + 1,
      null,
    )
    // The restarted server's retry loop, once the dead delivery's lease is over (README: an hour; the code: two).
    now += 3 * 3600_000
    const restarted = service()
    await restarted.retryDue()
    const [key, sent] = [...bodies.entries()][0]!
    expect(sent.length, key).toBe(2)
    // The same request under the same key: what the receiver credited.
    expect(sent[1], 'retry after the restart is the same request').toBe(sent[0])
    expect(answers).toEqual([200])
    const states = await db.database.db.selectFrom('payout_ledger').select('state').execute()
    expect(states.map((s) => s.state)).toEqual(['done'])
  })
})
