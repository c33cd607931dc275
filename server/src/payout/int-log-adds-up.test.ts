/**
 * Found by an outside tester (fixed since; the test keeps it so): on a v1.6 site (MyISAM, bonus_logs' old_total_value/value/new_total_value still int, as
 * NexusPHP created them in 2021) the three whole-point columns were each rounded on their own, so the row the member and the site's admins read on NexusPHP's 魔力记录 page does not add up:
 * 交易前值 + 交易值 ≠ 交易后值 — here a bonus of 1000.x plus a wage of 2064.y (x + y = 5 tenths) was shown as "1000 + 2064 = 3065". NexusPHP's bonus log is the only
 * per-change record an admin reconciles a member's seedbonus with; a wage row whose own figures disagree by a point
 * looks like a point was lost or invented. The row should at least be self-consistent: value = new − old in the
 * columns' whole points (the exact tenths are in the comment and the bonuscomment line anyway).
 * The int log row's value is now written as round(after) − round(before) (nexusphp-rows.ts logValues).
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { formatTenths } from './tenths'
import { useSiteMonth } from './testing/site-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }

describe.skipIf(!serverUrl)('a wage logged into v1.6 int bonus_logs columns', () => {
  const { t, service, wage, credit } = useSiteMonth(serverUrl, 'MyISAM', { count: 3, bonus: () => '1000.0', operator })
  let uid = 0

  beforeAll(async () => {
    // A member whose credit has tenths (every real wage but a round one), their bonus with tenths that round the
    // other way when added: the bonus before, the credit and the bonus after each rounded alone do not add up.
    uid = [1001, 1002, 1003].find((u) => credit(u) % 10n !== 0n)!
    expect(uid, 'a wage with tenths').toBeTruthy()
    const r = credit(uid) % 10n
    const before = 10_000n + (r < 5n ? 5n - r : 5n)
    await t.site.conn.query('UPDATE users SET seedbonus = ? WHERE id = ?', [formatTenths(before), uid])
  }, 60_000)

  it('writes a bonus log row whose before + change = after, as NexusPHP shows it', async () => {
    const [result] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const [log] = await t.site.logs(uid)
    expect(log).toBeDefined()
    const oldValue = Number(log!.old_total_value)
    const value = Number(log!.value)
    const newValue = Number(log!.new_total_value)
    // What NexusPHP's 魔力记录 page shows in its 交易前值 / 交易值 / 交易后值 columns must add up.
    expect({ old: oldValue, value, new: newValue, sum: oldValue + value }).toEqual({ old: oldValue, value, new: newValue, sum: newValue })
  })
})
