/**
 * Found by an outside tester (fixed since; the test keeps it so).
 * 定位到我 when the rank read fails (server error, network down): the page must not tell the member
 * "你不在该月的工资排行中" — that is a false statement about their wage, while the real reason is a failed
 * read (already toasted as the server's message). findRankPosition mapped a failed page to `null`, the same
 * value as "not in the rank"; it throws RankReadFailed now.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { routes } from '@renderer/router'
import { fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { watchToasts } from '@renderer/test/toasts'
import { rankEntry } from '../salary/fixtures'

let api: FakeApi

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
})

describe('工资排行 定位到我 after a failed read', { timeout: 20_000 }, () => {
  it('does not claim the member is absent from the rank when the rank could not be read', async () => {
    // The table's own page (pageSize 20) loads; the search for the member (pageSize 200) fails on the server.
    api.handle('wages.rank', (input) => {
      const { pageSize } = input as { pageSize: number }
      if (pageSize === 200) return fail(500, '服务器内部错误')
      return ok({
        list: [rankEntry({ rank: 1, userId: 100, username: 'top', period: '2025-02' })],
        total: 40,
      })
    })
    const notInRank = watchToasts('你不在该月的工资排行中')
    const serverError = watchToasts('服务器内部错误')
    renderRoutes(routes, '/rank')
    expect(await screen.findByText('top', undefined, { timeout: 8000 })).toBeTruthy()
    const button = screen.getByRole('button', { name: /定位到我/ })
    await waitFor(() => expect(button).toHaveProperty('disabled', false))

    fireEvent.click(button)
    // The failure itself is reported (request() toasts the server's msg)…
    await waitFor(() => expect(serverError.count()).toBeGreaterThan(0))
    await waitFor(() => expect(screen.getByRole('button', { name: /定位到我/ })).toHaveProperty('disabled', false))
    await new Promise((resolve) => setTimeout(resolve, 300))
    // …and the member is NOT told they are missing from the rank: nothing says so, the read failed.
    expect(notInRank.count()).toBe(0)
    notInRank.stop()
    serverError.stop()
  })
})
