/**
 * Found by an outside tester (fixed since; the test keeps it so): while a list's server answers 500 (its database down,
 * say), the table reads the page again every 5 s — and each read popped the same red toast 「服务器内部错误，请稍后再试」
 * again, stacking over whatever the user did, while the table already said 加载失败，请点击刷新重试 in place. The
 * request wrapper kept only 「无法连接服务器」 to one toast per 30 s (services/request UNREACHABLE_QUIET_MS); a server
 * error (5xx) is now said once per 30 s too. A refusal of what the user sent (4xx) is always said.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { messages } from '@shared/messages'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { watchToasts } from '@renderer/test/toasts'

let api: FakeApi
const reads = () => api.call.mock.calls.filter(([name]) => name === 'operationLog.page').length

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.list': ok([]),
      'operationLog.page': fail(500, messages.serverError),
    },
  })
})

describe('a list whose server keeps answering 500', { timeout: 40_000 }, () => {
  it('toasts the error once, not again on every automatic re-read', async () => {
    const toasts = watchToasts(messages.serverError)

    renderRoutes(routes, '/operation-history')
    await screen.findByText('加载失败，请点击刷新重试', undefined, { timeout: 8000 })
    // The table reads the page again by itself (every 5 s) — twice more here, nobody clicking anything.
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(3), { timeout: 25_000 })
    await waitFor(() => expect(screen.getAllByText(messages.serverError).length).toBeGreaterThan(0), { timeout: 3000 })
    toasts.stop()
    expect(toasts.count()).toBe(1)
  })
})
