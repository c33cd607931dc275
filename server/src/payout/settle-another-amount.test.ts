/**
 * A 待核对 entry whose credit line on the site names another amount than the entry now has: an InnoDB attempt credited
 * the amount it read while the entry was recorded failed and reopened with a recomputed amount (reopened-innodb.test.ts
 * ends there). 补发剩余部分 credits nothing then (the key's line is there): it stays 待核对 and says so — it used to
 * report 成功 with the new amount, the console recording 10.0 paid while the site held the old credit. 确认已到账 is the
 * admin's word that the site holds what the record says (adjusted there by hand): done, the operation log keeping
 * the 待核对 reason it was confirmed over. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import type { RowDataPacket } from 'mysql2/promise'
import { describe, expect, it } from 'vitest'
import { wageDb } from '../wages/tables'
import { openEntries, transition } from './ledger'
import { useSiteMonth } from './testing/site-month'
import { AFTER_MONTH, PERIOD } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const START = '1000.0'

describe.skipIf(!serverUrl)('settling a 待核对 whose site credit is of another amount (NexusPHP, InnoDB)', () => {
  const { t, service, wage, entry } = useSiteMonth(serverUrl, 'InnoDB', { count: 2, bonus: () => START, operator })

  /** As reopened-innodb.test.ts: meanwhile another attempt recorded it failed, a recompute made it 10, a run reopened it. */
  const failAndReopen = async (uid: number) => {
    expect(await transition(t.db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
    await wageDb(t.db.database.db).updateTable('wage_records').set({ amount: 10 }).where('id', '=', wage(uid)).execute()
    const reopened = { wageId: wage(uid), period: PERIOD, userId: t.month.users.get(uid)!, siteUid: uid, amount: 10 }
    await openEntries(t.db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
  }

  const settleAfterReopen = async (uid: number) => {
    const a = service({ onStep: async (step, e) => void (e.wage_id === wage(uid) && step === 'written' && (await failAndReopen(uid))) })
    const [first] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(first).toMatchObject({ status: 'in_doubt' })
    const old = creditTenths(t.month.amounts.get(uid)!)
    expect(old).not.toBe(100n)
    const credited = formatTenths(parseTenths(START) + old)
    expect(await t.site.bonus(uid)).toBe(credited)
    return { old, credited }
  }
  const record = (uid: number) =>
    wageDb(t.db.database.db).selectFrom('wage_records').select('payment').where('id', '=', wage(uid)).executeTakeFirstOrThrow()

  it('补发剩余部分 credits nothing and stays 待核对, saying the site holds the old credit', async () => {
    const { old, credited } = await settleAfterReopen(1001)
    const result = await service().resolve(wage(1001), 'payRest', operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining(`已入账 ${formatTenths(old)} 魔力`) })
    expect(result.reason).toContain('这条记录是 10.0 魔力')
    expect(await entry(1001)).toMatchObject({ state: 'in_doubt', amount: 10 })
    expect(Number((await record(1001)).payment)).toBe(0)
    expect(await t.site.bonus(1001)).toBe(credited)
  })

  it("确认已到账 is the admin's word: done, nothing credited, the log keeping what was confirmed over", async () => {
    const { old, credited } = await settleAfterReopen(1002)
    const result = await service().resolve(wage(1002), 'markDone', operator, '127.0.0.1')
    expect(result.status).toBe('paid')
    expect(await entry(1002)).toMatchObject({ state: 'done', amount: 10 })
    expect(Number((await record(1002)).payment)).toBe(1)
    expect(await t.site.bonus(1002)).toBe(credited)
    const [logs] = await t.site.conn.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM bonus_logs WHERE uid = ?', [1002])
    expect(Number(logs[0]!.n)).toBe(1)
    const detail = await t.db.database.db
      .selectFrom('operation_log')
      .select('detail')
      .where('action', '=', 'wages.payout-resolve')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(detail.detail).toContain(`待核对原因：这次发放按 ${formatTenths(old)} 魔力写入站点`)
    expect(detail.detail).toContain('重新打开为 10.0 魔力')
  })
})
