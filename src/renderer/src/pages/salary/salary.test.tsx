import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { declaredTableWidth, TABLE_WIDTH_AT_1280 } from '@renderer/test/layout'
import { renderRoutes } from '@renderer/test/render'
import { formatDateTime } from '@renderer/utils/format'
import { wageDetail, wageRecord } from './fixtures'

let api: FakeApi
const inputsOf = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(memberUser),
      'wages.page': ok({
        list: [
          wageRecord({ seedHours: 447_405, torrentCount: 1562, avgSeedHours: 286.43 }),
          wageRecord({
            id: 100,
            period: '2025-01',
            amount: 88,
            payment: 1,
            paidAt: '2025-02-03T10:00:00+08:00',
            paidBy: 'admin',
            partial: true,
          }),
        ],
        total: 2,
      }),
      'wages.detail': ok(wageDetail()),
    },
  })
})

describe('我的工资', { timeout: 20_000 }, () => {
  it("lists the user's own wage records by month with payment tags", async () => {
    renderRoutes(routes, '/salary')
    expect(await screen.findByText('2025-02', undefined, { timeout: 8000 })).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('我的工资 - 保种管理台'))
    expect(inputsOf('wages.page').at(-1)).toEqual({ page: 1, pageSize: 20, userId: memberUser.id })
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers).toEqual(['月份', '金额', '发放状态', '发放时间', '到账站点', '达标种子数', '达标体积', '平均做种时长'])
    const rows = screen.getAllByRole('row').slice(1)
    expect(rows[0]!.textContent).toContain('1,234.50')
    expect(rows[0]!.textContent).toContain('魔力')
    expect(rows[0]!.textContent).toContain('300.00 GiB')
    // Hours as the formula uses them (the average per qualified torrent): never 447,405 小时.
    expect(rows[0]!.textContent).toContain('286.4 小时')
    expect(rows[0]!.textContent).not.toContain('447,405')
    // An answer without avgSeedHours: seedHours ÷ torrentCount (6,120.5 h over 12 torrents).
    expect(rows[1]!.textContent).toContain('510.0 小时')
    expect(within(rows[0]!).getByText('未发放')).toBeTruthy()
    expect(within(rows[1]!).getByText('已发放')).toBeTruthy()
    expect(rows[1]!.textContent).toContain(formatDateTime('2025-02-03T10:00:00+08:00'))
    // A month counted only from when the console first saw the records says so.
    expect(within(rows[1]!).getByText('部分月份')).toBeTruthy()
    expect(within(rows[0]!).queryByText('部分月份')).toBeNull()
  })

  it('shows whether, when and where a month was paid right after its amount, and fits a 1280 px window', async () => {
    renderRoutes(routes, '/salary')
    await screen.findByText('2025-02', undefined, { timeout: 8000 })
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers.slice(0, 5)).toEqual(['月份', '金额', '发放状态', '发放时间', '到账站点'])
    // Every column in view without scrolling sideways (it scrolled at 1,300 px).
    expect(declaredTableWidth()).toBeLessThanOrEqual(TABLE_WIDTH_AT_1280)
    // When and by whom on hovering a paid month's tag.
    const paidRow = screen.getAllByRole('row').find((row) => row.textContent?.includes('2025-01'))!
    fireEvent.mouseEnter(within(paidRow).getByText('已发放'))
    expect(await screen.findByText(`发放时间：${formatDateTime('2025-02-03T10:00:00+08:00')}`)).toBeTruthy()
    expect(screen.getByText('发放人：admin')).toBeTruthy()
  })

  it('keeps 累计做种时长 (the total, in days) one click away in 列设置', async () => {
    renderRoutes(routes, '/salary')
    await screen.findByText('2025-02', undefined, { timeout: 8000 })
    expect(screen.queryByRole('columnheader', { name: /累计做种时长/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: '列设置' }))
    const settings = await screen.findByTestId('column-settings')
    fireEvent.click(within(settings).getByRole('checkbox', { name: '累计做种时长' }))
    expect(await screen.findByRole('columnheader', { name: /累计做种时长/ })).toBeTruthy()
    expect(screen.getAllByRole('row')[1]!.textContent).toContain('18,641 天 21 小时')
  })

  it('opens the per-torrent breakdown with the reason a torrent did not qualify', async () => {
    renderRoutes(routes, '/salary')
    fireEvent.click(await screen.findByText('2025-02', undefined, { timeout: 8000 }))
    expect(await screen.findByText('做种时长不足 720 小时且上传量不足')).toBeTruthy()
    expect(inputsOf('wages.detail')).toEqual([{ id: 101 }])
    const drawer = screen.getByTestId('wage-breakdown-summary')
    expect(drawer.textContent).toContain('v3')
    expect(screen.getByText('共 2 个种子，其中 1 个达标')).toBeTruthy()
    expect(screen.getAllByLabelText('达标').length).toBe(1)
    expect(screen.getAllByLabelText('未达标').length).toBe(1)
    expect(screen.getByText('Some.Show.S01.1080p')).toBeTruthy()
  })
})
