/**
 * 发放到站点 end to end through the HTTP API against a MariaDB NexusPHP site (InnoDB and MyISAM),
 * as an admin does it: the month computed (POST /wages/compute), the dry run, the payout, the site's
 * rows checked, the records 已发放, the operation log, the member's view, and paying again writing
 * nothing. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WageRecord } from '@shared/entities'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import type { PayoutPreview, PayoutResult } from '@shared/payout'
import { hashPassword } from '../auth/password'
import { buildTestApp, openTestDatabases, testClock, testScrypt, type TestDatabase } from '../test/harness'
import { ROLE_WORK_SALARY } from './nexusphp-rows'
import { NexusSite, type SiteEngine } from './testing/nexus-site'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'
const startBonus = (uid: number) => `${uid}.3`

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('发放到站点 through the API into a NexusPHP site (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let app: FastifyInstance
  let month: WageMonth
  let admin = ''

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    token = admin,
  ): Promise<{ status: number; msg: string; data: T }> {
    const res = await app.inject({
      method,
      url: API_PREFIX + path,
      headers: { [TOKEN_HEADER]: token },
      payload: body as object | undefined,
    })
    const json = res.json() as { msg: string; data: T }
    return { status: res.statusCode, msg: json.msg, data: json.data }
  }
  async function ok<T>(path: string, body: unknown, token = admin): Promise<T> {
    const res = await call<T>('POST', path, body, token)
    expect(res.status, `${path}: ${res.msg}`).toBe(200)
    return res.data
  }
  const login = async (username: string, password: string) => ok<string>('/user/login', { username, password }, '')

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, engine)
    const writeDatabaseUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    app = await buildTestApp({
      database: db.database,
      config: { ...db.config, payout: { writeDatabaseUrl, webhookUrl: undefined, webhookSecret: undefined } },
      adminPassword: ADMIN_PASSWORD,
      clock: testClock(AFTER_MONTH),
    })
    month = await buildWageMonth(db.database, { count: 3, operator: { id: 1, username: 'admin' }, compute: false })
    for (const uid of month.users.keys()) await site.user(uid, startBonus(uid))
    await db.database.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(MEMBER_PASSWORD, testScrypt) })
      .where('username', '=', 'keeper000')
      .execute()
    admin = await login('admin', ADMIN_PASSWORD)
  })
  afterAll(async () => {
    await app?.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('computes the month, previews, pays each member once into the site and marks the records 已发放', async () => {
    const computed = await ok<{ saved: number }>('/wages/compute', { period: PERIOD })
    expect(computed.saved).toBe(3)
    const records = (await ok<{ list: WageRecord[] }>('/wages/page', { page: 1, pageSize: 50, period: PERIOD })).list
    expect(records).toHaveLength(3)
    const uidOf = new Map([...month.users].map(([uid, userId]) => [userId, uid]))

    // The dry run: the live bonus before → after, the log line and the message; nothing written.
    const preview = await ok<PayoutPreview>('/wages/payout/preview', { period: PERIOD })
    expect(preview.target).toBe('nexusphp')
    expect(preview.list).toHaveLength(3)
    for (const entry of preview.list) {
      const record = records.find((r) => r.id === entry.wageId)!
      const uid = uidOf.get(record.userId)!
      expect(entry).toMatchObject({
        status: 'ready',
        siteUid: uid,
        bonusBefore: startBonus(uid),
        credit: formatTenths(creditTenths(record.amount)),
      })
      expect(entry.bonusAfter).toBe(formatTenths(parseTenths(startBonus(uid)) + creditTenths(record.amount)))
      expect(entry.message).toContain(
        `你 ${PERIOD} 的保种工资 ${entry.credit} 魔力已发放到你的账户，魔力 ${entry.bonusBefore} → ${entry.bonusAfter}。`,
      )
    }
    expect(await site.logs()).toEqual([])
    expect(await site.messages()).toEqual([])

    // The payout: every member 成功, the site's rows exactly what the dry run showed.
    const paid = (await ok<{ list: PayoutResult[] }>('/wages/payout', { period: PERIOD })).list
    expect(paid.map((r) => r.status)).toEqual(['paid', 'paid', 'paid'])
    for (const entry of preview.list) {
      const uid = entry.siteUid!
      expect(await site.bonus(uid)).toBe(entry.bonusAfter)
      const logs = await site.logs(uid)
      expect(logs).toHaveLength(1)
      expect(logs[0]).toMatchObject({ business_type: ROLE_WORK_SALARY, uid, comment: entry.logComment })
      const messages = await site.messages(uid)
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({ sender: 0, receiver: uid, subject: entry.subject, msg: entry.message, unread: 'yes' })
      expect(paid.find((r) => r.wageId === entry.wageId)).toMatchObject({
        bonusBefore: entry.bonusBefore,
        bonusAfter: entry.bonusAfter,
        logId: Number(logs[0]!.id),
        messageId: Number(messages[0]!.id),
      })
    }
    const after = (await ok<{ list: WageRecord[] }>('/wages/page', { page: 1, pageSize: 50, period: PERIOD })).list
    expect(after.every((r) => r.payment === 1 && r.paidBy === 'admin' && r.paidAt === new Date(AFTER_MONTH).toISOString())).toBe(true)
    const ops = await ok<{ list: { action: string; detail: string }[] }>('/operation-log/page', { page: 1, pageSize: 50 })
    expect(ops.list.find((o) => o.action === 'wages.payout')!.detail).toContain('成功 3')
  })

  it('the member sees their wage reached the site; paying again writes nothing', async () => {
    const member = await login('keeper000', MEMBER_PASSWORD)
    const own = (await ok<{ list: WageRecord[] }>('/wages/page', { page: 1, pageSize: 50, period: PERIOD }, member)).list
    expect(own).toHaveLength(1)
    const states = await ok<{ wageId: number; state: string; doneAt: string }[]>('/wages/payout/status', { ids: [own[0]!.id] }, member)
    expect(states).toEqual([{ wageId: own[0]!.id, state: 'done', doneAt: new Date(AFTER_MONTH).toISOString() }])

    const before = {
      logs: await site.logs(),
      messages: await site.messages(),
      bonus: await Promise.all([...month.users.keys()].map((uid) => site.bonus(uid))),
    }
    const again = (await ok<{ list: PayoutResult[] }>('/wages/payout', { period: PERIOD })).list
    expect(again.map((r) => r.status)).toEqual(['already', 'already', 'already'])
    expect({
      logs: await site.logs(),
      messages: await site.messages(),
      bonus: await Promise.all([...month.users.keys()].map((uid) => site.bonus(uid))),
    }).toEqual(before)
  })
})
