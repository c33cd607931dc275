/**
 * Found by an outside tester (fixed since; the test keeps it so): 发放到站点's confirmation button counts members the dry run itself marks 「无法发放」.
 *
 * The dry run lists alice (将发放) and bob (无法发放: no site UID). The admin is asked to 「确认发放（2 人）」, as if
 * two members would be paid — but bob cannot be paid, and comes back 失败. The count on the button the admin
 * confirms with must be the members who will really be paid: 1.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import type { PayoutPreviewEntry } from '@shared/payout'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { wageRecord } from '../../salary/fixtures'
import { dryRun, payoutPeriod, previewEntry } from './fixtures'

const period = payoutPeriod

const entry = previewEntry
const bobBlocked = entry({
  wageId: 8,
  userId: 3,
  username: 'bob',
  siteUid: null,
  credit: '20.0',
  bonusBefore: null,
  bonusAfter: null,
  status: 'blocked',
  note: '该保种员没有绑定站点 UID',
})

const previewOf = (list: PayoutPreviewEntry[]) => ok(dryRun(list))

describe('发放到站点 · the confirmation counts only members who can be paid', { timeout: 30_000 }, () => {
  beforeEach(() => {
    window.localStorage.clear()
    installFakeApi({
      handlers: {
        'user.loginInfo': ok(adminUser),
        'wages.page': ok({
          list: [wageRecord({ id: 7, period, username: 'alice' }), wageRecord({ id: 8, userId: 3, period, username: 'bob' })],
          total: 2,
        }),
        'wages.payoutPreview': previewOf([entry({}), bobBlocked]),
      },
    })
  })

  it('one 将发放 and one 无法发放: the button says 1 人, not 2', async () => {
    renderRoutes(routes, '/salary-computed')
    await screen.findByText('alice', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /发放到站点（整月）/ }))
    await screen.findByTestId('payout-preview', undefined, { timeout: 8000 })
    // The dry run itself says bob cannot be paid…
    expect(screen.getByText('无法发放')).toBeTruthy()
    // …so the admin confirms paying one member, not two.
    const confirm = screen.getByRole('button', { name: /确认发放/ })
    expect(confirm.textContent?.replace(/\s/g, '')).toBe('确认发放（1人）')
  })
})
