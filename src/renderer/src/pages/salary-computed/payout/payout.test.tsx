import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { PayoutPreviewEntry } from '@shared/payout'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { formatDateTime } from '@renderer/utils/format'
import { wageRecord } from '../../salary/fixtures'
import { payoutPeriod, payoutResult, previewEntry } from './fixtures'

let api: FakeApi
const inputsOf = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)
const period = payoutPeriod

const entry = (over: Partial<PayoutPreviewEntry>) => previewEntry({ amount: 500.26, rounding: '500.26 → 500.3', ...over })
const result = payoutResult

describe('发放到站点', { timeout: 30_000 }, () => {
  beforeEach(() => {
    window.localStorage.clear()
    api = installFakeApi({
      handlers: {
        'user.loginInfo': ok(adminUser),
        'wages.page': ok({
          list: [wageRecord({ id: 7, period, username: 'alice' }), wageRecord({ id: 8, userId: 3, period, username: 'bob' })],
          total: 2,
        }),
        'wages.payoutPreview': ok({
          target: 'nexusphp',
          targetLabel: 'NexusPHP 站点',
          disabledReason: null,
          list: [
            entry({}),
            entry({ wageId: 8, userId: 3, username: 'bob', credit: '20.0', rounding: null, bonusBefore: '5.0', bonusAfter: '25.0' }),
          ],
        }),
        'wages.payout': ok({
          list: [
            result({}),
            result({ wageId: 8, userId: 3, username: 'bob', status: 'in_doubt', reason: '上次发放在写入站点途中中断', logId: 32 }),
          ],
        }),
        'wages.payoutResolve': ok(result({ wageId: 8, userId: 3, username: 'bob', logId: 32 })),
      },
    })
  })

  it('shows the dry run, pays only after the confirmation, lists the results and settles 待核对 by one click', async () => {
    renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    const preview = await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    expect(inputsOf('wages.payoutPreview')).toEqual([{ period }])
    expect(within(preview).getByText('1,200.0 → 1,700.3')).toBeTruthy()
    expect(within(preview).getByText('按一位小数：500.26 → 500.3')).toBeTruthy()
    expect(within(preview).getAllByText(`保种工资 ${period}：500.3 魔力已发放`)).toHaveLength(2)
    expect(inputsOf('wages.payout')).toEqual([])

    fireEvent.click(screen.getByRole('button', { name: /确认发放（2 人）/ }))
    const results = await screen.findByTestId('payout-results', undefined, { timeout: 8000 })
    expect(inputsOf('wages.payout')).toEqual([{ ids: [7, 8] }])
    expect(within(results).getByText('成功')).toBeTruthy()
    expect(within(results).getByText('待核对')).toBeTruthy()
    expect(within(results).getByText('上次发放在写入站点途中中断')).toBeTruthy()

    fireEvent.click(within(results).getByRole('button', { name: '确认已到账' }))
    await screen.findAllByText('确认 bob 的魔力已到账？')
    expect(inputsOf('wages.payoutResolve')).toEqual([])
    // The confirmation's own button (the row's is the first).
    fireEvent.click(screen.getAllByRole('button', { name: '确认已到账' }).at(-1)!)
    await waitFor(() => expect(inputsOf('wages.payoutResolve')).toEqual([{ wageId: 8, action: 'markDone' }]))
    await waitFor(() => expect(within(results).getAllByText('成功')).toHaveLength(2))
  })

  it('paying selected records keeps naming them once the selection is cleared behind the dialog', async () => {
    renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('checkbox', { name: '选择 alice' }))
    fireEvent.click(screen.getByRole('checkbox', { name: '选择 bob' }))
    fireEvent.click(await screen.findByRole('button', { name: /发放到站点（2）/ }))
    await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    expect(inputsOf('wages.payoutPreview')).toEqual([{ ids: [7, 8] }])
    const title = () => screen.getByTestId('payout-modal').closest('.ant-modal')?.querySelector('.ant-modal-title')?.textContent ?? ''
    expect(title()).toContain('选中的 2 条')

    fireEvent.click(screen.getByRole('button', { name: /确认发放（2 人）/ }))
    await screen.findByTestId('payout-results', undefined, { timeout: 8000 })
    // The page cleared its selection after paying…
    await waitFor(() => expect(screen.getByRole('button', { name: /发放到站点（整月）/ })).toBeTruthy())
    // …the result still names what was paid.
    expect(title()).toContain('选中的 2 条')
    expect(title()).not.toContain('整月')
  })

  it('a month with only 待核对 left goes straight to settling, without paying anyone again', async () => {
    api.handle(
      'wages.payoutPreview',
      ok({
        target: 'nexusphp',
        targetLabel: 'NexusPHP 站点',
        disabledReason: null,
        list: [entry({ wageId: 8, userId: 3, username: 'bob', status: 'in_doubt', note: '魔力记录 #32 已写入' })],
      }),
    )
    renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /处理待核对（1 人）/ }))
    const results = await screen.findByTestId('payout-results')
    expect(inputsOf('wages.payout')).toEqual([])
    expect(within(results).getByText('魔力记录 #32 已写入')).toBeTruthy()
    fireEvent.click(within(results).getByRole('button', { name: '补发剩余部分' }))
    await screen.findAllByText('为 bob 补发剩余部分？')
    fireEvent.click(screen.getAllByRole('button', { name: '补发' }).at(-1)!)
    await waitFor(() => expect(inputsOf('wages.payoutResolve')).toEqual([{ wageId: 8, action: 'payRest' }]))
    await waitFor(() => expect(within(results).getByText('成功')).toBeTruthy())
  })

  it('我的工资 says whether and when the wage reached the site', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    api.handle(
      'wages.page',
      ok({
        list: [wageRecord({ id: 100, period: '2025-01', payment: 1, paidAt: '2025-02-03T10:00:00+08:00', paidBy: 'admin' })],
        total: 1,
      }),
    )
    api.handle('wages.payoutStatus', ok([{ wageId: 100, state: 'done', doneAt: '2025-02-03T10:00:00+08:00' }]))
    renderRoutes(routes, '/salary')
    const arrived = await screen.findByText('已到账', undefined, { timeout: 8000 })
    expect(inputsOf('wages.payoutStatus')).toEqual([{ ids: [100] }])
    // When: the month's 发放时间, and on hovering 已到账.
    expect(screen.getAllByText(formatDateTime('2025-02-03T10:00:00+08:00'))).toHaveLength(1)
    fireEvent.mouseEnter(arrived)
    expect(await screen.findByText(`到账时间：${formatDateTime('2025-02-03T10:00:00+08:00')}`)).toBeTruthy()
  })
})
