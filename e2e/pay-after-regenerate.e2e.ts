/**
 * 标记已发放 after another admin generated the month anew: the admin selected a member at the amount on screen and
 * paid that amount by hand; meanwhile the month was generated again under changed rules. Marking then said 已发放
 * for an amount nobody paid. Now the pay carries the amounts shown, the server refuses it (nothing marked) and
 * names the change, and the table shows the month as it is now.
 */
import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Rules } from '@shared/entities'
import { browserAvailable, type OpenApp } from './harness/app'
import { callAsAdmin, postAsAdmin, type RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, poll } from './harness/ui'

const PERIOD = dayjs().subtract(1, 'month').format('YYYY-MM')

describe.skipIf(!browserAvailable())('标记已发放 after the month was generated anew', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
    await postAsAdmin(server, '/wages/compute', { period: PERIOD })
  })

  afterAll(() => stopSuite(server, app))

  it('refuses to mark the old amount paid, says what changed and shows the new amount', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资计算', /#\/salary-computed/)
    const records = page.locator('.ant-card', { hasText: `${PERIOD} 已生成的工资` }).last()
    const top = records.locator('.ant-table-tbody tr.ant-table-row').first()
    await top.waitFor()
    const { username, amount } = server.sql<{ username: string; amount: number }>(
      'select u.username, r.amount from wage_records r join users u on u.id = r.user_id where r.period = ? order by r.amount desc, r.id limit 1',
      PERIOD,
    )[0]!
    await poll(() => top.textContent()).toContain(username)
    await page.getByLabel(`选择 ${username}`).check()

    // Another admin doubles the multiplier and generates the month again.
    const { version, ...rules } = await callAsAdmin<Rules>(server, 'GET', '/config/rules')
    await postAsAdmin(server, '/config/rules', { ...rules, multiplier: rules.multiplier * 2, baseVersion: version })
    await postAsAdmin(server, '/wages/compute', { period: PERIOD })

    await page.getByRole('button', { name: /标记已发放（1）/ }).click()
    const dialog = page.locator('.ant-modal-confirm')
    await dialog.getByRole('button', { name: '标记已发放' }).click()
    await page.getByText(`工资已重新生成，金额有变化：${username} ${PERIOD} ${amount} → `).waitFor()
    await dialog.waitFor({ state: 'hidden' })
    expect(server.sql<{ n: number }>('select count(*) as n from wage_records where period = ? and payment = 1', PERIOD)[0]!.n).toBe(0)
    // The table was read again: the member's row shows the new amount, nothing selected.
    const now = server.sql<{ amount: number }>(
      'select r.amount from wage_records r join users u on u.id = r.user_id where r.period = ? and u.username = ?',
      PERIOD,
      username,
    )[0]!.amount
    expect(now).not.toBe(amount)
    await poll(() => page.getByRole('button', { name: /标记已发放/ }).textContent()).toBe('标记已发放')
  }, 180_000)
})
