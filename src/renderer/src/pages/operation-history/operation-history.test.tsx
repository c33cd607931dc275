import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import dayjs from 'dayjs'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { targetText, toFilters } from '.'

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.list': ok([{ id: 1, username: 'admin' }]),
      'operationLog.page': ok({
        list: [
          {
            id: 9,
            at: '2025-03-01T10:00:00+08:00',
            operatorId: 1,
            operatorName: 'admin',
            action: 'user.set-status',
            targetType: 'user',
            targetId: '7',
            detail: '状态：正常 → 封禁',
            ip: '127.0.0.1',
          },
          {
            id: 8,
            at: '2025-03-01T09:00:00+08:00',
            operatorId: 1,
            operatorName: 'admin',
            action: 'task.assign',
            targetType: 'torrent',
            targetId: '11',
            targetName: 'Planet.Earth.II.2016.2160p',
            detail: '分配',
            ip: '127.0.0.1',
          },
          {
            id: 7,
            at: '2025-03-01T08:00:00+08:00',
            operatorId: 1,
            operatorName: 'admin',
            action: 'user.update',
            targetType: 'user',
            targetId: '204',
            targetName: 'alice',
            detail: '备注',
            ip: '127.0.0.1',
          },
        ],
        total: 3,
      }),
    },
  })
})

describe('操作日志', { timeout: 30_000 }, () => {
  it('shows the Chinese action label and filters by operator and action', async () => {
    renderRoutes(routes, '/operation-history')
    await screen.findByText('共 3 条', undefined, { timeout: 8000 })
    const row = screen.getAllByRole('row')[1]!
    expect(within(row).getByText('修改账号状态')).toBeTruthy()
    expect(within(row).getByText('用户 #7')).toBeTruthy()
    expect(within(row).getByText('状态：正常 → 封禁')).toBeTruthy()
    // Named targets: the name in the row, the id in its tooltip.
    expect(within(screen.getAllByRole('row')[2]!).getByText('种子 Planet.Earth.II.2016.2160p')).toBeTruthy()
    const named = within(screen.getAllByRole('row')[3]!).getByTestId('log-target')
    expect(named.textContent).toBe('用户 alice')
    fireEvent.mouseEnter(named)
    expect(await screen.findByText('用户 #204')).toBeTruthy()
    expect(inputs('operationLog.page')[0]).toEqual({ page: 1, pageSize: 20 })

    const form = screen.getByTestId('operation-log-search')
    const selects = form.querySelectorAll('.ant-select')
    fireEvent.mouseDown(selects[0]!)
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="admin"]')).toBeTruthy())
    fireEvent.click(document.querySelector('.ant-select-item-option[title="admin"]')!)
    fireEvent.mouseDown(selects[1]!)
    fireEvent.click(await screen.findByTitle('添加管理员'))
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() =>
      expect(inputs('operationLog.page').at(-1)).toEqual({ page: 1, pageSize: 20, operatorId: 1, action: 'config.add-admin' }),
    )
  })

  it('keeps the filters and the page when the admin goes to another screen and comes back', async () => {
    api.handle('operationLog.page', ok({ list: [], total: 0 }))
    const { router } = renderRoutes(routes, '/operation-history')
    const form = await screen.findByTestId('operation-log-search', undefined, { timeout: 8000 })
    fireEvent.mouseDown(form.querySelectorAll('.ant-select')[1]!)
    fireEvent.click(await screen.findByTitle('添加管理员'))
    const entry = { id: 1, at: '2025-03-01T08:00:00+08:00', operatorId: 1, operatorName: 'admin', action: 'config.add-admin' }
    api.handle('operationLog.page', ok({ list: [{ ...entry, targetType: 'user', targetId: '2', detail: '', ip: '' }], total: 45 }))
    fireEvent.click(within(form).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() => expect(inputs('operationLog.page').at(-1)).toEqual({ page: 1, pageSize: 20, action: 'config.add-admin' }))
    fireEvent.click(await screen.findByTitle('2'))
    await waitFor(() => expect(inputs('operationLog.page').at(-1)).toEqual({ page: 2, pageSize: 20, action: 'config.add-admin' }))

    await router.navigate('/403')
    await screen.findByText('抱歉，你无权访问该页面。')
    const asked = inputs('operationLog.page').length
    await router.navigate('/operation-history')
    await waitFor(() => expect(inputs('operationLog.page').length).toBe(asked + 1))
    expect(inputs('operationLog.page').at(-1)).toEqual({ page: 2, pageSize: 20, action: 'config.add-admin' })
    const back = await screen.findByTestId('operation-log-search')
    expect(within(back).getByTitle('添加管理员')).toBeTruthy()
  })

  it('shows - for an entry without an IP (the server itself, e.g. 创建初始管理员)', async () => {
    api.handle(
      'operationLog.page',
      ok({
        list: [
          {
            id: 1,
            at: '2025-03-01T08:00:00+08:00',
            operatorId: null,
            operatorName: 'system',
            action: 'user.create-initial-admin',
            targetType: 'user',
            targetId: '1',
            targetName: 'admin',
            detail: '首次启动创建管理员 admin',
            ip: '',
          },
        ],
        total: 1,
      }),
    )
    renderRoutes(routes, '/operation-history')
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })
    const cells = within(screen.getAllByRole('row')[1]!).getAllByRole('cell')
    expect(cells.at(-1)!.textContent).toBe('-')
  })

  it('turns the range into ISO times with offset covering whole days', () => {
    const filters = toFilters({ range: [dayjs('2025-03-01T15:00:00'), dayjs('2025-03-02T01:00:00')] })
    expect(dayjs(filters.from as string).format('YYYY-MM-DD HH:mm:ss')).toBe('2025-03-01 00:00:00')
    expect(dayjs(filters.to as string).format('YYYY-MM-DD HH:mm:ss.SSS')).toBe('2025-03-02 23:59:59.999')
    expect(filters.from).toMatch(/[+-]\d{2}:\d{2}$/)
    expect(toFilters({})).toEqual({})
    expect(targetText({ targetType: 'rules', targetId: '3' })).toBe('官种规则 v3')
    expect(targetText({ targetType: 'wage-period', targetId: '2026-10' })).toBe('工资月份 2026-10')
    expect(targetText({ targetType: 'wage-payout', targetId: '2026-10' })).toBe('工资月份 2026-10')
    expect(targetText({ targetType: 'wage-payout', targetId: '42' })).toBe('工资记录 #42')
    expect(targetText({ targetType: 'wage-payout', targetId: null })).toBe('发放到站点')
  })
})
