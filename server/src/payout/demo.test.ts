/**
 * 发放到站点 on the demo source (its simulated site in our own database), through the API, on
 * SQLite and PostgreSQL: dry run, exactly-once payout, 已发放 with paid at/by, concurrency, the
 * member's view and the operation log.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { PayoutPreview, PayoutResult } from '@shared/payout'
import { hashPassword } from '../auth/password'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { wageDb } from '../wages/tables'
import { demoStartingTenths } from './demo-target'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths } from './tenths'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'

describe.each(openTestDatabases())('payout to the demo site on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(AFTER_MONTH) })
  let month: WageMonth
  let admin = ''

  beforeAll(async () => {
    const { database } = t.db
    month = await buildWageMonth(database, { count: 4, operator: { id: 1, username: 'admin' } })
    await database.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(MEMBER_PASSWORD, testScrypt) })
      .where('username', '=', 'keeper000')
      .execute()
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  async function ok<T>(path: string, body: unknown, token = admin): Promise<T> {
    const res = await t.call<T>('POST', path, { token, body })
    expect(res.status, `${path}: ${res.body.msg}`).toBe(200)
    return res.body.data
  }

  it('previews per member the bonus before → after, the log line and the message, writing nothing', async () => {
    const preview = await ok<PayoutPreview>('/wages/payout/preview', { period: PERIOD })
    expect(preview.target).toBe('demo')
    expect(preview.list).toHaveLength(4)
    for (const entry of preview.list) {
      const before = demoStartingTenths(entry.siteUid!)
      const credit = creditTenths(month.amounts.get(entry.siteUid!)!)
      expect(entry.status).toBe('ready')
      expect(entry.bonusBefore).toBe(formatTenths(before))
      expect(entry.bonusAfter).toBe(formatTenths(before + credit))
      expect(entry.logComment).toContain(`保种工资 ${PERIOD}（工资记录 #${entry.wageId}`)
      expect(entry.message).toContain('达标种子 1 个，共 10.00 GiB')
      expect(entry.message).toContain('未达标的种子（1 个，不计工资）')
      expect(entry.message).toMatch(/本月工资排名：第 \d 名（共 4 人）/)
    }
    expect(await t.db.database.db.selectFrom('payout_demo_logs').select('id').execute()).toEqual([])
    expect(await t.db.database.db.selectFrom('payout_ledger').select('id').execute()).toEqual([])
  })

  it('20 concurrent payouts of the month pay each member once and mark the records 已发放', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, () => ok<{ list: PayoutResult[] }>('/wages/payout', { period: PERIOD })))
    const paid = runs.flatMap((r) => r.list.filter((x) => x.status === 'paid'))
    expect(paid).toHaveLength(4)
    expect(runs.flatMap((r) => r.list).every((x) => x.status === 'paid' || x.status === 'already')).toBe(true)
    const { db } = t.db.database
    const logs = await db.selectFrom('payout_demo_logs').selectAll().orderBy('uid').execute()
    expect(logs).toHaveLength(4)
    for (const log of logs) {
      const credit = creditTenths(month.amounts.get(log.uid)!)
      expect(BigInt(log.new_tenths) - BigInt(log.old_tenths)).toBe(credit)
      const bonus = await db.selectFrom('payout_demo_bonus').select('bonus_tenths').where('uid', '=', log.uid).executeTakeFirstOrThrow()
      expect(BigInt(bonus.bonus_tenths)).toBe(demoStartingTenths(log.uid) + credit)
    }
    const records = await wageDb(db).selectFrom('wage_records').select(['payment', 'paid_by_name', 'paid_at']).execute()
    expect(records.every((r) => r.payment === 1 && r.paid_by_name === 'admin' && Number(r.paid_at) === AFTER_MONTH)).toBe(true)
    const ops = await db.selectFrom('operation_log').select(['action', 'detail']).where('action', '=', 'wages.payout').execute()
    expect(ops).toHaveLength(20)
    // Concurrent runs may each pay some members: together the log says 成功 once per member.
    expect(ops.reduce((sum, o) => sum + Number(/成功 (\d+)/.exec(o.detail)?.[1] ?? 0), 0)).toBe(4)
  })

  it('paying the same records again writes nothing and answers 已发放过', async () => {
    const again = await ok<{ list: PayoutResult[] }>('/wages/payout', { ids: [...month.wages.values()] })
    expect(again.list.map((r) => r.status)).toEqual(['already', 'already', 'already', 'already'])
    expect(await t.db.database.db.selectFrom('payout_demo_logs').select('id').execute()).toHaveLength(4)
    const preview = await ok<PayoutPreview>('/wages/payout/preview', { period: PERIOD })
    expect(preview.list.every((e) => e.status === 'already')).toBe(true)
  })

  it('a member sees that and when their wage reached the site, and only theirs', async () => {
    const member = await t.login('keeper000', MEMBER_PASSWORD)
    const own = month.wages.get(1001)!
    const states = await ok<{ wageId: number; state: string; doneAt: string | null }[]>('/wages/payout/status', { ids: [own] }, member)
    expect(states).toEqual([{ wageId: own, state: 'done', doneAt: new Date(AFTER_MONTH).toISOString() }])
    const other = await t.call('POST', '/wages/payout/status', { token: member, body: { ids: [month.wages.get(1002)!] } })
    expect(other.status).toBe(403)
    // No such record: the same 403 — the answer must not tell which ids exist (or were ever paid out).
    const missing = await t.call('POST', '/wages/payout/status', { token: member, body: { ids: [own, 999_999] } })
    expect(missing.status).toBe(403)
    const pay = await t.call('POST', '/wages/payout', { token: member, body: { period: PERIOD } })
    expect(pay.status).toBe(403)
  })

  it('bad input: unknown records, both or neither of ids and period → a Chinese message, nothing written', async () => {
    const unknown = await t.call('POST', '/wages/payout', { token: admin, body: { ids: [999_999] } })
    expect(unknown.status).toBe(404)
    expect(unknown.body.msg).toContain('工资记录不存在')
    const both = await t.call('POST', '/wages/payout', { token: admin, body: { ids: [1], period: PERIOD } })
    expect(both.status).toBe(400)
    expect(both.body.msg).toContain('二者只能选一')
    const resolve = await t.call('POST', '/wages/payout/resolve', {
      token: admin,
      body: { wageId: month.wages.get(1001)!, action: 'markDone' },
    })
    expect(resolve.status).toBe(409)
    expect(resolve.body.msg).toContain('不是待核对')
  })
})
