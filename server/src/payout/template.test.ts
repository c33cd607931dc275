/**
 * The member's message of a payout comes from the rules' template: saved with the
 * rules through the API, applied by the dry run and by the payout (demo site), refused with a
 * Chinese message when it names a placeholder that does not exist, and back to the Chinese
 * default when the field is removed.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Rules } from '@shared/entities'
import type { PayoutPreview, PayoutResult } from '@shared/payout'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { buildWageMonth, PERIOD, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths } from './tenths'

const ADMIN_PASSWORD = 'Admin-pass-1'
const template = {
  subject: '【保种组】{月份} 工资 {金额}',
  body: '亲爱的 {用户名}：\n{月份} 工资 {金额} 魔力{魔力变化}。\n达标 {达标数} 个（{达标体积}），未达标 {未达标数} 个，排名 {排名}。\n{舍入说明}\n{未达标明细}\n保种组敬上',
}

describe.each(openTestDatabases())('the payout message template of the rules on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(AFTER_MONTH) })
  let month: WageMonth
  let admin = ''

  beforeAll(async () => {
    month = await buildWageMonth(t.db.database, { count: 2, operator: { id: 1, username: 'admin' } })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  const rules = async () => (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
  const save = (body: unknown) => t.call<Rules>('POST', '/config/rules', { token: admin, body })
  const withoutVersion = ({ version: _v, ...body }: Rules) => body

  it('an unknown placeholder or an empty subject is refused in Chinese and no rule version is made', async () => {
    const before = await rules()
    const unknown = await save({
      ...withoutVersion(before),
      payoutMessageTemplate: { subject: '工资', body: '你的工资 {工资金额}，{金额}' },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.msg).toContain('站内信正文：有未知的占位符 {工资金额}')
    expect(unknown.body.msg).toContain('{未达标明细}')
    const empty = await save({ ...withoutVersion(before), payoutMessageTemplate: { subject: '  ', body: '{金额}' } })
    expect(empty.status).toBe(400)
    expect(empty.body.msg).toBe('站内信标题：不能为空')
    expect((await rules()).version).toBe(before.version)
  })

  it('the dry run and the payout write the saved template, each member with their own values and the ledger key', async () => {
    const saved = await save({ ...withoutVersion(await rules()), payoutMessageTemplate: template })
    expect(saved.status).toBe(200)
    expect(saved.body.data.payoutMessageTemplate).toEqual(template)

    const preview = (await t.call<PayoutPreview>('POST', '/wages/payout/preview', { token: admin, body: { period: PERIOD } })).body.data
    for (const entry of preview.list) {
      const credit = formatTenths(creditTenths(month.amounts.get(entry.siteUid!)!))
      expect(entry.subject).toBe(`【保种组】${PERIOD} 工资 ${credit}`)
      const lines = entry.message.split('\n')
      expect(lines[0]).toBe(`亲爱的 ${entry.username}：`)
      expect(lines[1]).toBe(`${PERIOD} 工资 ${credit} 魔力，魔力 ${entry.bonusBefore} → ${entry.bonusAfter}。`)
      expect(lines[2]).toMatch(/^达标 1 个（10\.00 GiB），未达标 1 个，排名 第 \d 名（共 2 人）。$/)
      expect(entry.message).toContain('未达标的种子（1 个，不计工资）：\n- 远山 Official.')
      expect(entry.message).toContain(`保种组敬上\n[seeding-console:wage:${entry.wageId}:${PERIOD}]`)
      // {舍入说明} came out empty or as its note: never an empty line in its place.
      expect(entry.message).not.toContain('\n\n')
    }

    const paid = (
      await t.call<{ list: PayoutResult[] }>('POST', '/wages/payout', { token: admin, body: { ids: [month.wages.get(1001)!] } })
    ).body.data.list
    expect(paid.map((r) => r.status)).toEqual(['paid'])
    const landed = await t.db.database.db
      .selectFrom('payout_demo_logs')
      .select(['subject', 'msg'])
      .where('uid', '=', 1001)
      .executeTakeFirstOrThrow()
    const shown = preview.list.find((e) => e.siteUid === 1001)!
    expect(landed).toEqual({ subject: shown.subject, msg: shown.message })
  })

  it('the webhook delivery log is empty and says the webhook is not the target on the demo source; members may not read it', async () => {
    const log = await t.call<{ webhookConfigured: boolean; list: unknown[] }>('GET', '/wages/payout/deliveries', { token: admin })
    expect(log.status).toBe(200)
    expect(log.body.data).toEqual({ webhookConfigured: false, list: [] })
    expect((await t.call('GET', '/wages/payout/deliveries', {})).status).toBe(401)
  })

  it('without the field the message is the Chinese default again', async () => {
    const { payoutMessageTemplate: _t, ...rest } = withoutVersion(await rules())
    expect((await save(rest)).status).toBe(200)
    const preview = (
      await t.call<PayoutPreview>('POST', '/wages/payout/preview', { token: admin, body: { ids: [month.wages.get(1002)!] } })
    ).body.data
    const [entry] = preview.list
    expect(entry!.subject).toBe(`保种工资 ${PERIOD}：${entry!.credit} 魔力已发放`)
    expect(entry!.message).toMatch(
      new RegExp(`^${entry!.username}，你好：\\n\\n你 ${PERIOD} 的保种工资 ${entry!.credit.replace('.', '\\.')} 魔力已发放到你的账户`),
    )
    expect(entry!.message).toMatch(/本月工资排名：第 \d 名（共 2 人）。/)
    const ops = await t.db.database.db
      .selectFrom('operation_log')
      .select('detail')
      .where('target_type', '=', 'rules')
      .orderBy('id', 'desc')
      .execute()
    expect(ops[0]!.detail).toContain('站内信模板：自定义（标题「【保种组】{月份} 工资 {金额}」） → 默认')
  })
})
