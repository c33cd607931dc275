/**
 * Found by an outside tester (fixed since; the test keeps it so): 发放到站点 opened again after the admin left 工资计算 and came back shows the dry run of the *earlier*
 * opening — members already paid still 「将发放」 with the site bonus as it was before — and offers 「确认发放」 on it
 * while the new dry run is still being read from the site.
 *
 * Each opening is meant to read the dry run afresh (PayoutToSite: "the bonus is read live from the site"), and until
 * it answers the dialog should say it is reading (正在读取站点上的魔力…), not show old figures. The cache key of an
 * opening is its count, which starts again at 1 on every visit of the page, so the second visit's first opening hits
 * the first visit's cached answer.
 *
 * Steps of the admin: 发放到站点（整月） → 确认发放 (alice paid) → 关闭 → another screen → back to 工资计算 →
 * 发放到站点（整月） again. Expected: the spinner, no 确认发放 to click. Actual: the old preview (alice 将发放,
 * 1,200.0 → 1,700.3) with 「确认发放（1 人）」 enabled.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import type { ApiResult } from '@shared/ipc'
import { renderRoutes } from '@renderer/test/render'
import { wageRecord } from '../../salary/fixtures'
import { dryRun, payoutPeriod, payoutResult, previewEntry } from './fixtures'

let api: FakeApi
const period = payoutPeriod

const alice = previewEntry
const preview = dryRun

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'wages.page': ok({ list: [wageRecord({ id: 7, period, username: 'alice' })], total: 1 }),
      'wages.payoutPreview': ok(preview([alice()])),
      'wages.payout': ok({ list: [payoutResult()] }),
    },
  })
})

describe('发放到站点 · a new visit of the page reads the dry run afresh', { timeout: 30_000 }, () => {
  it('does not show (and offer to confirm) the dry run of an earlier visit while the new one is read', async () => {
    const { router } = renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /确认发放（1 人）/ }))
    await screen.findByTestId('payout-results', undefined, { timeout: 8000 })
    // The footer's 关闭 (the other one is the title bar's ×).
    fireEvent.click(screen.getAllByRole('button', { name: '关闭' }).at(-1)!)

    // Another screen, and back (a real visit takes longer than the data cache's 2 s dedupe).
    await router.navigate('/403')
    await screen.findByText('抱歉，你无权访问该页面。')
    await act(() => new Promise((resolve) => setTimeout(resolve, 2100)))
    await router.navigate('/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })

    // The site is slow to answer this time: the new dry run is still on its way.
    let answer: (result: ApiResult<unknown>) => void = () => undefined
    api.handle('wages.payoutPreview', () => new Promise((resolve) => (answer = resolve)))
    const asked = api.call.mock.calls.filter(([name]) => name === 'wages.payoutPreview').length
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    await waitFor(() => expect(api.call.mock.calls.filter(([name]) => name === 'wages.payoutPreview').length).toBe(asked + 1))

    // Until the site answers, the dialog says it is reading — it does not show alice as 将发放 with her old bonus,
    // and there is no 确认发放 to click on those figures.
    const modal = screen.getByTestId('payout-modal')
    expect(modal.textContent).toContain('正在读取站点上的魔力')
    expect(screen.queryByTestId('payout-preview')).toBeNull()
    const confirm = screen.queryByRole('button', { name: /确认发放/ }) as HTMLButtonElement | null
    expect(confirm === null || confirm.disabled).toBe(true)

    act(() => answer(ok(preview([alice({ status: 'already', bonusBefore: '1700.3', bonusAfter: null, note: '已发放过' })]))))
  })
})
