import { beforeEach, describe, expect, it, vi } from 'vitest'
import { bindMessageApi } from '@renderer/utils/feedback'
import { fail, installFakeApi, memberUser, ok } from '@renderer/test/fakeApi'
import { login, loginInfo, logout, userOptions } from './user'

const toast = { error: vi.fn() }

beforeEach(() => {
  toast.error.mockReset()
  bindMessageApi(toast as never)
})

describe('user services', () => {
  it('call their endpoints with their inputs', async () => {
    const api = installFakeApi({ handlers: { 'user.login': ok('token'), 'user.logout': ok(null), 'user.loginInfo': ok(memberUser) } })
    await login({ username: 'alice', password: 'secret' })
    await logout()
    await expect(loginInfo()).resolves.toEqual(memberUser)
    expect(api.call.mock.calls).toEqual([
      ['user.login', { username: 'alice', password: 'secret' }],
      ['user.logout', undefined],
      ['user.loginInfo', undefined],
    ])
  })

  it('userOptions resolves to the list, or [] on failure', async () => {
    const api = installFakeApi({ handlers: { 'user.list': ok([{ id: 1, username: 'admin' }]) } })
    await expect(userOptions()).resolves.toEqual([{ id: 1, username: 'admin' }])
    api.handle('user.list', fail(403, '无权限'))
    await expect(userOptions()).resolves.toEqual([])
    expect(toast.error).toHaveBeenCalledWith('无权限')
  })
})
