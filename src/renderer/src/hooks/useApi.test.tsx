import { describe, expect, it } from 'vitest'
import { act, screen } from '@testing-library/react'
import { fail, installFakeApi, memberUser, ok } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { useUserStore } from '@renderer/stores/user'
import { useApi } from './useApi'

function Who() {
  const { data, error } = useApi('user.loginInfo', undefined, { silent: true, shouldRetryOnError: false })
  if (error) return <p>失败：{error.msg}</p>
  return <p>{data ? `用户：${data.username}` : '加载中'}</p>
}

describe('useApi', () => {
  it('resolves through the request wrapper', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderWithProviders(<Who />)
    expect(await screen.findByText('用户：alice')).toBeTruthy()
  })

  it('exposes the RequestError of a failed call', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': fail(500, '服务器内部错误，请稍后再试') } })
    renderWithProviders(<Who />)
    expect(await screen.findByText('失败：服务器内部错误，请稍后再试')).toBeTruthy()
  })

  it('asks again in a new session instead of reusing the old answer', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': fail(401, '请先登录') } })
    renderWithProviders(<Who />)
    await screen.findByText('失败：请先登录')

    // Within the 2 s dedupe window: only the new session key makes SWR fetch again.
    api.handle('user.loginInfo', ok(memberUser))
    act(() => useUserStore.getState().endSession())
    expect(await screen.findByText('用户：alice')).toBeTruthy()
    expect(api.call).toHaveBeenCalledTimes(2)
  })
})
