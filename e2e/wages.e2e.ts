/**
 * The wage flow on the demo community: an admin previews and computes LAST month, pays
 * two members, sees it in 工资统计 and exports the month (xlsx + csv); one of the paid members
 * then sees the record as 已发放 in 我的工资 with its breakdown, and the numbers agree between
 * the preview, the rank and 我的工资. Screenshots 30–33 land in e2e/screenshots/.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, waitForChartStill, waitForMotionEnd, wrappedTexts } from './harness/ui'

const MEMBER_PASSWORD = 'E2e-member-pass-9'
const PERIOD = dayjs().subtract(1, 'month').format('YYYY-MM')

const cellText = async (row: Locator, column: number) => ((await row.locator('td').nth(column).textContent()) ?? '').trim()

/** Confirms the open Modal.confirm with its OK button. */
async function confirmDialog(page: Page, okText: string) {
  const dialog = page.locator('.ant-modal-confirm')
  await dialog.waitFor()
  await dialog.getByRole('button', { name: okText }).click()
  await dialog.waitFor({ state: 'hidden' })
}

describe.skipIf(!browserAvailable())('wages on demo data', () => {
  let server: RunningServer
  let app: OpenApp
  /** Preview's top earner and the second member paid, as shown in the preview table. */
  const paid: { username: string; amount: string }[] = []

  beforeAll(async () => {
    ;({ server, app } = await startSuite({ memberPassword: MEMBER_PASSWORD }))
  })

  afterAll(() => stopSuite(server, app))

  it('previews last month (nothing saved), then computes it after confirmation', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资计算', /#\/salary-computed/)
    await page.getByText(`${PERIOD} 已生成的工资`).waitFor()
    expect(await page.getByLabel('月份').inputValue()).toBe(PERIOD)

    await page.getByRole('button', { name: /预览计算/ }).click()
    const preview = page.getByTestId('wage-preview')
    await preview.getByTestId('preview-rule-version').waitFor({ timeout: 60_000 })
    expect(await preview.getByTestId('preview-rule-version').textContent()).toMatch(/v\d+/)
    expect(server.sql<{ n: number }>('select count(*) as n from wage_records where period = ?', PERIOD)[0]!.n).toBe(0)

    // Sorted by amount, highest first: the two top earners are the members we pay.
    const rows = preview.locator('.ant-table-tbody tr.ant-table-row')
    for (const index of [0, 1]) {
      const row = rows.nth(index)
      paid.push({ username: await cellText(row, 0), amount: (await cellText(row, 1)).replace(/\s*魔力$/, '') })
    }
    expect(paid[0]!.amount).toMatch(/^[\d,]+\.\d{2}$/)
    expect(Number(paid[0]!.amount.replace(/,/g, ''))).toBeGreaterThan(0)
    // Seed hours as the formula uses them: the average per qualified torrent fits in a month (≤ 744 h);
    // the total over all of them reads in days.
    const average = await cellText(rows.first(), 4)
    expect(average).toMatch(/^[\d,.]+ 小时$/)
    expect(Number(average.replace(/[^\d.]/g, ''))).toBeLessThanOrEqual(31 * 24)
    // In days and hours; a whole number of days has no hours (formatDuration: 17,817 天).
    expect(await cellText(rows.first(), 5)).toMatch(/^([\d,]+ 天( \d+ 小时)?|\d+ 小时)$/)

    // A member's breakdown from the preview.
    await rows.first().locator('td').first().click()
    const drawer = page.locator('.ant-drawer-section')
    await drawer.getByText(`${paid[0]!.username} · ${PERIOD} 工资明细`).waitFor({ timeout: 60_000 })
    await drawer.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()
    expect(await drawer.getByTestId('wage-breakdown-summary').textContent()).toContain(paid[0]!.amount)
    await drawer.locator('.ant-drawer-close').click()
    await drawer.waitFor({ state: 'hidden' })

    await page.getByRole('button', { name: /确认生成/ }).click()
    await expect.poll(() => page.locator('.ant-modal-confirm').textContent()).toContain('已发放的记录保持不变')
    // Each figure reads on one line: its label, and its number with the unit (the dialog once cut 人 and 魔力 off).
    await waitForMotionEnd(page)
    expect(await wrappedTexts(page.getByTestId('compute-summary').locator('.ant-statistic-title, .ant-statistic-content'))).toEqual([])
    // The head count and the total, as in the preview, before confirming.
    const previewCount = await preview
      .locator('.ant-statistic', { hasText: '计算人数' })
      .locator('.ant-statistic-content-value')
      .textContent()
    const previewTotal = await preview
      .locator('.ant-statistic', { hasText: '工资总额' })
      .locator('.ant-statistic-content-value')
      .textContent()
    const summary = (await page.getByTestId('compute-summary').textContent()) ?? ''
    expect(summary).toContain(`人数${previewCount}人`)
    expect(summary).toContain(`合计${previewTotal}魔力`)
    await confirmDialog(page, '确认生成')
    await page.getByText(/已生成 [\d,]+ 条工资记录/).waitFor({ timeout: 60_000 })
    expect(server.sql<{ n: number }>('select count(*) as n from wage_records where period = ?', PERIOD)[0]!.n).toBeGreaterThan(0)
  }, 180_000)

  // Each later step starts on a fresh page as the user it needs (harness/session.ts freshStart): a dialog
  // left open by a failed step must not fail the next ones too.
  it('marks two members paid after confirmation and exports the month', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资计算', /#\/salary-computed/)
    // The saved records come highest amount first, like the preview, so both members are on the first page.
    const records = page.locator('.ant-card', { hasText: `${PERIOD} 已生成的工资` }).last()
    const amountHeader = records.getByRole('columnheader', { name: /金额/ })
    await expect.poll(() => amountHeader.getAttribute('aria-sort')).toBe('descending')
    await expect.poll(() => records.locator('.ant-table-tbody tr.ant-table-row').first().textContent()).toContain(paid[0]!.username)
    for (const member of paid) await page.getByLabel(`选择 ${member.username}`).check()
    await page.getByRole('button', { name: /标记已发放（2）/ }).click()
    await confirmDialog(page, '标记已发放')
    await page.getByText('已将 2 条标记为已发放').waitFor()
    for (const member of paid) {
      const row = page
        .locator('.ant-table-tbody tr.ant-table-row', { hasText: member.username })
        .filter({ has: page.getByLabel(`选择 ${member.username}`) })
      await expect.poll(() => row.locator('.ant-tag').first().textContent()).toBe('已发放')
    }
    await page.mouse.move(0, 0)
    await app.screenshot('30-salary-computed')

    await page.getByRole('button', { name: /导出 Excel/ }).click()
    await page.getByText(/已保存 .+\.xlsx/).waitFor()
    await page.getByRole('button', { name: /导出 CSV/ }).click()
    await page.getByText(/已保存 .+\.csv/).waitFor()
    if (app.downloadDir) {
      const files = readdirSync(app.downloadDir)
      const xlsx = files.find((name) => name.endsWith('.xlsx'))
      const csv = files.find((name) => name.endsWith('.csv'))
      expect(xlsx && csv).toBeTruthy()
      expect(statSync(join(app.downloadDir, xlsx!)).size).toBeGreaterThan(1000)
      expect(existsSync(join(app.downloadDir, csv!))).toBe(true)
    }
  })

  it('shows the payment in 工资统计', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资统计', /#\/salary-stats/)
    const row = page.getByTestId('wage-stats-table').locator('.ant-table-tbody tr.ant-table-row', { hasText: PERIOD })
    await row.waitFor()
    const paidTotal = paid.reduce((sum, member) => sum + Number(member.amount.replace(/,/g, '')), 0)
    expect(await cellText(row, 1)).toBe(paidTotal.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }))
    // 领取人数: the two members paid, not every member with a wage.
    const headers = await page.getByTestId('wage-stats-table').locator('thead th').allTextContents()
    expect(await cellText(row, headers.indexOf('领取人数'))).toBe('2')
    expect(Number(await cellText(row, headers.indexOf('有工资人数')))).toBeGreaterThanOrEqual(2)
    await page.getByRole('img', { name: '工资发放情况' }).locator('svg').waitFor()
    await page.getByRole('img', { name: '工资分布' }).locator('svg').waitFor()
    await expect.poll(async () => (await page.getByRole('img', { name: '工资发放情况' }).textContent()) ?? '').toContain('已发放')
    // No toasts from the previous page, and the charts' entry animation done.
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0)
    await waitForChartStill(page.getByRole('img', { name: '工资发放情况' }))
    await waitForChartStill(page.getByRole('img', { name: '工资分布' }))
    await app.screenshot('31-salary-stats')
  })

  it('shows a paid member the record as 已发放 in 我的工资, with the breakdown, agreeing with the rank', async () => {
    const { page } = app
    const member = paid[0]!
    await freshStart(app, server, member.username, MEMBER_PASSWORD)
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0)
    // Members see no admin pages in the menu.
    expect(await page.getByRole('menuitem', { name: /工资计算/ }).count()).toBe(0)
    await openMenu(page, '我的工资', /#\/salary$/)
    const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: PERIOD })
    await row.waitFor()
    expect(await cellText(row, 1)).toBe(`${member.amount} 魔力`)
    expect(await row.locator('.ant-tag').textContent()).toBe('已发放')
    const headers = await page.locator('.ant-table-thead th').allTextContents()
    expect(await cellText(row, headers.indexOf('发放时间'))).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)

    await row.click()
    const drawer = page.locator('.ant-drawer-section')
    await drawer.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()
    const summary = (await drawer.getByTestId('wage-breakdown-summary').textContent()) ?? ''
    expect(summary).toContain(member.amount)
    expect(summary).toContain('已发放')
    expect(summary).toMatch(/规则版本v\d+/)
    expect(summary).toMatch(/平均做种时长[\d,.]+ 小时/)
    expect(summary).toMatch(/累计做种时长([\d,]+ 天( \d+ 小时)?|\d+ 小时)/)
    await app.screenshot('32-salary')
    await drawer.locator('.ant-drawer-close').click()
    await drawer.waitFor({ state: 'hidden' })

    await openMenu(page, '工资排行', /#\/rank/)
    await expect
      .poll(() => page.getByTestId('rank-period').textContent())
      .toBe(`${dayjs().subtract(1, 'month').format('YYYY 年 M 月')}工资排行（最近一次计算的月份）`)
    const first = page.locator('.ant-table-tbody tr.ant-table-row').first()
    // The member's own row, marked 我.
    expect(await cellText(first, 1)).toBe(`${member.username}我`)
    expect(await first.getAttribute('data-testid')).toBe('own-rank-row')
    expect(await cellText(first, 2)).toBe(`${member.amount} 魔力`)
    await first.getByTestId('medal-1').waitFor()
    await app.screenshot('33-rank')
  })
})

describe.runIf(!browserAvailable())('wages (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
