/**
 * Found by an outside tester (fixed since; the test keeps it so): 添加管理员's member list that failed to load said
 * 「没有可添加的保种员」— as if no member could be made an admin — instead of the failure.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { User } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

const admin = (patch: Partial<User>): User => ({
  ...adminUser,
  remark: '',
  createdAt: '2025-01-01T00:00:00+08:00',
  adminSince: '2025-01-01T00:00:00+08:00',
  seedingCount: 0,
  seedingSize: 0,
  assignedCount: 0,
  ...patch,
})

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.pageAdmin': ok({ list: [admin({}), admin({ id: 5, username: 'dora' })], total: 2 }),
      // The member list cannot be read (server error / network down) when the dialog opens.
      'user.pageNormal': fail(500, '服务器内部错误'),
    },
  })
})

describe('管理员 · 添加管理员 picker that failed to load', { timeout: 30_000 }, () => {
  it('does not say there is no member who can be added when the list could not be read', async () => {
    renderRoutes(routes, '/admin-user')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /添加管理员/ }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(inputs('user.pageNormal')).toHaveLength(1))
    const box = within(dialog).getByRole('combobox')
    fireEvent.mouseDown(box)
    await waitFor(() => expect(document.querySelector('.ant-select-dropdown, .ant-select-popup')).toBeTruthy())
    // The read failed: it says so — "没有可添加的保种员" would tell the admin every member is ineligible.
    expect(await screen.findByText('保种员列表加载失败，请关闭后重新打开再试')).toBeTruthy()
    expect(screen.queryByText(/没有可添加的保种员/)).toBeNull()
  })
})
