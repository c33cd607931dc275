/**
 * A member dialog's draft is the server's: the login page lets the admin log in to another server (服务器地址), where
 * the same id (the initial admin is 1 everywhere) is another admin and member ids are other people. A draft keyed by
 * page and admin id alone opened 编辑保种员 · alice (id 2 of server A) on server B, and 保存 wrote server A's site uid
 * and remark into member 2 of server B (utils/formDraft.ts keys drafts by the server address too).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { useSettingsStore } from '@renderer/stores/settings'
import { adminUser, fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import type { User } from '@shared/entities'

const member = (patch: Partial<User> = {}): User => ({
  ...memberUser,
  remark: '',
  createdAt: '2025-01-02T10:00:00+08:00',
  adminSince: null,
  seedingCount: 12,
  seedingSize: 30 * 1024 ** 3,
  assignedCount: 5,
  ...patch,
})
const spaced = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)

let api: FakeApi

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.pageNormal': ok({ list: [member(), member({ id: 3, username: 'bob', status: 0, siteUid: 20001 })], total: 2 }),
    },
  })
})

describe('member drafts and the server logged in to', { timeout: 30_000 }, () => {
  it('an edit draft left on one server does not open (nor save) on another server logged in to after the login ended', async () => {
    await useSettingsStore.getState().load()
    api.handle('user.update', fail(401, '登录已过期，请重新登录'))
    const { router } = renderRoutes(routes, '/normal-user')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    fireEvent.click(within(screen.getByText('alice', { selector: 'a' }).closest('tr')!).getByRole('button', { name: spaced('编辑') }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '服务器甲的备注' } })
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('保存') }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))

    // Another server: its member 2 is carol, not alice.
    api.handle('user.pageNormal', ok({ list: [member({ username: 'carol', siteUid: 30003, remark: '乙服' })], total: 1 }))
    api.handle('user.update', ok(member({ username: 'carol' })))
    api.handle('user.login', ok('token'))
    const address = await screen.findByLabelText('服务器地址')
    fireEvent.change(address, { target: { value: 'http://10.0.0.2:8080/api/v1' } })
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } })
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: '登录' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/normal-user'))
    await waitFor(() => expect(useSettingsStore.getState().serverAddress).toBe('http://10.0.0.2:8080/api/v1'))
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })

    // Fails: 「编辑保种员 · alice」 opens on server B with server A's remark; 保存 would update B's member 2 (carol).
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
