import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import dayjs from 'dayjs'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { declaredTableWidth, TABLE_WIDTH_AT_1280 } from '@renderer/test/layout'
import { renderRoutes } from '@renderer/test/render'
import { formatDateTime } from '@renderer/utils/format'
import { NO_MATCH } from '@renderer/components/DataTable'
import { previewEntry, wageItem, wageRecord } from '../salary/fixtures'
import { lastMonth, monthInProgressNotice } from '.'
import { PREVIEW_MEMBERS_HELP } from './WagePreview'

let api: FakeApi
const inputsOf = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)
const period = lastMonth().format('YYYY-MM')

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'wages.preview': (input) => {
        const { userId } = input as { period: string; userId?: number }
        if (userId)
          return ok({
            ruleVersion: 3,
            list: [
              previewEntry({
                period,
                userId,
                username: 'bob',
                items: [wageItem({ qualified: false, value: 0, reason: '种子体积低于最小体积' })],
              }),
            ],
          })
        return ok({
          ruleVersion: 3,
          list: [
            previewEntry({ period, userId: 2, username: 'alice', amount: 500 }),
            previewEntry({ period, userId: 3, username: 'bob', amount: 0, belowMinimum: true }),
          ],
        })
      },
      'wages.compute': ok({ ruleVersion: 3, saved: 2, keptPaid: 1 }),
      'wages.page': ok({
        list: [
          wageRecord({ id: 7, period, username: 'alice', amount: 500 }),
          wageRecord({ id: 8, userId: 3, period, username: 'bob', amount: 0 }),
        ],
        total: 2,
      }),
      'wages.pay': ok({ paid: 2, alreadyPaid: 0 }),
      'wages.export': (input) => ok({ saved: true, fileName: `工资-${period}.${(input as { format: string }).format}` }),
    },
  })
})

async function openPage() {
  renderRoutes(routes, '/salary-computed')
  await screen.findByText(`${period} 已生成的工资`, undefined, { timeout: 8000 })
  await screen.findByText('alice')
}

