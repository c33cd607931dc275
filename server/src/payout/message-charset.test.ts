/**
 * A v1.6 site's `messages` table is `DEFAULT CHARSET=utf8` (utf8mb3, `_db/dbstructure_v1.6.sql`): a
 * strict server refuses a character beyond U+FFFF there (error 1366). A template with an emoji must
 * still pay such a site — the emoji stored as the '?' utf8mb3 holds — and keep it on a utf8mb4 site. A message past
 * the column's 65,535 bytes (a long template) is cut, never refused or cut before its key.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite, type SiteEngine } from './testing/nexus-site'
import { openSiteMonth } from './testing/site-month'
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

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('a message longer than messages.msg holds (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let payout: PayoutService
  // A template within its 5,000 characters that repeats the unqualified list: ~100 KB rendered, past TEXT's 65,535 bytes.
  const long = { subject: '{月份} 保种工资', body: '{未达标明细}'.repeat(700) }

  beforeAll(async () => {
    let writerUrl: string
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, engine, { count: 1, bonus: () => '100.0', operator }))
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, payoutMessageTemplate: long }, AFTER_MONTH - 1000, null)
    payout = nexusphpPayoutService(db, writerUrl, { clock: () => AFTER_MONTH })
  }, 60_000)
  afterAll(async () => {
    await payout?.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('is cut within the column, said to be cut, and keeps its ledger key: the member is paid once', async () => {
    const [result] = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const [message] = await site.messages(1001)
    expect(Buffer.byteLength(message!.msg)).toBeLessThanOrEqual(65_535)
    expect(message!.msg).toMatch(/……（内容过长，以下从略）\n\[seeding-console:wage:\d+:2026-01\]$/)
    const [again] = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(again!.status).toBe('already')
    expect(await site.messages(1001)).toHaveLength(1)
  })
})
