/**
 * The month of one member is never taken as paid on the strength of another member's record: the check for a month
 * paid under another key (nexusphp-rows.ts paidForMonth — a console set up afresh or restored from a backup) leaves
 * out the rows of the keys this console's own ledger opened for other records on the uid.
 *
 * Members A (site uid 1001) and B (uid 1002) have January wages of different amounts; A's is paid into uid 1001. The
 * admin then finds the two bindings swapped and corrects them (allowed: A's entry is done, B has none): A → 1002,
 * B → 1001. Paying B's January record finds A's January log row on uid 1001 — it used to record B's record 已发放
 * (「站点上已有这笔发放」) with nothing credited. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest'
import { wageDb } from '../wages/tables'
import { useSiteMonth } from './testing/site-month'
import { formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const START = '1000.0'

describe.skipIf(!serverUrl)("a member's month paid under another member's record on the same site uid (NexusPHP, InnoDB)", () => {
  const { t, service, wage, credit, entry } = useSiteMonth(serverUrl, 'InnoDB', { count: 2, bonus: () => START, operator })

  it("B's record is paid into uid 1001, on top of A's payment there", async () => {
    const a = t.month.users.get(1001)!
    const b = t.month.users.get(1002)!
    expect(credit(1001)).not.toBe(credit(1002))
    const [paidA] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(paidA!.status).toBe('paid')
    const afterA = formatTenths(parseTenths(START) + credit(1001))
    expect(await t.site.bonus(1001)).toBe(afterA)

    // The admin corrects swapped bindings (users.updateUser allows it: A's only entry is done, B has none).
    const users = t.db.database.db
    await users.updateTable('users').set({ site_uid: null }).where('id', '=', a).execute()
    await users.updateTable('users').set({ site_uid: 1001 }).where('id', '=', b).execute()
    await users.updateTable('users').set({ site_uid: 1002 }).where('id', '=', a).execute()

    const preview = await service().preview({ ids: [wage(1002)] })
    expect(preview.list[0]).toMatchObject({ status: 'ready', siteUid: 1001 })

    const [paidB] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(paidB).toMatchObject({ status: 'paid', bonusBefore: afterA })
    expect(await t.site.bonus(1001)).toBe(formatTenths(parseTenths(afterA) + credit(1002)))
    expect(await entry(1002)).toMatchObject({ state: 'done', site_uid: 1001 })
    const record = await wageDb(t.db.database.db)
      .selectFrom('wage_records')
      .select('payment')
      .where('id', '=', wage(1002))
      .executeTakeFirstOrThrow()
    expect(Number(record.payment)).toBe(1)
    // Paying again is 'already': B's own key is on the site now.
    const [again] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(again!.status).toBe('already')
    expect(await t.site.bonus(1001)).toBe(formatTenths(parseTenths(afterA) + credit(1002)))
  })
})
