/**
 * Found by an outside tester (fixed since; the test keeps it so): 查询 with the same filters as the last search asked
 * the server nothing, so the log never showed what was
 * logged since.
 *
 * The admin filters 操作日志 by 操作 = 登录 to see who logged in, and a while later presses 查询 again to see the
 * logins since (members log in all day; other admins act too). Nothing is sent: the table's read is keyed by the
 * filters' value, and the same value is "already read" — no request, no spinner, the old rows stay, and the admin
 * concludes nobody has logged in since. A 查询 the admin presses must read the log again (as on first search).
 * (The same holds for the search form of every DataTable page: 保种员, 种子列表, 任务分配, 工资计算.)
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { OperationLog } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

const login = (id: number, name: string, at: string): OperationLog => ({
  id,
  at,
  operatorId: id,
  operatorName: name,
  action: 'user.login',
  targetType: 'user',
  targetId: String(id),
  detail: '登录成功',
  ip: '10.0.0.2',
})

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.list': ok([{ id: 1, username: 'admin' }]),
      'operationLog.page': ok({ list: [login(2, 'alice', '2025-03-01T08:00:00+08:00')], total: 1 }),
    },
  })
})

describe('操作日志 · 查询 again reads the log again', { timeout: 30_000 }, () => {
  it('shows an entry logged since the last 查询 when 查询 is pressed again with the same filters', async () => {
    renderRoutes(routes, '/operation-history')
    const form = await screen.findByTestId('operation-log-search', undefined, { timeout: 8000 })
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })
    fireEvent.mouseDown(form.querySelectorAll('.ant-select')[1]!)
    fireEvent.click(await screen.findByTitle('登录'))
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() => expect(inputs('operationLog.page').at(-1)).toEqual({ page: 1, pageSize: 20, action: 'user.login' }))
    const asked = inputs('operationLog.page').length

    // A while later bob logs in…
    api.handle(
      'operationLog.page',
      ok({ list: [login(3, 'bob', '2025-03-01T09:30:00+08:00'), login(2, 'alice', '2025-03-01T08:00:00+08:00')], total: 2 }),
    )
    await act(() => new Promise((resolve) => setTimeout(resolve, 2100)))
    // …and the admin presses 查询 again to see the logins since.
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))

    await waitFor(() => expect(inputs('operationLog.page').length).toBe(asked + 1), { timeout: 2000 })
    expect(await screen.findByText('共 2 条')).toBeTruthy()
    expect(screen.getByText('bob')).toBeTruthy()
  })
})
