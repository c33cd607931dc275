/**
 * Found by an outside tester (fixed since; the test keeps it so): two seeding teams of one site, each with its own
 * console, both paying a member who keeps torrents for both. The second team's wage for the month was never credited,
 * yet its record was marked 已发放 ("站点上已有这笔发放（此前的发放已写入），未重复发放"): nexusphp-rows.ts `paidForMonth`
 * takes a bonus_logs row of business_type 1000 whose comment starts "保种工资 <month>" with a key this console did not
 * open as this member's month paid — meant for a console set up afresh or restored from a backup, which pays the same
 * wage under another record id. NexusPHP's business_type 1000 is its generic 工作组工资: a member of two work groups gets
 * two salaries, one row each.
 *
 * Now a month found paid with ANOTHER amount stops at 待核对 with the evidence: 确认已到账 takes that payment for this
 * wage (writes nothing), 补发剩余部分 pays this one. The same amount is still taken as the same wage (a restored
 * console, tested in nexusphp.test.ts), paid once.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, buildWageMonth, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const UID = 1001

describe.skipIf(!serverUrl)('two teams’ consoles paying the same member of one site for the same month', () => {
  let site: NexusSite
  let teamA: TestDatabase
  let teamB: TestDatabase
  let monthA: WageMonth
  let monthB: WageMonth
  let payA: PayoutService
  let payB: PayoutService

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, 'InnoDB')
    const writer = await site.writer()
    teamA = await openTestDatabases()[0]!.open()
    teamB = await openTestDatabases()[0]!.open()
    await migrateToLatest(teamA.database)
    await migrateToLatest(teamB.database)
    // Team A: the member is its only keeper. Team B: a second keeper first, so the member's record has another id
    // (and, seeding another hour, another amount) — a different wage, not a restored copy of team A's.
    monthA = await buildWageMonth(teamA.database, { count: 1, firstUid: UID, operator })
    monthB = await buildWageMonth(teamB.database, { count: 2, firstUid: UID - 1, operator })
    await site.user(UID, '100.0')
    payA = nexusphpPayoutService(teamA, writer, { clock: () => AFTER_MONTH })
    payB = nexusphpPayoutService(teamB, writer, { clock: () => AFTER_MONTH })
  }, 60_000)
  afterAll(async () => {
    await payA?.close()
    await payB?.close()
    await teamA?.cleanup()
    await teamB?.cleanup()
    await site?.drop()
  })

  it('stops at 待核对 for a month paid with another amount; 补发剩余部分 pays it, 确认已到账 writes nothing', async () => {
    const wageA = monthA.wages.get(UID)!
    const wageB = monthB.wages.get(UID)!
    const creditA = creditTenths(monthA.amounts.get(UID)!)
    const creditB = creditTenths(monthB.amounts.get(UID)!)
    expect(creditB).not.toBe(creditA)

    const [a] = await payA.run({ ids: [wageA] }, operator, '127.0.0.1')
    expect(a!.status).toBe('paid')
    const [b] = await payB.run({ ids: [wageB] }, operator, '127.0.0.1')
    expect(b!.status).toBe('in_doubt')
    expect(b!.reason).toContain(`${formatTenths(creditA)} 魔力），与这条记录的 ${formatTenths(creditB)} 魔力不同`)
    expect(await site.bonus(UID)).toBe(formatTenths(parseTenths('100.0') + creditA))
    // A second run leaves it at 待核对: nothing written.
    const [again] = await payB.run({ ids: [wageB] }, operator, '127.0.0.1')
    expect(again!.status).not.toBe('paid')
    expect(await site.logs(UID)).toHaveLength(1)

    // The admin finds it is another team's wage: 补发剩余部分 credits this one, once.
    const resolved = await payB.resolve(wageB, 'payRest', operator, '127.0.0.1')
    expect(resolved.status).toBe('paid')
    expect(await site.bonus(UID)).toBe(formatTenths(parseTenths('100.0') + creditA + creditB))
    expect(await site.logs(UID)).toHaveLength(2)
    expect(await site.messages(UID)).toHaveLength(2)
    const [after] = await payB.run({ ids: [wageB] }, operator, '127.0.0.1')
    expect(after!.status).toBe('already')
    expect(await site.logs(UID)).toHaveLength(2)
  })

  it('确认已到账 takes the payment found for this wage and writes nothing', async () => {
    // Team C: the member's wage of another amount again, the site already holding team A's and B's.
    const teamC = await openTestDatabases()[0]!.open()
    try {
      await migrateToLatest(teamC.database)
      const monthC = await buildWageMonth(teamC.database, { count: 3, firstUid: UID - 2, operator })
      const payC = nexusphpPayoutService(teamC, await site.writer(), { clock: () => AFTER_MONTH })
      try {
        const wageC = monthC.wages.get(UID)!
        const before = await site.bonus(UID)
        const [c] = await payC.run({ ids: [wageC] }, operator, '127.0.0.1')
        expect(c!.status).toBe('in_doubt')
        const resolved = await payC.resolve(wageC, 'markDone', operator, '127.0.0.1')
        expect(['paid', 'already']).toContain(resolved.status)
        expect(await site.bonus(UID)).toBe(before)
        expect(await site.logs(UID)).toHaveLength(2)
      } finally {
        await payC.close()
      }
    } finally {
      await teamC.cleanup()
    }
  })
})
