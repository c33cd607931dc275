/**
 * A v1.6 site's `messages` table is `DEFAULT CHARSET=utf8` (utf8mb3, `_db/dbstructure_v1.6.sql`): a
 * strict server refuses a character beyond U+FFFF there (error 1366). A template with an emoji must
 * still pay such a site — the emoji stored as the '?' utf8mb3 holds — and keep it on a utf8mb4 site.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite, type SiteEngine } from './testing/nexus-site'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const template = { subject: '🎉 {月份} 保种工资 {金额}', body: '{用户名}：工资 {金额} 魔力已到账 🌱' }

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('a message with an emoji on a NexusPHP site (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let payout: PayoutService

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, engine)
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, payoutMessageTemplate: template }, AFTER_MONTH - 1000, null)
    await site.user(1001, '100.0')
    payout = nexusphpPayoutService(db, await site.writer(), { clock: () => AFTER_MONTH })
  })
  afterAll(async () => {
    await payout?.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('pays once; a utf8mb3 messages table gets "?" for the emoji, a utf8mb4 one the emoji', async () => {
    const [result] = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const credit = formatTenths(creditTenths(month.amounts.get(1001)!))
    expect(await site.bonus(1001)).toBe(formatTenths(parseTenths('100.0') + parseTenths(credit)))
    const [message] = await site.messages(1001)
    const mark = (emoji: string) => (engine === 'MyISAM' ? '?' : emoji)
    expect(message!.subject).toBe(`${mark('🎉')} 2026-01 保种工资 ${credit}`)
    expect(message!.msg).toContain(`keeper000：工资 ${credit} 魔力已到账 ${mark('🌱')}\n[seeding-console:wage:`)
    expect(await site.logs(1001)).toHaveLength(1)
  })
})
