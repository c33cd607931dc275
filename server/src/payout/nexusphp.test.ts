/**
 * The NexusPHP writer against a MariaDB site built from NexusPHP's table definitions, InnoDB (a
 * migrated install) and MyISAM (v1.6), with a write account holding only README's grants. Runs when
 * NEXUSPHP_TEST_DATABASE_URL is set (mysql://root@127.0.0.1:3306/test).
 */
import type { RowDataPacket } from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutResult } from '@shared/payout'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import type { PayoutService, PayoutServiceOptions } from './service'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite, nearMaxBonus, type SiteEngine } from './testing/nexus-site'
import { creditTenths, formatTenths, parseTenths, wholePoints } from './tenths'
import { ROLE_WORK_SALARY } from './nexusphp-rows'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const MISSING = 1005
const HUGE = 1006
const CUT = 1007
const startBonus = (uid: number) => `${uid * 3}.7`

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('paying into a NexusPHP site (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const services: PayoutService[] = []

  const service = (extra: Partial<PayoutServiceOptions> = {}, url = writerUrl) => {
    const created = nexusphpPayoutService(db, url, { clock: () => AFTER_MONTH, ...extra })
    services.push(created)
    return created
  }
  const wage = (uid: number) => month.wages.get(uid)!
  const credit = (uid: number) => creditTenths(month.amounts.get(uid)!)
  const byUid = (results: PayoutResult[]) => new Map(results.map((r) => [[...month.wages].find(([, id]) => id === r.wageId)![0], r]))

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, engine)
    writerUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 7, operator })
    for (const uid of month.wages.keys()) if (uid !== MISSING) await site.user(uid, uid === HUGE ? nearMaxBonus(engine) : startBonus(uid))
  })
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('shows the rounding, the live bonus before → after, the log line and the message before writing anything', async () => {
    const preview = await service().preview({ period: PERIOD })
    const first = preview.list.find((e) => e.siteUid === 1001)!
    expect(first.bonusBefore).toBe(startBonus(1001))
    expect(first.bonusAfter).toBe(formatTenths(parseTenths(startBonus(1001)) + credit(1001)))
    expect(first.credit).toBe(formatTenths(credit(1001)))
    if (Number(first.credit) !== first.amount) expect(first.rounding).toBe(`${first.amount} → ${first.credit}`)
    expect(first.logComment).toContain(`魔力 ${first.bonusBefore} → ${first.bonusAfter}`)
    expect(preview.list.find((e) => e.siteUid === MISSING)).toMatchObject({
      status: 'blocked',
      note: `站点上找不到该会员（UID ${MISSING}）`,
    })
    expect(await site.logs()).toEqual([])
    expect(await site.messages()).toEqual([])
  })

  it('20 concurrent payouts of the month: each seedbonus rises by exactly the wage, one log row and one message each', async () => {
    const payout = service()
    const runs = await Promise.all(
      Array.from({ length: 20 }, () =>
        payout.run({ ids: [...month.wages.entries()].filter(([uid]) => uid !== CUT).map(([, id]) => id) }, operator, '127.0.0.1'),
      ),
    )
    const paid = runs.flat().filter((r) => r.status === 'paid')
    expect(paid.map((r) => r.wageId).sort()).toEqual([1001, 1002, 1003, 1004].map(wage).sort())
    for (const uid of [1001, 1002, 1003, 1004]) {
      expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(startBonus(uid)) + credit(uid)))
      const logs = await site.logs(uid)
      expect(logs).toHaveLength(1)
      expect(logs[0]).toMatchObject({ business_type: ROLE_WORK_SALARY })
      expect(logs[0]!.comment).toContain(`[seeding-console:wage:${wage(uid)}]`)
      const messages = await site.messages(uid)
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({ sender: 0, subject: `保种工资 ${PERIOD}：${formatTenths(credit(uid))} 魔力已发放` })
      expect(messages[0]!.msg).toContain('未达标的种子（1 个，不计工资）')
    }
    const last = byUid(runs[0]!)
    expect(last.get(MISSING)).toMatchObject({ status: 'failed', reason: `站点上找不到该会员（UID ${MISSING}）` })
    expect(last.get(HUGE)!.status).toBe('failed')
    expect(last.get(HUGE)!.reason).toContain('魔力值超出站点字段的上限')
    expect(await site.bonus(HUGE)).toBe(nearMaxBonus(engine))
    expect(await site.logs(HUGE)).toEqual([])
    const records = await wageDb(db.database.db).selectFrom('wage_records').select(['id', 'payment']).where('payment', '=', 1).execute()
    expect(records.map((r) => r.id).sort()).toEqual([1001, 1002, 1003, 1004].map(wage).sort())
  })

  it('paying the same records again writes nothing', async () => {
    const before = { logs: (await site.logs()).length, messages: (await site.messages()).length, bonus: await site.bonus(1001) }
    const again = await service().run({ ids: [1001, 1002, 1003, 1004].map(wage) }, operator, '127.0.0.1')
    expect(again.map((r) => r.status)).toEqual(['already', 'already', 'already', 'already'])
    expect({ logs: (await site.logs()).length, messages: (await site.messages()).length, bonus: await site.bonus(1001) }).toEqual(before)
  })

  it("logs the bonus as the site's bonus_logs keeps it: exact tenths in NexusPHP's decimal(20,1) (its 2023-06 migration), whole points in v1.6's int", async () => {
    const asStored = (tenths: bigint) => (engine === 'InnoDB' ? formatTenths(tenths) : String(wholePoints(tenths)))
    for (const uid of [1001, 1002, 1003, 1004]) {
      const [log] = await site.logs(uid)
      const before = parseTenths(startBonus(uid))
      expect([log!.old_total_value, log!.value, log!.new_total_value].map(String)).toEqual(
        [before, credit(uid), before + credit(uid)].map(asStored),
      )
    }
  })

  it("dates its rows as NexusPHP does: bonus_logs' TIMESTAMPs hold the site's wall clock as the server's time, messages.added the site's wall clock", async () => {
    // The premise: the database server's own zone is not the site's (+08:00).
    const [[zones]] = await site.conn.query<RowDataPacket[]>(
      "SELECT TIMESTAMPDIFF(MINUTE, CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', @@global.time_zone), CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', '+08:00')) <> 0 AS differs",
    )
    expect(Number(zones!.differs)).toBe(1)
    // Read as NexusPHP reads them: a session in the server's zone (Laravel sets none), against the site's wall clock now.
    const off = (column: string) => `ABS(TIMESTAMPDIFF(MINUTE, ${column}, CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', '+08:00')))`
    const [[log]] = await site.conn.query<RowDataPacket[]>(
      `SELECT ${off('created_at')} AS created, ${off('updated_at')} AS updated FROM bonus_logs WHERE uid = 1001`,
    )
    const [[message]] = await site.conn.query<RowDataPacket[]>(`SELECT ${off('added')} AS added FROM messages WHERE receiver = 1001`)
    const minutesOff = { created: Number(log!.created), updated: Number(log!.updated), added: Number(message!.added) }
    expect(
      Object.values(minutesOff).every((minutes) => minutes < 5),
      JSON.stringify(minutesOff),
    ).toBe(true)
  })

  it('a write account missing a grant stops before anything is written, with the grant named', async () => {
    await site.user(MISSING, startBonus(MISSING))
    const weak = service({}, await site.writer({ without: 'UPDATE (seedbonus)' }))
    const [result] = await weak.run({ ids: [wage(MISSING)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('failed')
    expect(result!.reason).toContain('站点写入账号缺少权限')
    expect(await site.logs(MISSING)).toEqual([])
    expect(await site.bonus(MISSING)).toBe(startBonus(MISSING))
    // With the grant in place the member is paid once.
    const [retry] = await service().run({ ids: [wage(MISSING)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('paid')
    expect(await site.bonus(MISSING)).toBe(formatTenths(parseTenths(startBonus(MISSING)) + credit(MISSING)))
  })

  it('a connection dropped mid-payout loses nothing and never pays twice', async () => {
    const cutAt = engine === 'InnoDB' ? 'written' : 'logged'
    const cutting = service({
      onStep: async (step, entry) => void (step === cutAt && entry.wage_id === wage(CUT) && (await site.killWriters())),
    })
    const [cut] = await cutting.run({ ids: [wage(CUT)] }, operator, '127.0.0.1')
    expect(cut!.status).toBe(engine === 'InnoDB' ? 'failed' : 'in_doubt')
    expect(cut!.reason).toContain('连接中断')
    if (engine === 'InnoDB') {
      // Rolled back by the site: nothing landed; the next payout checks the site and pays once.
      expect(await site.logs(CUT)).toEqual([])
      const [retry] = await service().run({ ids: [wage(CUT)] }, operator, '127.0.0.1')
      expect(retry!.status).toBe('paid')
    } else {
      // The log row landed, the bonus did not: 待核对 with the evidence, never retried by itself.
      const [log] = await site.logs(CUT)
      expect(cut).toMatchObject({ logId: Number(log!.id), bonusBefore: startBonus(CUT) })
      const [again] = await service().run({ ids: [wage(CUT)] }, operator, '127.0.0.1')
      expect(again!.status).toBe('in_doubt')
      expect(await site.bonus(CUT)).toBe(startBonus(CUT))
      const settled = await service().resolve(wage(CUT), 'payRest', operator, '127.0.0.1')
      expect(settled.status).toBe('paid')
      await expect(service().resolve(wage(CUT), 'payRest', operator, '127.0.0.1')).rejects.toThrow('不是待核对')
    }
    expect(await site.bonus(CUT)).toBe(formatTenths(parseTenths(startBonus(CUT)) + credit(CUT)))
    expect(await site.logs(CUT)).toHaveLength(1)
    expect(await site.messages(CUT)).toHaveLength(1)
  })
})