describe('工资计算', { timeout: 30_000 }, () => {
  it("defaults to last month and loads that month's saved records", async () => {
    await openPage()
    expect(period).toBe(dayjs().subtract(1, 'month').format('YYYY-MM'))
    expect(inputsOf('wages.page')).toEqual([{ page: 1, pageSize: 20, period, orderBy: 'amount DESC' }])
    expect(inputsOf('wages.preview')).toEqual([])
  })

  it('a month not over yet can be previewed, not generated; a finished month has no notice', async () => {
    const now = dayjs('2026-11-27T10:00:00')
    expect(monthInProgressNotice('2026-11', now)).toMatch(/^2026-11 还没有结束（还剩 4 天）：可以「预览计算」.*月份结束后才能生成工资/)
    expect(monthInProgressNotice('2026-11', dayjs('2026-11-30T23:00:00'))).toContain('还剩 1 天')
    expect(monthInProgressNotice('2026-10', now)).toBeNull()
    await openPage()
    expect(screen.queryByText(/还没有结束/)).toBeNull()
    // This month, typed into the picker.
    const current = dayjs().format('YYYY-MM')
    const picker = screen.getByLabelText('月份')
    fireEvent.mouseDown(picker)
    fireEvent.change(picker, { target: { value: current } })
    fireEvent.keyDown(picker, { key: 'Enter', code: 'Enter' })
    await screen.findByText(`${current} 已生成的工资`)
    expect(screen.getByText(new RegExp(`^${current} 还没有结束`))).toBeTruthy()
    // Previewed, still nothing to generate: the month is not over.
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    await waitFor(() => expect(inputsOf('wages.preview')).toEqual([{ period: current }]))
    await screen.findAllByText('alice', { selector: 'td *, td' })
    expect(screen.getByRole('button', { name: /确认生成/ }).hasAttribute('disabled')).toBe(true)
  })

  it('keeps the chosen month when the admin goes to another screen and comes back', async () => {
    const { router } = renderRoutes(routes, '/salary-computed')
    await screen.findByText(`${period} 已生成的工资`, undefined, { timeout: 8000 })
    // A month on the picker's panel (the year of last month) other than last month.
    const other = (lastMonth().month() > 0 ? lastMonth().subtract(1, 'month') : lastMonth().add(1, 'month')).format('YYYY-MM')
    const picker = screen.getByLabelText('月份')
    fireEvent.mouseDown(picker)
    fireEvent.click(picker)
    await waitFor(() => expect(document.querySelector(`.ant-picker-dropdown td[title="${other}"]`)).toBeTruthy())
    fireEvent.click(document.querySelector(`.ant-picker-dropdown td[title="${other}"]`)!)
    await screen.findByText(`${other} 已生成的工资`)

    await router.navigate('/403')
    await screen.findByText('抱歉，你无权访问该页面。')
    await router.navigate('/salary-computed')
    expect(await screen.findByText(`${other} 已生成的工资`)).toBeTruthy()
    expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe(other)
    await waitFor(() => expect(inputsOf('wages.page').at(-1)).toEqual({ page: 1, pageSize: 20, period: other, orderBy: 'amount DESC' }))
  })

  it('says what to do for a month not generated yet, and that a filter matches nothing', async () => {
    api.handle('wages.page', ok({ list: [], total: 0 }))
    renderRoutes(routes, '/salary-computed')
    const empty = await screen.findByTestId('saved-wages-empty', undefined, { timeout: 8000 })
    expect(empty.querySelector('.ant-empty-description')!.textContent).toBe(
      `${period} 还没有生成工资：先「预览计算」核对每位保种员的工资，再「确认生成」`,
    )

    const form = screen.getByTestId('data-table-search')
    fireEvent.mouseDown(form.querySelector('.ant-select')!)
    fireEvent.click(await screen.findByTitle('已发放'))
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() => expect(inputsOf('wages.page').at(-1)).toMatchObject({ period, payment: 1 }))
    await waitFor(() => expect(screen.queryByTestId('saved-wages-empty')).toBeNull())
    expect(document.querySelector('.ant-table .ant-empty-description')!.textContent).toBe(NO_MATCH)
  })

  it('offers no export and no 发放到站点 for a month with no records, says why on hover, and offers them once generated', async () => {
    api.handle('wages.page', ok({ list: [], total: 0 }))
    renderRoutes(routes, '/salary-computed')
    await screen.findByTestId('saved-wages-empty', undefined, { timeout: 8000 })
    const buttons = () => ['导出 Excel', '导出 CSV', '发放到站点'].map((name) => screen.getByRole('button', { name: new RegExp(name) }))
    await waitFor(() => expect(buttons().map((button) => button.hasAttribute('disabled'))).toEqual([true, true, true]))
    fireEvent.click(buttons()[0]!)
    fireEvent.click(buttons()[2]!)
    expect(inputsOf('wages.export')).toEqual([])
    expect(inputsOf('wages.payoutPreview')).toEqual([])
    fireEvent.mouseEnter(buttons()[0]!.closest('[data-testid="disabled-reason"]')!)
    expect(await screen.findByText(`${period} 还没有生成工资，没有可导出的记录`)).toBeTruthy()
    fireEvent.mouseEnter(buttons()[2]!.closest('[data-testid="disabled-reason"]')!)
    expect(await screen.findByText(`${period} 还没有生成工资，没有可发放的记录`)).toBeTruthy()

    // 预览计算 → 确认生成: the month has records now.
    api.handle('wages.page', ok({ list: [wageRecord({ id: 7, period, username: 'alice', amount: 500 })], total: 1 }))
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    await waitFor(() => expect(screen.getByRole('button', { name: /确认生成/ }).hasAttribute('disabled')).toBe(false))
    fireEvent.click(screen.getByRole('button', { name: /确认生成/ }))
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认生成' }))
    await screen.findByText('alice', { selector: 'td *, td' })
    await waitFor(() => expect(buttons().map((button) => button.hasAttribute('disabled'))).toEqual([false, false, false]))
    expect(screen.queryByTestId('disabled-reason')).toBeNull()
  })

  it('keeps export and 发放到站点 for a month with records when a filter matches none of them', async () => {
    await openPage()
    api.handle('wages.page', ok({ list: [], total: 0 }))
    const form = screen.getByTestId('data-table-search')
    fireEvent.mouseDown(form.querySelector('.ant-select')!)
    fireEvent.click(await screen.findByTitle('已发放'))
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() => expect(inputsOf('wages.page').at(-1)).toMatchObject({ period, payment: 1 }))
    await waitFor(() => expect(screen.queryByText('alice', { selector: 'td *, td' })).toBeNull())
    for (const name of ['导出 Excel', '导出 CSV', '发放到站点'])
      expect(screen.getByRole('button', { name: new RegExp(name) }).hasAttribute('disabled')).toBe(false)
  })

  it('lists the saved records highest amount first, like the preview, and lets the admin sort them', async () => {
    await openPage()
    const records = screen.getByText(`${period} 已生成的工资`).closest('.ant-card') as HTMLElement
    const amountHeader = within(records).getByRole('columnheader', { name: /金额/ })
    expect(amountHeader.getAttribute('aria-sort')).toBe('descending')
    fireEvent.click(amountHeader)
    await waitFor(() => expect(inputsOf('wages.page').at(-1)).toEqual({ page: 1, pageSize: 20, period, orderBy: 'amount ASC' }))
    fireEvent.click(within(records).getByRole('columnheader', { name: /达标种子数/ }))
    await waitFor(() => expect(inputsOf('wages.page').at(-1)).toEqual({ page: 1, pageSize: 20, period, orderBy: 'torrentCount ASC' }))
  })

  it('shows seed hours as the formula uses them: the average per qualified torrent, the total in days', async () => {
    api.handle(
      'wages.preview',
      ok({
        ruleVersion: 3,
        list: [previewEntry({ period, userId: 2, username: 'carol', seedHours: 447_405, torrentCount: 1562, avgSeedHours: 286.43 })],
      }),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    const preview = screen.getByTestId('wage-preview')
    const row = (await within(preview).findByText('carol')).closest('tr')!
    expect(
      within(preview)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['平均做种时长', '累计做种时长']))
    expect(row.textContent).toContain('286.4 小时')
    expect(row.textContent).toContain('18,641 天 21 小时')
    expect(row.textContent).not.toContain('447,405')
    const saved = screen.getByText('alice', { selector: 'td *, td' }).closest('tr')!
    // The fixture's record: 6,120.5 h over 12 torrents; the total is one click away in 列设置.
    expect(saved.textContent).toContain('510.0 小时')
    expect(saved.textContent).not.toContain('255 天 1 小时')
    const records = screen.getByText(`${period} 已生成的工资`).closest('.ant-card') as HTMLElement
    fireEvent.click(within(records).getByRole('button', { name: '列设置' }))
    fireEvent.click(within(await screen.findByTestId('column-settings')).getByRole('checkbox', { name: '累计做种时长' }))
    await waitFor(() => expect(screen.getByText('alice', { selector: 'td *, td' }).closest('tr')!.textContent).toContain('255 天 1 小时'))
  })

  it('fits the saved records into a 1280 px window: 发放时间 and 发放人 on hovering 发放状态, one click away in 列设置', async () => {
    api.handle(
      'wages.page',
      ok({
        list: [
          wageRecord({ id: 7, period, username: 'alice', amount: 500, payment: 1, paidAt: '2025-02-03T10:00:00+08:00', paidBy: 'admin' }),
        ],
        total: 1,
      }),
    )
    await openPage()
    const records = screen.getByText(`${period} 已生成的工资`).closest('.ant-card') as HTMLElement
    // Selection, the member, 金额, 发放状态, the figures and 明细, with no sideways scrolling (it scrolled at 1,432 px).
    expect(declaredTableWidth(records)).toBeLessThanOrEqual(TABLE_WIDTH_AT_1280)
    expect(
      within(records)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['', '保种员', '金额', '发放状态', '达标种子数', '达标体积', '平均做种时长', '明细'])
    fireEvent.mouseEnter(within(records).getByText('已发放'))
    expect(await screen.findByText(`发放时间：${formatDateTime('2025-02-03T10:00:00+08:00')}`)).toBeTruthy()
    expect(screen.getByText('发放人：admin')).toBeTruthy()
    fireEvent.click(within(records).getByRole('button', { name: '列设置' }))
    const settings = await screen.findByTestId('column-settings')
    for (const name of ['发放时间', '发放人']) fireEvent.click(within(settings).getByRole('checkbox', { name }))
    expect(await within(records).findByRole('columnheader', { name: /发放人/ })).toBeTruthy()
    expect(within(records).getByRole('columnheader', { name: /发放时间/ })).toBeTruthy()
  })

  it('writes 平均做种时长 with one decimal on every row, in figures of one width, so the decimals line up', async () => {
    api.handle(
      'wages.preview',
      ok({
        ruleVersion: 3,
        list: [
          previewEntry({ period, userId: 2, username: 'carol', amount: 900, avgSeedHours: 596 }),
          previewEntry({ period, userId: 3, username: 'dave', amount: 800, avgSeedHours: 470.4 }),
        ],
      }),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    const preview = screen.getByTestId('wage-preview')
    await within(preview).findByText('carol')
    const column = within(preview)
      .getAllByRole('columnheader')
      .findIndex((cell) => cell.textContent === '平均做种时长')
    const cells = ['carol', 'dave'].map(
      (name) => within(preview).getByText(name).closest('tr')!.querySelectorAll('td')[column] as HTMLElement,
    )
    expect(cells.map((cell) => cell.textContent)).toEqual(['596.0 小时', '470.4 小时'])
    for (const cell of cells) {
      expect(cell.style.fontVariantNumeric).toBe('tabular-nums')
      expect(cell.style.textAlign).toBe('right')
    }
  })

  it('previews (nothing saved), shows the rule version and below-minimum tags, and opens a member breakdown', async () => {
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    const preview = screen.getByTestId('wage-preview')
    await waitFor(() => expect(within(preview).getByTestId('preview-rule-version').textContent).toContain('v3'))
    expect(inputsOf('wages.preview')).toEqual([{ period }])
    expect(within(preview).getByText('低于最低要求', { selector: '.ant-tag' })).toBeTruthy()
    // Not 保种员: banned members and admins with a site UID are computed too (the dashboard counts neither).
    const members = within(preview).getByTestId('preview-members')
    expect(members.textContent).toBe('计算人数2')
    expect(within(members).getByLabelText(PREVIEW_MEMBERS_HELP)).toBeTruthy()
    expect(PREVIEW_MEMBERS_HELP).toMatch(/已封禁.*管理员/)
    expect(inputsOf('wages.compute')).toEqual([])

    fireEvent.click(within(preview).getByText('bob'))
    expect(await screen.findByText('种子体积低于最小体积')).toBeTruthy()
    expect(inputsOf('wages.preview').at(-1)).toEqual({ period, userId: 3 })
  })

  it('asks before generating, explaining that paid records are kept, then saves', async () => {
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /预览计算/ }))
    await waitFor(() => expect(screen.getByRole('button', { name: /确认生成/ }).hasAttribute('disabled')).toBe(false))
    fireEvent.click(screen.getByRole('button', { name: /确认生成/ }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog.textContent).toContain('已发放')
    expect(dialog.textContent).toContain('保持不变')
    // The head count and the total before anything is saved: alice 500, bob 0.
    const summary = within(dialog).getByTestId('compute-summary')
    expect(summary.textContent).toContain('人数2人')
    expect(summary.textContent).toContain('其中工资大于 01人')
    expect(summary.textContent).toContain('合计500.00魔力')
    expect(inputsOf('wages.compute')).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: '确认生成' }))
    await waitFor(() => expect(inputsOf('wages.compute')).toEqual([{ period }]))
    expect(await screen.findByText(/已生成 2 条工资记录.*1 条已发放（或正在发放到站点）的记录保持不变/)).toBeTruthy()
    await waitFor(() => expect(inputsOf('wages.page').length).toBe(2))
  })

  it('marks selected records paid only after confirmation', async () => {
    await openPage()
    const payButton = () => screen.getByRole('button', { name: /标记已发放/ })
    expect(payButton().hasAttribute('disabled')).toBe(true)
    fireEvent.click(screen.getByLabelText('选择 alice'))
    fireEvent.click(screen.getByLabelText('选择 bob'))
    await waitFor(() => expect(payButton().hasAttribute('disabled')).toBe(false))
    fireEvent.click(payButton())
    const dialog = await screen.findByRole('dialog')
    expect(dialog.textContent).toContain('2 条工资标记为已发放')
    expect(inputsOf('wages.pay')).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: '标记已发放' }))
    // With the amounts shown: the server refuses the pay if the month was generated anew since.
    await waitFor(() => expect(inputsOf('wages.pay')).toEqual([{ ids: [7, 8], amounts: [500, 0] }]))
    expect(await screen.findByText('已将 2 条标记为已发放')).toBeTruthy()
  })

  it('does not pay when the confirmation is cancelled', async () => {
    await openPage()
    fireEvent.click(screen.getByLabelText('选择 alice'))
    fireEvent.click(screen.getByRole('button', { name: /标记已发放/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(inputsOf('wages.pay')).toEqual([])
    expect(screen.queryByText(/已将 \d+ 条标记为已发放/)).toBeNull()
  })

  it('exports the month as xlsx and csv and names the saved file', async () => {
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /导出 Excel/ }))
    expect(await screen.findByText(`已保存 工资-${period}.xlsx`)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /导出 CSV/ }))
    expect(await screen.findByText(`已保存 工资-${period}.csv`)).toBeTruthy()
    expect(inputsOf('wages.export')).toEqual([
      { period, format: 'xlsx' },
      { period, format: 'csv' },
    ])
  })
})
