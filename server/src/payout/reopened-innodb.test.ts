/**
 * On InnoDB an attempt that read its entry before the entry failed and was reopened with another amount (a recompute
 * between two attempts) or another site uid pays nothing: it checks the entry under the member's lock (nothing is noted
 * before a transactional credit). It used to credit what it read, and its outcome marked the reopened entry done — the
 * site credited the old amount or account, the console showed the new one 已发放. An old credit the site holds under the
 * key is 待核对 wherever it is found (its line names what was credited). The MyISAM path refuses this through
 * its note (failed-after-sent.test.ts "an entry reopened with another amount …"). Runs when NEXUSPHP_TEST_DATABASE_URL is set.
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

describe.skipIf(!serverUrl)('an entry reopened with another amount while an InnoDB attempt is under way', () => {
  const { t, service, wage, entry } = useSiteMonth(serverUrl, 'InnoDB', { count: 5, bonus: () => START, operator })

  it('the site is credited what the entry and record say, and the stale attempt sends nothing', async () => {
    const uid = 1001
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'begin') return
        // Meanwhile another attempt recorded it failed, a recompute changed the record to 10, and a third run reopened it.
        expect(await transition(t.db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
        await wageDb(t.db.database.db).updateTable('wage_records').set({ amount: 10 }).where('id', '=', wage(uid)).execute()
        const reopened = { wageId: wage(uid), period: PERIOD, userId: t.month.users.get(uid)!, siteUid: uid, amount: 10 }
        await openEntries(t.db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
      },
    })
    const [stale] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(stale).toMatchObject({ status: 'failed', reason: expect.stringContaining('已被另一个发放处理') })
    expect(await t.site.bonus(uid)).toBe(START)
    // The third run pays the reopened entry.
    const [third] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(third!.status).toBe('paid')
    const e = await entry(uid)
    const rec = await wageDb(t.db.database.db)
      .selectFrom('wage_records')
      .select(['amount', 'payment'])
      .where('id', '=', wage(uid))
      .executeTakeFirstOrThrow()
    expect(e.state).toBe('done')
    expect(Number(rec.payment)).toBe(1)
    // Whatever was credited, it must be what the console records as paid.
    expect(await t.site.bonus(uid)).toBe(formatTenths(parseTenths(START) + parseTenths(String(e.amount))))
  })
  it('an entry reopened for another site uid: the new account is paid, not the old one (shown 已到账 either way)', async () => {
    const uid = 1002
    const NEW_UID = 3003
    await t.site.user(NEW_UID, START)
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'begin') return
        // Meanwhile another attempt recorded it failed, the admin corrected the member's site uid (allowed: nothing
        // open), and a third run reopened the entry for the new uid.
        expect(await transition(t.db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
        await t.db.database.db.updateTable('users').set({ site_uid: NEW_UID }).where('id', '=', t.month.users.get(uid)!).execute()
        const reopened = {
          wageId: wage(uid),
          period: PERIOD,
          userId: t.month.users.get(uid)!,
          siteUid: NEW_UID,
          amount: t.month.amounts.get(uid)!,
        }
        await openEntries(t.db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
      },
    })
    await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    const [third] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(third!.status).toBe('paid')
    const e = await entry(uid)
    expect(e).toMatchObject({ state: 'done', site_uid: NEW_UID })
    expect(await t.site.bonus(uid)).toBe(START)
    expect(await t.site.bonus(NEW_UID)).not.toBe(START)
  })

  const failAndReopen = async (uid: number) => {
    expect(await transition(t.db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
    await wageDb(t.db.database.db).updateTable('wage_records').set({ amount: 10 }).where('id', '=', wage(uid)).execute()
    const reopened = { wageId: wage(uid), period: PERIOD, userId: t.month.users.get(uid)!, siteUid: uid, amount: 10 }
    await openEntries(t.db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
  }

  it('reopened between the check and the commit: the credit it wrote is 待核对 for the admin, never settled as the new amount', async () => {
    const uid = 1003
    const a = service({ onStep: async (step, e) => void (e.wage_id === wage(uid) && step === 'written' && (await failAndReopen(uid))) })
    const [result] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining('其间这条记录被重新打开为 10.0 魔力') })
    expect(await entry(uid)).toMatchObject({ state: 'in_doubt', amount: 10 })
    const credited = parseTenths(START) + creditTenths(t.month.amounts.get(uid)!)
    expect(await t.site.bonus(uid)).toBe(formatTenths(credited))
  })

  it("a stale attempt's 失败 is not recorded on the entry another run reopened: that run pays it", async () => {
    const uid = 1004
    const a = service({ onStep: async (step, e) => void (e.wage_id === wage(uid) && step === 'begin' && (await failAndReopen(uid))) })
    await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(await entry(uid)).toMatchObject({ state: 'pending', amount: 10 })
    const [paid] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(paid!.status).toBe('paid')
    expect(await t.site.bonus(uid)).toBe(formatTenths(parseTenths(START) + 100n))
  })

  it('an old credit whose attempt died before recording is 待核对 at the next run, never done at the new amount', async () => {
    const uid = 1005
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid)) return
        if (step === 'written') await failAndReopen(uid)
        if (step === 'committed') throw new Error('process died after its commit')
      },
    })
    await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1').catch(() => undefined)
    const credited = parseTenths(START) + creditTenths(t.month.amounts.get(uid)!)
    expect(await t.site.bonus(uid)).toBe(formatTenths(credited))
    // The next run finds the key's credit line: another amount than the entry's now.
    const [next] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(next).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining('这条记录现在是 10.0 魔力') })
    expect(await entry(uid)).toMatchObject({ state: 'in_doubt', amount: 10 })
    expect(await t.site.bonus(uid)).toBe(formatTenths(credited))
  })
})
