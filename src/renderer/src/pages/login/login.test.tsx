import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import type { AppRoute } from '@renderer/routing/types'
import { useSettingsStore } from '@renderer/stores/settings'

const routes: AppRoute[] = [
  { path: '/login', title: '登录', component: () => import('.') },
  { path: '/', title: '首页', component: async () => ({ default: () => <p>首页内容</p> }) },
  { path: '/task', title: '我的任务', component: async () => ({ default: () => <p>任务内容</p> }) },
]

async function openLogin(api: FakeApi, path = '/login') {
  // The app loads settings before any route renders; do the same here.
  await useSettingsStore.getState().load()
  const view = renderRoutes(routes, path)
  await screen.findByRole('button', { name: '登录' })
  return { api, ...view }
}

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label) as HTMLInputElement
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } })
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: '登录' }))
}

describe('login page', () => {
  it('prefills the remembered server address and titles the page', async () => {
    await openLogin(installFakeApi({ settings: { serverAddress: 'http://10.1.2.3:8080/api/v1' } }))
    expect(field('服务器地址').value).toBe('http://10.1.2.3:8080/api/v1')
    expect(field('用户名').value).toBe('')
    expect(field('密码').type).toBe('password')
    await waitFor(() => expect(document.title).toBe('登录 - 保种管理台'))
  })

  it('asks for the missing fields in Chinese', async () => {
    const { api } = await openLogin(installFakeApi())
    submit()
    expect(await screen.findByText('请输入用户名')).toBeTruthy()
    expect(screen.getByText('请输入密码')).toBeTruthy()
    expect(api.call).not.toHaveBeenCalled()
  })

  it("shows the server's msg above the button and keeps what was typed", async () => {
    const api = installFakeApi({ handlers: { 'user.login': fail(401, '用户名或密码错误') } })
    const { router } = await openLogin(api)
    type('服务器地址', 'http://127.0.0.1:8080')
    type('用户名', 'admin')
    type('密码', 'wrong-password')
    submit()
    expect(await screen.findByText('用户名或密码错误')).toBeTruthy()
    expect(screen.getByTestId('login-error')).toBeTruthy()
    expect(api.setSettings).toHaveBeenCalledWith({ serverAddress: 'http://127.0.0.1:8080' })
    expect(api.call).toHaveBeenCalledWith('user.login', { username: 'admin', password: 'wrong-password' })
    expect(field('服务器地址').value).toBe('http://127.0.0.1:8080')
    expect(field('用户名').value).toBe('admin')
    expect(field('密码').value).toBe('wrong-password')
    expect(router.state.location.pathname).toBe('/login')
    // Silent call: the message is inline only, not also in a toast.
    expect(screen.getAllByText('用户名或密码错误')).toHaveLength(1)
  })

  it("drops the server's msg once a field is edited: emptied fields and Enter show only what is missing", async () => {
    const api = installFakeApi({ handlers: { 'user.login': fail(403, '账号已被封禁') } })
    await openLogin(api)
    type('用户名', 'bob')
    type('密码', 'secret-1')
    submit()
    expect(await screen.findByText('账号已被封禁')).toBeTruthy()

    type('用户名', '')
    type('密码', '')
    fireEvent.submit(field('密码').closest('form')!) // Enter
    expect(await screen.findByText('请输入用户名')).toBeTruthy()
    expect(screen.getByText('请输入密码')).toBeTruthy()
    expect(screen.queryByText('账号已被封禁')).toBeNull()
    expect(screen.queryByTestId('login-error')).toBeNull()
    expect(api.call).toHaveBeenCalledTimes(1)
  })

  it("drops the server's msg as soon as the user starts correcting a field", async () => {
    const api = installFakeApi({ handlers: { 'user.login': fail(401, '用户名或密码错误') } })
    await openLogin(api)
    type('用户名', 'admin')
    type('密码', 'wrong-password')
    submit()
    expect(await screen.findByText('用户名或密码错误')).toBeTruthy()
    type('密码', 'wrong-passwor')
    expect(screen.queryByTestId('login-error')).toBeNull()
    expect(field('用户名').value).toBe('admin')
  })

  it('shows a refused server address on its field and does not try to log in', async () => {
    const api = installFakeApi({ handlers: { 'user.login': ok('token') } })
    api.setSettings.mockResolvedValueOnce(fail(400, '服务器地址：请输入 http:// 或 https:// 开头的地址'))
    await openLogin(api)
    type('服务器地址', 'ftp://host')
    type('用户名', 'admin')
    type('密码', 'secret')
    submit()
    expect(await screen.findByText('服务器地址：请输入 http:// 或 https:// 开头的地址')).toBeTruthy()
    expect(api.call).not.toHaveBeenCalled()
    expect(field('服务器地址').value).toBe('ftp://host')
    expect(field('用户名').value).toBe('admin')
    expect(field('密码').value).toBe('secret')
  })

  it('goes home after logging in', async () => {
    const api = installFakeApi({ handlers: { 'user.login': ok('token') } })
    const { router } = await openLogin(api)
    type('用户名', 'admin')
    type('密码', 'secret')
    submit()
    expect(await screen.findByText('首页内容')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/')
    expect(api.setSettings).toHaveBeenCalledWith({ serverAddress: 'http://127.0.0.1:8080/api/v1' })
  })

  it('returns to the page the user came from', async () => {
    const api = installFakeApi({ handlers: { 'user.login': ok('token') } })
    const { router } = await openLogin(api, '/login?redirect=%2Ftask')
    type('用户名', 'admin')
    type('密码', 'secret')
    fireEvent.submit(field('密码').closest('form')!)
    expect(await screen.findByText('任务内容')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/task')
  })
})
