/**
 * Found by an outside tester (fixed since; the test keeps it so): with `settleClaims` in the team's own wage mode, the
 * payout judged the site's claims by the TEAM's standards (rules `standardSeedHours` 400 h) — a claim the site showed
 * reached at its own 300 h was removed and fined 600. NexusPHP's cron, which the setting replaces, judges by the site's
 * settings (`torrent.claim_reach_standard_seed_time` / `_uploaded`, Claim::getConfigStandard…; 300 h and 2× where the
 * row is absent), and so must the console: nexusphp-claims.ts readClaimStandards, read by the write account at each
 * payout and dry run. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { CLAIM_REMOVE_DEDUCT_TYPE } from './nexusphp-claims'
import { ROLE_WORK_SALARY } from './nexusphp-rows'
import { formatTenths, parseTenths } from './tenths'
import { payoutKit } from './testing/kit'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, buildWageMonth, type WageMonth } from './testing/wage-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const START = '1000.0'

describe.skipIf(!serverUrl)('settling claims judges them by the site’s own claim standards', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, closeServices } = payoutKit(() => ({ db, writerUrl, month }))

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, 'InnoDB')
    writerUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 3, operator })
    // The team's own standard is stricter than the site's: 400 h.
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, standardSeedHours: 400, settleClaims: true }, AFTER_MONTH - 1000, null)
    for (const uid of [1001, 1002, 1003]) await site.user(uid, START)
  })
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('a write account that cannot read the site’s settings stops the payout before anything is written', async () => {
    await site.seededClaim(1003, 701, 350)
    const weak = service({}, await site.writer({ without: '.settings' }))
    const [result] = await weak.run({ ids: [wage(1003)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('failed')
    expect(result!.reason).toContain('settings')
    expect(await site.logs()).toEqual([])
    expect(await site.claims(1003)).toHaveLength(1)
  })

  it('a claim the site shows reached (350 h of its default 300 h) starts again — not removed by the team’s 400 h', async () => {
    const claim = await site.seededClaim(1001, 501, 350)
    const [shown] = (await service().preview({ ids: [wage(1001)] })).list
    expect(shown!.message).toContain('认领结算：\n- 1 个认领从现在起重新计算做种时长和上传量。')
    expect(shown!.message).not.toContain('已取消认领')
    const [result] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    expect(await site.bonus(1001)).toBe(formatTenths(parseTenths(START) + credit(1001)))
    expect((await site.logs(1001)).map((l) => l.business_type)).toEqual([ROLE_WORK_SALARY])
    expect(await site.claims(1001)).toMatchObject([{ id: String(claim), seed_time_begin: String(1350 * H) }])
  })

  it('a site whose own standard is 500 h removes a claim at 450 h, with the deduction, though the team’s 400 h call it reached', async () => {
    await site.claimStandardHours(500)
    await site.seededClaim(1002, 601, 450)
    const [shown] = (await service().preview({ ids: [wage(1002)] })).list
    expect(shown!.message).toContain('- 1 个认领超过一个月未达标，已取消认领，共扣除 600.0 魔力')
    const [result] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    expect(await site.bonus(1002)).toBe(formatTenths(parseTenths(START) + credit(1002) - 6000n))
    expect((await site.logs(1002)).map((l) => l.business_type)).toEqual([ROLE_WORK_SALARY, CLAIM_REMOVE_DEDUCT_TYPE])
    expect(await site.claims(1002)).toEqual([])
  })
})
