/**
 * The other direction of a target switch: a MyISAM payout into the NexusPHP site was cut after it sent its credit
 * (credit_sent_at noted, the entry pending); the configuration is PAYOUT_WEBHOOK_URL since. The run makes the entry
 * 待核对. 确认已到账 (the bonus is on the NexusPHP site) records it paid and POSTs nothing — the webhook's settle used to
 * deliver whatever the action, and the receiver credited it a second time. 补发剩余部分 leaves it 失败; the next run
 * delivers it once.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { openEntries } from './ledger'
import { createPayoutService, type PayoutService } from './service'
import { buildWageMonth, AFTER_MONTH, PERIOD, type WageMonth } from './testing/wage-month'

const SECRET = 'webhook-secret-0123456789'
const operator = { id: 1, username: 'admin' }

describe.each(openTestDatabases().slice(0, 1))('an entry a NexusPHP payout left unfinished, under a webhook target ($name)', (backend) => {
  let db: TestDatabase
  let month: WageMonth
  let service: PayoutService | null = null
  const keys: string[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      keys.push(String(req.headers['idempotency-key']))
      res.writeHead(200).end('{}')
    })
  })

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    db = await backend.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 2, operator })
  }, 60_000)
  afterAll(async () => {
    await service?.close()
    await db?.cleanup()
    await new Promise((resolve) => server.close(resolve))
  })

  const open = async (uid: number) => {
    const wageId = month.wages.get(uid)!
    const opened = { wageId, period: PERIOD, userId: month.users.get(uid)!, siteUid: uid, amount: month.amounts.get(uid)! }
    // What a MyISAM attempt cut after sending its credit leaves.
    await openEntries(db.database.db, [opened], { target: 'nexusphp', operator, now: AFTER_MONTH - 60_000 })
    await db.database.db
      .updateTable('payout_ledger')
      .set({ credit_sent_at: AFTER_MONTH - 60_000 })
      .where('wage_id', '=', wageId)
      .execute()
    return wageId
  }
  const webhookService = () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payout`
    const config = {
      ...db.config,
      source: 'ingest' as const,
      payout: { writeDatabaseUrl: undefined, webhookUrl: url, webhookSecret: SECRET },
    }
    service ??= createPayoutService({ database: db.database, config, clock: () => AFTER_MONTH, webhookBackoffMs: 1_000 })
    return service
  }

  it('确认已到账 (the NexusPHP site has it) POSTs nothing, now or at the next payout', async () => {
    const wageId = await open(1001)
    const payout = webhookService()
    const [run] = await payout.run({ ids: [wageId] }, operator, '127.0.0.1')
    expect(run).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining('已到账请选「确认已到账」') })
    expect(keys).toEqual([])

    expect((await payout.resolve(wageId, 'markDone', operator, '127.0.0.1')).status).toBe('paid')
    const [again] = await payout.run({ ids: [wageId] }, operator, '127.0.0.1')
    expect(again!.status).toBe('already')
    expect(keys).toEqual([])
  })

  it('补发剩余部分 (not on the NexusPHP site) leaves it 失败; the next payout delivers it once', async () => {
    const wageId = await open(1002)
    const payout = webhookService()
    expect((await payout.run({ ids: [wageId] }, operator, '127.0.0.1'))[0]).toMatchObject({ status: 'in_doubt' })
    expect((await payout.resolve(wageId, 'payRest', operator, '127.0.0.1')).status).toBe('failed')
    expect(keys).toEqual([])
    const [paid] = await payout.run({ ids: [wageId] }, operator, '127.0.0.1')
    expect(paid!.status).toBe('paid')
    expect(keys).toEqual([`seeding-console:wage:${wageId}:${PERIOD}`])
  })
})
