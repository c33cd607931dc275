import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import dayjs from 'dayjs'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { rankEntry } from '../salary/fixtures'

let api: FakeApi
const inputsOf = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
})

describe('工资排行', { timeout: 20_000 }, () => {
  it("asks for the server's last computed month and says which month it is, with medals for the top 3", async () => {
    api.handle(
      'wages.rank',
      ok({
        list: [1, 2, 3, 4].map((rank) => rankEntry({ rank, userId: rank, username: `member${rank}`, amount: 1000 - rank })),
        total: 4,
      }),
    )
    renderRoutes(routes, '/rank')
    expect(await screen.findByText('member4', undefined, { timeout: 8000 })).toBeTruthy()
    expect(inputsOf('wages.rank')).toEqual([{ page: 1, pageSize: 20 }])
    expect(screen.getByTestId('rank-period').textContent).toBe('2025 年 2 月工资排行（最近一次计算的月份）')
    expect(screen.getByTestId('medal-1')).toBeTruthy()
    expect(screen.getByTestId('medal-3')).toBeTruthy()
    expect(screen.queryByTestId('medal-4')).toBeNull()
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers).toEqual(['排名', '保种员', '金额', '达标种子数', '达标体积'])
    expect(screen.getAllByRole('row')[1]!.textContent).toContain('999.00')
  })

  it('says so when no month has been computed yet', async () => {
    api.handle('wages.rank', ok({ list: [], total: 0 }))
    renderRoutes(routes, '/rank')
    await waitFor(() => expect(screen.getByTestId('rank-period').textContent).toBe('尚未生成任何月份的工资'))
    // A member is told who generates wages, with no button to a page they cannot open.
    expect(screen.getByTestId('rank-empty').textContent).toContain('管理员在「工资计算」中生成后，这里会显示结果')
    expect(screen.queryByRole('button', { name: /前往工资计算/ })).toBeNull()
    // Said once, in the table: no second empty state (暂无数据) under it.
    expect(await screen.findByTestId('rank-empty')).toBeTruthy()
    expect(document.querySelectorAll('.ant-empty')).toHaveLength(1)
  })

  it('before any month was computed, points an admin to 工资计算', async () => {
    api.handle('user.loginInfo', ok(adminUser))
    api.handle('wages.rank', ok({ list: [], total: 0 }))
    const { router } = renderRoutes(routes, '/rank')
    fireEvent.click(await screen.findByRole('button', { name: /前往工资计算/ }, { timeout: 8000 }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/salary-computed'))
  })

  it("marks the user's own row, shows the answered month in the picker, and finds the user on a later page", async () => {
    const everyone = Array.from({ length: 45 }, (_, i) =>
      rankEntry({
        rank: i + 1,
        userId: i === 31 ? memberUser.id : 100 + i,
        username: i === 31 ? memberUser.username : `member${i}`,
        amount: 5000 - i,
      }),
    )
    api.handle('wages.rank', (input) => {
      const { page, pageSize } = input as { page: number; pageSize: number }
      return ok({ list: everyone.slice((page - 1) * pageSize, page * pageSize), total: everyone.length })
    })
    renderRoutes(routes, '/rank')
    expect(await screen.findByText('member0', undefined, { timeout: 8000 })).toBeTruthy()
    // The picker names the month shown rather than a placeholder.
    await waitFor(() => expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe('2025-02'))
    expect(screen.queryByTestId('own-rank-row')).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: /定位到我/ }))
    const own = await screen.findByTestId('own-rank-row')
    expect(own.textContent).toContain(memberUser.username)
    expect(within(own).getByText('我')).toBeTruthy()
    // Every cell is marked, the 排名 cell fixed to the left edge (it paints its own background) too.
    const cells = Array.from(own.querySelectorAll('td'))
    expect(cells).toHaveLength(5)
    for (const cell of cells) expect(cell.style.background).not.toBe('')
    expect(cells[0]!.className).toMatch(/ant-table-cell-fix/)
    // Found by reading the rank in pages of 200, then shown at the table's page size (20): page 2.
    expect(inputsOf('wages.rank')).toContainEqual({ page: 1, pageSize: 200, period: '2025-02' })
    expect(inputsOf('wages.rank').at(-1)).toEqual({ page: 2, pageSize: 20 })
  })

  it('says a chosen month has no wages yet, in the table, rather than 暂无数据', async () => {
    api.handle('wages.rank', (input) =>
      (input as { period?: string }).period === '2025-01'
        ? ok({ list: [], total: 0 })
        : ok({ list: [rankEntry({ rank: 1, period: '2025-02', username: 'top' })], total: 1 }),
    )
    renderRoutes(routes, '/rank')
    await screen.findByText('top')
    const picker = screen.getByLabelText('月份')
    fireEvent.mouseDown(picker)
    fireEvent.click(picker)
    await waitFor(() => expect(document.querySelector('.ant-picker-dropdown td[title="2025-01"]')).toBeTruthy())
    fireEvent.click(document.querySelector('.ant-picker-dropdown td[title="2025-01"]')!)
    await waitFor(() => expect(screen.getByTestId('rank-period').textContent).toBe('该月尚未生成工资'))
    expect(screen.getByTestId('rank-empty').textContent).toContain('该月尚未生成工资')
    expect(screen.getByRole('button', { name: /定位到我/ })).toHaveProperty('disabled', true)
  })

  it('keeps the chosen month when the user goes to another screen and comes back', async () => {
    api.handle('wages.rank', (input) => {
      const period = (input as { period?: string }).period ?? '2025-02'
      return ok({ list: [rankEntry({ rank: 1, period, username: `top of ${period}` })], total: 1 })
    })
    const { router } = renderRoutes(routes, '/rank')
    await waitFor(() => expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe('2025-02'), { timeout: 8000 })
    const picker = screen.getByLabelText('月份')
    fireEvent.mouseDown(picker)
    fireEvent.click(picker)
    await waitFor(() => expect(document.querySelector('.ant-picker-dropdown td[title="2025-01"]')).toBeTruthy())
    fireEvent.click(document.querySelector('.ant-picker-dropdown td[title="2025-01"]')!)
    await screen.findByText('top of 2025-01')

    await router.navigate('/403')
    await screen.findByText('抱歉，你无权访问该页面。')
    await router.navigate('/rank')
    expect(await screen.findByText('top of 2025-01')).toBeTruthy()
    expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe('2025-01')
    expect(screen.getByTestId('rank-period').textContent).toBe('2025 年 1 月工资排行')
  })

  it('offers no future month', async () => {
    api.handle('wages.rank', ok({ list: [rankEntry({ rank: 1, period: dayjs().format('YYYY-MM') })], total: 1 }))
    renderRoutes(routes, '/rank')
    await waitFor(() => expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe(dayjs().format('YYYY-MM')))
    const picker = screen.getByLabelText('月份')
    fireEvent.focus(picker)
    fireEvent.mouseDown(picker)
    fireEvent.click(picker)
    const cellOf = (month: dayjs.Dayjs) =>
      document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${month.format('YYYY-MM')}"]`)
    await waitFor(() => expect(cellOf(dayjs())).toBeTruthy())
    expect(cellOf(dayjs())!.className).not.toContain('ant-picker-cell-disabled')
    expect(cellOf(dayjs().subtract(1, 'month'))?.className ?? '').not.toContain('ant-picker-cell-disabled')
    // In December next month is on next year's panel; otherwise it is on this one, disabled.
    const next = dayjs().add(1, 'month')
    if (next.year() === dayjs().year()) expect(cellOf(next)!.className).toContain('ant-picker-cell-disabled')
  })
})
