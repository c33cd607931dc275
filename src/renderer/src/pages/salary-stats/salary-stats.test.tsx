import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { WageStats } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { averagesOption, binLabel, distributionOption, totalsOption, type StatsColours } from './chartOptions'

const stats: WageStats = {
  months: [
    { period: '2025-01', paid: 12000, unpaid: 0, members: 10, average: 1200, median: 1100, paidMembers: 10 },
    { period: '2025-02', paid: 8000, unpaid: 4500.5, members: 187, average: 1136.41, median: 1000, paidMembers: 2 },
  ],
  distribution: [
    { from: 0, to: 500, count: 3 },
    { from: 500, to: 1000, count: 5 },
    { from: 1000, to: 1500, count: 3 },
  ],
}
const colours: StatsColours = { paid: '#0BA348', unpaid: 'orange', average: 'blue', median: 'purple', histogram: 'cyan' }

let api: FakeApi
beforeEach(() => {
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'wages.stats': ok(stats) } })
})

describe('工资统计 chart options', () => {
  it('stacks paid and unpaid per month', () => {
    const option = totalsOption(stats.months, colours)
    const series = option.series as { name: string; stack: string; data: number[] }[]
    expect((option.xAxis as { data: string[] }).data).toEqual(['2025-01', '2025-02'])
    expect(series.map((item) => [item.name, item.stack, item.data])).toEqual([
      ['已发放', 'total', [12000, 8000]],
      ['未发放', 'total', [0, 4500.5]],
    ])
  })

  it('draws average and median as lines', () => {
    const series = averagesOption(stats.months, colours).series as { type: string; name: string; data: number[] }[]
    expect(series.map((item) => [item.type, item.name, item.data])).toEqual([
      ['line', '平均工资', [1200, 1136.41]],
      ['line', '中位工资', [1100, 1000]],
    ])
  })

  it('labels histogram bins by their range', () => {
    const option = distributionOption(stats.distribution, colours)
    expect((option.xAxis as { data: string[] }).data).toEqual(['0–500', '500–1,000', '1,000–1,500'])
    expect((option.series as { data: number[] }[])[0]!.data).toEqual([3, 5, 3])
    expect(binLabel({ from: 10000, to: 20000 })).toBe('1万–2万')
  })
})

describe('工资统计 page', { timeout: 20_000 }, () => {
  it('asks for 12 months and shows the charts and the months table, newest first', async () => {
    renderRoutes(routes, '/salary-stats')
    await screen.findByTestId('wage-stats-table', undefined, { timeout: 8000 })
    expect(api.call).toHaveBeenCalledWith('wages.stats', { months: 12 })
    expect(screen.getByRole('img', { name: '工资发放情况' })).toBeTruthy()
    expect(screen.getByRole('img', { name: '平均与中位工资' })).toBeTruthy()
    expect(screen.getByRole('img', { name: '工资分布' })).toBeTruthy()
    expect(screen.getByText('2025-02 工资分布')).toBeTruthy()
    const rows = screen.getByTestId('wage-stats-table').querySelectorAll('tbody tr.ant-table-row')
    expect(rows[0]!.textContent).toContain('2025-02')
    expect(rows[0]!.textContent).toContain('12,500.50')
    expect(rows[1]!.textContent).toContain('2025-01')
  })

  it('counts as 领取人数 the members who were paid, next to those with a wage', async () => {
    renderRoutes(routes, '/salary-stats')
    const table = await screen.findByTestId('wage-stats-table', undefined, { timeout: 8000 })
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
    const cells = [...table.querySelectorAll('tbody tr.ant-table-row')[0]!.querySelectorAll('td')].map((cell) => cell.textContent)
    expect(cells[headers.indexOf('领取人数')]).toBe('2')
    expect(cells[headers.indexOf('有工资人数')]).toBe('187')
  })

  it('before any month was computed, points the admin to 工资计算', async () => {
    api.handle('wages.stats', ok({ months: [], distribution: [] }))
    const { router } = renderRoutes(routes, '/salary-stats')
    await waitFor(() => expect(screen.getByText('尚未生成任何月份的工资，请先在「工资计算」中预览并生成')).toBeTruthy(), { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /前往工资计算/ }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/salary-computed'))
  })
})
