/**
 * Found by an outside tester (fixed since; the test keeps it so): 发放到站点 wrote 到站魔力 — the very amount being
 * paid — without thousands separators (`12345.6`), in both the dry run and the result, while the bonus column beside it
 * read `1,200.0 → 13,545.6` and the month's table behind `12,345.60`. It is grouped like every other amount now.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import type { PayoutPreviewEntry, PayoutResult } from '@shared/payout'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { wageRecord } from '../../salary/fixtures'
import { lastMonth } from '..'

const period = lastMonth().format('YYYY-MM')

const entry: PayoutPreviewEntry = {
  wageId: 7,
  userId: 2,
  username: 'alice',
  period,
  siteUid: 1001,
  amount: 12345.6,
  credit: '12345.6',
  rounding: null,
  bonusBefore: '1200.0',
  bonusAfter: '13545.6',
  logComment: `保种工资 ${period}（工资记录 #7）[seeding-console:wage:7]`,
  subject: `保种工资 ${period}：12345.6 魔力已发放`,
  message: 'alice，你好：',
  status: 'ready',
  note: null,
}
const result: PayoutResult = {
  wageId: 7,
  userId: 2,
  username: 'alice',
  status: 'paid',
  reason: null,
  credit: '12345.6',
  bonusBefore: '1200.0',
  bonusAfter: '13545.6',
  logId: 31,
  messageId: 41,
}

beforeEach(() => {
  window.localStorage.clear()
  installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'wages.page': ok({ list: [wageRecord({ id: 7, period, username: 'alice', amount: 12345.6 })], total: 1 }),
      'wages.payoutPreview': ok({ target: 'nexusphp', targetLabel: 'NexusPHP 站点', disabledReason: null, list: [entry] }),
      'wages.payout': ok({ list: [result] }),
    },
  })
})

describe('发放到站点 amounts', { timeout: 30_000 }, () => {
  it('writes 到站魔力 with thousands separators in the dry run and in the result', async () => {
    renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    const preview = await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    // The bonus beside it is grouped …
    expect(within(preview).getByText('1,200.0 → 13,545.6')).toBeTruthy()
    // … the amount paid is not.
    expect(within(preview).queryByText('12,345.6')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: /确认发放（1 人）/ }))
    const results = await screen.findByTestId('payout-results', undefined, { timeout: 8000 })
    expect(within(results).queryByText('12,345.6')).toBeTruthy()
  })
})
