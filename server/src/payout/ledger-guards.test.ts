/**
 * What keeps a payout's ledger entry and its wage record telling the same story when something else happens to them
 * between two attempts: a record paid by hand after a failed attempt, a recompute of the month, a concurrent attempt
 * that recorded a failure while this one was writing, a member's site uid changed. Paid into a NexusPHP site on
 * MariaDB (NEXUSPHP_TEST_DATABASE_URL); the uid guard through the API on every database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp, type TestDatabase } from '../test/harness'
import { computeAndSave, payWages } from '../wages/engine'
import { wageDb } from '../wages/tables'
import { openEntries, transition } from './ledger'
import { payoutKit } from './testing/kit'
import { openSiteMonth } from './testing/site-month'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, buildWageMonth, PERIOD, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'
import { HAND_PAID, HAND_PAID_WHILE_OPEN } from './wages'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const start = (uid: number) => `${uid}.0`

describe.skipIf(!serverUrl)('a payout ledger entry between two attempts (NexusPHP, InnoDB)', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, entry, closeServices } = payoutKit(() => ({ db, writerUrl, month }))
  const record = (uid: number) =>
    wageDb(db.database.db).selectFrom('wage_records').select(['amount', 'payment']).where('id', '=', wage(uid)).executeTakeFirstOrThrow()
  /** An entry as an attempt that reached nothing (failed) or whose commit was cut (pending) leaves it. */
  const leftBy = async (uid: number, state: 'failed' | 'pending') => {
    await openEntries(
      db.database.db,
      [{ wageId: wage(uid), period: PERIOD, userId: month.users.get(uid)!, siteUid: uid, amount: month.amounts.get(uid)! }],
      { target: 'nexusphp', operator, now: AFTER_MONTH },
    )
    if (state === 'failed')
      expect(await transition(db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
  }

  beforeAll(async () => {
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, 'InnoDB', { count: 8, bonus: start, operator }))
  })
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('a record marked 已发放 by hand after a failed attempt is never paid into the site again', async () => {
    await leftBy(1001, 'failed')
    // The admin credits the member on the site and marks the record 已发放 in the console.
    expect((await payWages(db.database, { ids: [wage(1001)], now: AFTER_MONTH, operator, ip: '127.0.0.1' })).paid).toBe(1)
    const preview = await service().preview({ ids: [wage(1001)] })
    // The dry run shows the member's bonus as it is, no change: nothing will be written.
    expect(preview.list[0]).toMatchObject({ status: 'already', note: HAND_PAID, bonusBefore: start(1001), bonusAfter: null })
    expect(preview.list[0]!.logComment).not.toContain('→')
    const [result] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'already', reason: HAND_PAID })
    expect(await site.bonus(1001)).toBe(start(1001))
    expect(await site.logs(1001)).toEqual([])
  })

  it('a recompute keeps the record of an unfinished payout as it was, and the site is credited what the record says', async () => {
    await leftBy(1002, 'pending')
    const before = await record(1002)
    const { version: _version, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, multiplier: 2 }, AFTER_MONTH - 1_000, null)
    const saved = await computeAndSave(db.database, { period: PERIOD, now: AFTER_MONTH, operator, ip: '127.0.0.1' }, { inProcess: true })
    // 1001 is paid, 1002 is being paid: both kept; the other two doubled.
    expect(saved.keptPaid).toBe(2)
    expect(await record(1002)).toEqual(before)
    expect(Number((await record(1003)).amount)).toBeCloseTo(2 * month.amounts.get(1003)!, 6)
    // The member unlinked from the site meanwhile keeps the record too (it is not deleted with the others').
    await db.database.db.updateTable('users').set({ site_uid: null }).where('id', '=', month.users.get(1002)!).execute()
    await computeAndSave(db.database, { period: PERIOD, now: AFTER_MONTH, operator, ip: '127.0.0.1' }, { inProcess: true })
    expect(await record(1002)).toEqual(before)
    await db.database.db.updateTable('users').set({ site_uid: 1002 }).where('id', '=', month.users.get(1002)!).execute()

    const [result] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'paid', credit: formatTenths(credit(1002)) })
    expect(await site.bonus(1002)).toBe(formatTenths(parseTenths(start(1002)) + credit(1002)))
    expect(await record(1002)).toEqual({ ...before, payment: 1 })
    await saveRules(db.database.db, rules, AFTER_MONTH - 500, null)
    await computeAndSave(db.database, { period: PERIOD, now: AFTER_MONTH, operator, ip: '127.0.0.1' }, { inProcess: true })
    expect(Number((await record(1003)).amount)).toBeCloseTo(month.amounts.get(1003)!, 6)
  })

  it("the dry run shows a failed entry's record at its amount now, which is what paying it will credit", async () => {
    // Opened when the record said 1 point (a compute since changed it); the attempt reached nothing.
    await openEntries(db.database.db, [{ wageId: wage(1003), period: PERIOD, userId: month.users.get(1003)!, siteUid: 1003, amount: 1 }], {
      target: 'nexusphp',
      operator,
      now: AFTER_MONTH,
    })
    expect(await transition(db.database.db, (await entry(1003)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
    const [shown] = (await service().preview({ ids: [wage(1003)] })).list
    expect(shown!.credit).toBe(formatTenths(credit(1003)))
    const [result] = await service().run({ ids: [wage(1003)] }, operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'paid', credit: shown!.credit })
    expect(await site.bonus(1003)).toBe(formatTenths(parseTenths(start(1003)) + credit(1003)))
  })

  it("a console set up afresh or restored from a backup pays a member's month once, whatever record ids it issues", async () => {
    // The other timeline paid 1005 for December as record #N (the same id as this timeline's January record),
    // and paid 1005 for January as record #N+100: the same month under another key.
    const december = `[seeding-console:wage:${wage(1005)}:2025-12]`
    await site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [
      `2026-01-01 - 保种工资 2025-12 +1.0，魔力 1.0 → 2.0 ${december}`,
      1005,
    ])
    await site.conn.query(
      'INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment) VALUES (1000, ?, 1, 1, 2, ?)',
      [1005, `保种工资 2025-12（工资记录 #${wage(1005)}）${december}`],
    )
    const [paid] = await service().run({ ids: [wage(1005)] }, operator, '127.0.0.1')
    expect(paid!.status).toBe('paid')
    expect(await site.bonus(1005)).toBe(formatTenths(parseTenths(start(1005)) + credit(1005)))

    // 1001 was paid for January by the other timeline (record #N+100, before 0.3.0's key) — the same wage, so the same
    // credit; this timeline's entry of its January record failed, and the record is not 已发放 here: the site already has
    // the month. (Another amount is another console's wage: 待核对, two-consoles-one-site.test.ts.)
    await db.database.db.deleteFrom('payout_ledger').where('wage_id', '=', wage(1001)).execute()
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null })
      .where('id', '=', wage(1001))
      .execute()
    const after = formatTenths(parseTenths('1.0') + credit(1001))
    await site.conn.query(
      'INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment) VALUES (1000, ?, 1, ?, ?, ?)',
      [
        1001,
        after,
        after,
        `保种工资 ${PERIOD}（工资记录 #${wage(1001) + 100}，魔力 1.0 → ${after}）[seeding-console:wage:${wage(1001) + 100}]`,
      ],
    )
    const [already] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(already!.status).toBe('already')
    expect(await site.bonus(1001)).toBe(start(1001))
    expect((await record(1001)).payment).toBe(1)
  })

  it('a compute committed while the site was being checked: the entry opens with the record as it is then', async () => {
    const { version: _version, ...rules } = await currentRules(db.database.db)
    const compute = () => computeAndSave(db.database, { period: PERIOD, now: AFTER_MONTH, operator, ip: '127.0.0.1' }, { inProcess: true })
    const payout = service({
      onBegun: async () => {
        await saveRules(db.database.db, { ...rules, multiplier: 2 }, AFTER_MONTH - 1_000, null)
        await compute()
      },
    })
    try {
      const [result] = await payout.run({ ids: [wage(1006)] }, operator, '127.0.0.1')
      const now = await record(1006)
      expect(Number(now.amount)).toBeCloseTo(2 * month.amounts.get(1006)!, 1)
      expect(result).toMatchObject({ status: 'paid', credit: formatTenths(creditTenths(Number(now.amount))) })
      expect(await site.bonus(1006)).toBe(formatTenths(parseTenths(start(1006)) + creditTenths(Number(now.amount))))
      expect(Number((await entry(1006)).amount)).toBe(Number(now.amount))
    } finally {
      await saveRules(db.database.db, rules, AFTER_MONTH - 500, null)
      await compute()
    }
  })

  it('an attempt that wrote the site settles the entry even when a concurrent one recorded a failure meanwhile', async () => {
    // While this attempt writes, another one (its lock wait timed out, its connection failed) records its failure.
    const payout = service({
      onStep: async (step, e) => {
        if (step === 'written' && e.wage_id === wage(1004))
          expect(await transition(db.database.db, e.id, 'pending', 'failed', { reason: '另一个发放连接失败', now: AFTER_MONTH })).toBe(true)
      },
    })
    const [result] = await payout.run({ ids: [wage(1004)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    expect(await entry(1004)).toMatchObject({ state: 'done', reason: null })
    expect((await record(1004)).payment).toBe(1)
    expect(await site.bonus(1004)).toBe(formatTenths(parseTenths(start(1004)) + credit(1004)))
  })

  it('a record whose payout into the site is unfinished or 待核对 cannot be marked 已发放 by hand', async () => {
    // Cut after it may have credited the member (shown 失败 until tried again): paid by hand too, they would have it twice.
    await leftBy(1007, 'pending')
    const pay = () => payWages(db.database, { ids: [wage(1007), wage(1008)], now: AFTER_MONTH, operator, ip: '127.0.0.1' })
    await expect(pay()).rejects.toMatchObject({ code: 409, msg: expect.stringContaining(`#${wage(1007)} 的「发放到站点」尚未完成`) })
    await transition(db.database.db, (await entry(1007)).id, 'pending', 'in_doubt', { reason: '中断', now: AFTER_MONTH })
    await expect(pay()).rejects.toMatchObject({ code: 409 })
    // Nothing of the request was marked, 1008's neither.
    expect((await record(1007)).payment).toBe(0)
    expect((await record(1008)).payment).toBe(0)
    await transition(db.database.db, (await entry(1007)).id, 'in_doubt', 'failed', { now: AFTER_MONTH })
    expect((await pay()).paid).toBe(2)
  })

  it('an unfinished payout an earlier version let be marked 已发放 by hand goes to 待核对, never credited again', async () => {
    await db.database.db.deleteFrom('payout_ledger').where('wage_id', '=', wage(1008)).execute()
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null })
      .where('id', '=', wage(1008))
      .execute()
    await leftBy(1008, 'pending')
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 1, paid_at: AFTER_MONTH })
      .where('id', '=', wage(1008))
      .execute()
    expect((await service().preview({ ids: [wage(1008)] })).list[0]).toMatchObject({ status: 'in_doubt', note: HAND_PAID_WHILE_OPEN })
    const [result] = await service().run({ ids: [wage(1008)] }, operator, '127.0.0.1')
    expect(result).toMatchObject({ status: 'in_doubt', reason: HAND_PAID_WHILE_OPEN })
    expect(await entry(1008)).toMatchObject({ state: 'in_doubt' })
    // Until the admin settles it, a payout shows it as the dry run does: 待核对, not 已发放过.
    const [still] = await service().run({ ids: [wage(1008)] }, operator, '127.0.0.1')
    expect(still).toMatchObject({ status: 'in_doubt', reason: HAND_PAID_WHILE_OPEN })
    await expect(service().resolve(wage(1008), 'payRest', operator, '127.0.0.1')).rejects.toThrow('不能再补发')
    // Nothing of it reached the site: 确认已到账 finds nothing to finish and leaves the hand payment standing.
    const settled = await service().resolve(wage(1008), 'markDone', operator, '127.0.0.1')
    expect(settled.status).toBe('failed')
    const [again] = await service().run({ ids: [wage(1008)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'already', reason: HAND_PAID })
    expect(await site.bonus(1008)).toBe(start(1008))
    expect(await site.logs(1008)).toEqual([])
    expect((await record(1008)).payment).toBe(1)
  })
})

