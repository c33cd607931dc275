import { beforeEach, describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { routes } from '@renderer/router'
import { installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
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
    expect(screen.getByTestId('rank-period').textContent).toBe('2025-02 月工资排行（最近一次计算的月份）')
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
  })
})
