import { describe, expect, it } from 'vitest'
import { act, fireEvent, screen } from '@testing-library/react'
import { fail, installFakeApi, memberUser, ok } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { useUserStore } from '@renderer/stores/user'
import { request } from '@renderer/services/request'
import { useApi, useAskedLoad } from './useApi'

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

function Asked() {
  const asked = useAskedLoad('test.asked', (days: number) => request('statistics.user', { days }))
  return (
    <>
      <button onClick={() => asked.ask(7)}>预览</button>
      <p>{asked.loading ? '计算中' : asked.data ? `天数：${asked.asked}` : '未预览'}</p>
    </>
  )
}

describe('useAskedLoad', () => {
  it('reads nothing until asked, then reads afresh on every ask', async () => {
    const api = installFakeApi({ handlers: { 'statistics.user': ok({}) } })
    renderWithProviders(<Asked />)
    expect(screen.getByText('未预览')).toBeTruthy()
    expect(api.call).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: '预览' }))
    expect(await screen.findByText('天数：7')).toBeTruthy()
    // The same args again, within SWR's dedupe window: still a new read.
    fireEvent.click(screen.getByRole('button', { name: '预览' }))
    await screen.findByText('计算中')
    expect(await screen.findByText('天数：7')).toBeTruthy()
    expect(api.call.mock.calls.map(([name, input]) => [name, input])).toEqual([
      ['statistics.user', { days: 7 }],
      ['statistics.user', { days: 7 }],
    ])
  })
})