describe.each(openTestDatabases())("a member's site uid while a payout of theirs is unfinished, on $name", (backend) => {
  const ADMIN_PASSWORD = 'Admin-pass-1'
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(AFTER_MONTH) })
  let month: WageMonth
  let admin = ''
  beforeAll(async () => {
    month = await buildWageMonth(t.db.database, { count: 1, operator })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('cannot change while the entry is pending or 待核对, and can once it is settled', async () => {
    const [[uid, wageId]] = [...month.wages]
    const userId = month.users.get(uid!)!
    await openEntries(t.db.database.db, [{ wageId: wageId!, period: PERIOD, userId, siteUid: uid!, amount: month.amounts.get(uid!)! }], {
      target: 'nexusphp',
      operator,
      now: AFTER_MONTH,
    })
    const update = () => t.call('POST', '/user/update', { token: admin, body: { id: userId, siteUid: 4242 } })
    const refused = await update()
    expect(refused.status).toBe(409)
    expect(refused.body.msg).toContain(`该保种员有未完成的站点发放（${PERIOD} 工资记录 #${wageId}）`)
    const row = () => t.db.database.db.selectFrom('users').select('site_uid').where('id', '=', userId).executeTakeFirstOrThrow()
    expect((await row()).site_uid).toBe(uid)
    const id = (await t.db.database.db.selectFrom('payout_ledger').select('id').where('wage_id', '=', wageId!).executeTakeFirstOrThrow()).id
    await transition(t.db.database.db, id, 'pending', 'in_doubt', { reason: '中断', now: AFTER_MONTH })
    expect((await update()).status).toBe(409)
    await transition(t.db.database.db, id, 'in_doubt', 'done', { now: AFTER_MONTH })
    expect((await update()).status).toBe(200)
    expect((await row()).site_uid).toBe(4242)
  })
})
