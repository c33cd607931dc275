/**
 * Found by an outside tester (fixed since; the test keeps it so): 工资排行's caption named a month the table was not showing.
 *
 * The caption (`rank-period`: 「2025 年 N 月工资排行」) and the "no wages" empty state come from `shown`, which the
 * page sets as a side effect inside the table's fetcher (`setShown` in `request`). Every read that came back set it,
 * also a read the member has already left behind: pick 2025-01 (slow to answer), then 2025-03 — the table shows
 * March (SWR only takes the answer of the current key), but January's late answer overwrites the caption. The member
 * then reads 「2025 年 1 月工资排行」 above March's amounts, and the month picker (2025-03) contradicts the caption.
 * The same happens when the chosen month's read fails: the caption keeps naming the previous month.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import type { ApiResult } from '@shared/ipc'
import { routes } from '@renderer/router'
import { fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { rankEntry } from '../salary/fixtures'

let api: FakeApi

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
})

async function pickMonth(month: string) {
  const picker = screen.getByLabelText('月份')
  fireEvent.mouseDown(picker)
  fireEvent.click(picker)
  const cell = () => document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${month}"]`)
  await waitFor(() => expect(cell()).toBeTruthy())
  fireEvent.click(cell()!)
}

const answerOf = (period: string) => ok({ list: [rankEntry({ rank: 1, userId: 100, period, username: `top of ${period}` })], total: 1 })

describe('工资排行 caption follows the month the table shows', { timeout: 30_000 }, () => {
  it('is not overwritten by the late answer of a month the member has already left', async () => {
    let answerJanuary: (result: ApiResult<unknown>) => void = () => undefined
    api.handle('wages.rank', (input) => {
      const period = (input as { period?: string }).period
      if (period === '2025-01') return new Promise<ApiResult<unknown>>((resolve) => (answerJanuary = resolve))
      return answerOf(period ?? '2025-02')
    })
    renderRoutes(routes, '/rank')
    await screen.findByText('top of 2025-02', undefined, { timeout: 8000 })

    await pickMonth('2025-01') // slow to answer
    await pickMonth('2025-03')
    await screen.findByText('top of 2025-03')
    await waitFor(() => expect(screen.getByTestId('rank-period').textContent).toBe('2025 年 3 月工资排行'))

    // January's answer arrives after the member moved on to March.
    await act(async () => answerJanuary(answerOf('2025-01')))
    await new Promise((resolve) => setTimeout(resolve, 50))

    // The table still shows March...
    expect(screen.getByText('top of 2025-03')).toBeTruthy()
    expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe('2025-03')
    // ...and so must the caption (actual: 「2025 年 1 月工资排行」).
    expect(screen.getByTestId('rank-period').textContent).toBe('2025 年 3 月工资排行')
  })

  it('does not keep naming the previous month when the chosen month could not be read', async () => {
    api.handle('wages.rank', (input) => {
      const period = (input as { period?: string }).period
      return period === '2025-01' ? fail(500, '服务器内部错误，请稍后再试') : answerOf(period ?? '2025-02')
    })
    renderRoutes(routes, '/rank')
    await screen.findByText('top of 2025-02', undefined, { timeout: 8000 })
    expect(screen.getByTestId('rank-period').textContent).toBe('2025 年 2 月工资排行（最近一次计算的月份）')

    await pickMonth('2025-01')
    await screen.findByText('加载失败，请点击刷新重试')
    expect((screen.getByLabelText('月份') as HTMLInputElement).value).toBe('2025-01')
    // The table failed for January: a caption saying 「2025 年 2 月工资排行」 above it names a month nobody asked for
    // (no caption at all is right: nothing is known of January).
    expect(screen.queryByTestId('rank-period')?.textContent ?? '').not.toContain('2025 年 2 月')
  })
})
