/**
 * An old credit of another amount whose users.bonuscomment line the site has written away since (NexusPHP's gift and
 * its user edit form write back a bonuscomment read earlier) is told by the log row the same transaction wrote (its
 * comment's "魔力 a → b"). Found by an outside tester: only the line was compared, so the next run took that row as
 * proof that *this* entry's amount landed and marked the reopened entry 已发放 at the new amount — the site held the
 * old amount, the console said the new one was paid.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest'
import { wageDb } from '../wages/tables'
import { openEntries, transition } from './ledger'
import { useSiteMonth } from './testing/site-month'
import { AFTER_MONTH, PERIOD } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const START = '1000.0'
/** A line NexusPHP wrote back with the bonuscomment it had read before our credit (gift / user edit form). */
const WRITTEN_BACK = '2026-02-10 - [赠送] 赠送给 someone 50 魔力'

describe.skipIf(!serverUrl)('an old credit of another amount whose bonuscomment line the site wrote away (InnoDB)', () => {
  const { t, service, wage, entry } = useSiteMonth(serverUrl, 'InnoDB', { count: 1, bonus: () => START, operator })

  const failAndReopen = async (uid: number) => {
    expect(await transition(t.db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
    await wageDb(t.db.database.db).updateTable('wage_records').set({ amount: 10 }).where('id', '=', wage(uid)).execute()
    const reopened = { wageId: wage(uid), period: PERIOD, userId: t.month.users.get(uid)!, siteUid: uid, amount: 10 }
    await openEntries(t.db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
  }

  it('is 待核对 at the next run (its log row names the old amount), never 已发放 at the new amount', async () => {
    const uid = 1001
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid)) return
        if (step === 'written') await failAndReopen(uid)
        if (step === 'committed') throw new Error('process died after its commit')
      },
    })
    await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1').catch(() => undefined)
    const oldCredit = creditTenths(t.month.amounts.get(uid)!)
    const credited = parseTenths(START) + oldCredit
    expect(oldCredit).not.toBe(100n)
    expect(await t.site.bonus(uid)).toBe(formatTenths(credited))
    // The site's own write-back of a bonuscomment read before our credit: our line is gone, the bonus stays.
    await t.site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [WRITTEN_BACK, uid])
    // The log row of that credit is still there and says what was credited.
    const logs = await t.site.logs(uid)
    expect(logs).toHaveLength(1)
    expect(String(logs[0]!.value)).toBe(formatTenths(oldCredit))

    const [next] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    const e = await entry(uid)
    const rec = await wageDb(t.db.database.db)
      .selectFrom('wage_records')
      .select(['payment'])
      .where('id', '=', wage(uid))
      .executeTakeFirstOrThrow()
    // The site holds the old credit, not the 10.0 the record now says: the admin must check, not see 已发放.
    expect(await t.site.bonus(uid)).toBe(formatTenths(credited))
    expect(next!.status).toBe('in_doubt')
    expect(next!.reason).toContain(`魔力记录记的是 ${formatTenths(oldCredit)} 魔力`)
    expect(e).toMatchObject({ state: 'in_doubt', amount: 10 })
    expect(Number(rec.payment)).not.toBe(1)
  })
})
