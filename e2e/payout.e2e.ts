/**
 * 发放到站点 on the demo source: an admin computes last month, opens the dry run of the
 * whole month (bonus before → after, log line, message per member; nothing written), confirms,
 * and gets a result per member; the demo's simulated site then holds one log row per paid member,
 * the records are 已发放, and paying again offers nothing. A paid member sees 已到账 in 我的工资.
 */
import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { buttonIn, openMenu } from './harness/ui'

const MEMBER_PASSWORD = 'E2e-member-pass-9'
const PERIOD = dayjs().subtract(1, 'month').format('YYYY-MM')

describe.skipIf(!browserAvailable())('发放到站点 on demo data', () => {
  let server: RunningServer
  let app: OpenApp
  let paidMember = ''

  beforeAll(async () => {
    ;({ server, app } = await startSuite({ memberPassword: MEMBER_PASSWORD }))
  })

  afterAll(() => stopSuite(server, app))

  it('previews the month, pays it after confirmation and shows each member’s result', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资计算', /#\/salary-computed/)
    await page.getByText(`${PERIOD} 已生成的工资`).waitFor()
    await page.getByRole('button', { name: /预览计算/ }).click()
    await page.getByTestId('wage-preview').getByTestId('preview-rule-version').waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: /确认生成/ }).click()
    const confirm = page.locator('.ant-modal-confirm')
    await buttonIn(confirm, '确认生成').click()
    await page.getByText(/已生成 [\d,]+ 条工资记录/).waitFor({ timeout: 60_000 })
    const toPay = server.sql<{ n: number }>('select count(*) as n from wage_records where period = ? and amount > 0', PERIOD)[0]!.n
    expect(toPay).toBeGreaterThan(0)

    await page.getByRole('button', { name: /发放到站点（整月）/ }).click()
    const preview = page.getByTestId('payout-preview')
    await preview.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 60_000 })
    await page.getByText(`发放到站点 · ${PERIOD} 整月 · 演示站点`).waitFor()
    const first = preview.locator('.ant-table-tbody tr.ant-table-row').first()
    expect(await first.locator('td').nth(2).textContent()).toMatch(/^[\d,]+\.\d → [\d,]+\.\d$/)
    expect(await first.locator('td').nth(3).textContent()).toContain(`保种工资 ${PERIOD}（工资记录 #`)
    // The dry run wrote nothing.
    expect(server.sql<{ n: number }>('select count(*) as n from payout_ledger')[0]!.n).toBe(0)
    await app.screenshot('36-payout-preview')

    await page.getByRole('button', { name: new RegExp(`确认发放（${toPay} 人）`) }).click()
    const results = page.getByTestId('payout-results')
    await results.waitFor({ timeout: 120_000 })
    await expect.poll(() => results.locator('.ant-tag', { hasText: '成功' }).count()).toBe(toPay)
    expect(server.sql<{ n: number }>('select count(*) as n from payout_demo_logs')[0]!.n).toBe(toPay)
    expect(server.sql<{ n: number }>("select count(*) as n from payout_ledger where state = 'done'")[0]!.n).toBe(toPay)
    expect(
      server.sql<{ n: number }>('select count(*) as n from wage_records where period = ? and amount > 0 and payment = 1', PERIOD)[0]!.n,
    ).toBe(toPay)
    expect(server.sql<{ n: number }>("select count(*) as n from operation_log where action = 'wages.payout'")[0]!.n).toBeGreaterThan(0)
    // A member able to log in (demo members include banned and deleted ones) whose wage was paid.
    paidMember = server.sql<{ username: string }>(
      "select u.username from wage_records w join users u on u.id = w.user_id where w.period = ? and w.payment = 1 and u.status = 2 and u.role = 'normal' order by w.amount desc limit 1",
      PERIOD,
    )[0]!.username
    await app.screenshot('37-payout-results')
    const footer = page.locator('.ant-modal-footer')
    await buttonIn(footer, '关闭').click()

    // Again: everything is 已发放过 and nothing can be confirmed.
    await page.getByRole('button', { name: /发放到站点（整月）/ }).click()
    await preview.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 60_000 })
    await expect.poll(() => preview.locator('.ant-tag', { hasText: '已发放过' }).count()).toBe(toPay)
    expect(await footer.getByRole('button', { name: /确认发放/ }).isDisabled()).toBe(true)
    await buttonIn(footer, '取消').click()
    expect(server.sql<{ n: number }>('select count(*) as n from payout_demo_logs')[0]!.n).toBe(toPay)
  }, 300_000)

  it('a paid member sees in 我的工资 that the wage reached the site', async () => {
    const { page } = app
    expect(paidMember).not.toBe('')
    await freshStart(app, server, paidMember, MEMBER_PASSWORD)
    await openMenu(page, '我的工资', /#\/salary$/)
    const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: PERIOD })
    await row.waitFor()
    await row.getByText('已到账').waitFor()
  })
})

describe.runIf(!browserAvailable())('发放到站点 (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
