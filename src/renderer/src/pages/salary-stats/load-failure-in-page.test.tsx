/**
 * Found by an outside tester (fixed since; the test keeps it so): when 工资统计 could not be read, the page showed
 * 「工资统计加载失败」 with the server's message and 重试 — and the same message also popped as a red toast, again at
 * every background retry (SWR's error retry). 首页 and 数据同步 read silently for exactly this reason; so does 工资统计.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { messages } from '@shared/messages'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { watchToasts } from '@renderer/test/toasts'

let api: FakeApi
const reads = () => api.call.mock.calls.filter(([name]) => name === 'wages.stats').length

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'wages.stats': fail(500, messages.serverError) } })
})

describe('工资统计 that cannot be read', { timeout: 40_000 }, () => {
  it('says so in the page only, without toasting it (again at each retry)', async () => {
    const toasts = watchToasts(messages.serverError)
    renderRoutes(routes, '/salary-stats')
    await screen.findByText('工资统计加载失败', undefined, { timeout: 8000 })
    // The background retry (errorRetryInterval 5 s).
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(2), { timeout: 25_000 })
    await waitFor(() => expect(screen.getAllByText(messages.serverError).length).toBeGreaterThan(0), { timeout: 5000 })
    toasts.stop()
    expect(toasts.count()).toBe(0)
  })
})
