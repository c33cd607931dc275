/**
 * bonus_logs on a half-migrated site (a fork that changed new_total_value to decimal(20,1) but left
 * value int): the exact tenths only where all three columns keep them, whole points otherwise — a
 * tenth written into the int column is refused by a strict server after nothing else went wrong.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite } from './testing/nexus-site'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, parseTenths, wholePoints } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }

describe.skipIf(!serverUrl)('a bonus_logs whose value column is still int', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let payout: PayoutService

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, 'InnoDB')
    await site.conn.query('ALTER TABLE bonus_logs MODIFY value int NOT NULL')
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    await site.user(1001, '100.5')
    payout = nexusphpPayoutService(db, await site.writer(), { clock: () => AFTER_MONTH })
  })
  afterAll(async () => {
    await payout?.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('pays, and logs whole points in all three columns: the bonuses rounded, the change their difference', async () => {
    const [result] = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const credit = creditTenths(month.amounts.get(1001)!)
    const before = parseTenths('100.5')
    const [log] = await site.logs(1001)
    const [old, now] = [before, before + credit].map((t) => Number(wholePoints(t)))
    expect([log!.old_total_value, log!.value, log!.new_total_value].map((v) => Number(v))).toEqual([old, now - old, now])
  })
})
