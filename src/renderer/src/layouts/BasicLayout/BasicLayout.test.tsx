import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { fail, installFakeApi, memberUser, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import type { AppRoute } from '@renderer/routing/types'
import { useSettingsStore } from '@renderer/stores/settings'
import { useUserStore } from '@renderer/stores/user'

const routes: AppRoute[] = [
  { path: '/login', title: '登录', component: () => import('@renderer/pages/login') },
  {
    path: '/',
    component: () => import('.'),
    children: [
      { index: true, title: '首页', access: 'member', menu: true, component: async () => ({ default: () => <p>首页内容</p> }) },
      { path: 'task', title: '我的任务', access: 'member', menu: true, component: async () => ({ default: () => <p>任务内容</p> }) },
    ],
  },
]

describe('BasicLayout', () => {
  it('goes to /login when login-info fails, without a toast, remembering the page', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': fail(500, '服务器内部错误，请稍后再试') } })
    const { router } = renderRoutes(routes, '/task')
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/login')
    expect(router.state.location.search).toBe('?redirect=%2Ftask')
    expect(api.call).toHaveBeenCalledWith('user.loginInfo', undefined)
    // Not a toast: the login page says why, and that the saved login may still be good.
    expect(screen.getByTestId('login-unreachable').textContent).toContain('无法确认登录状态：服务器内部错误，请稍后再试')
  })

  it('with the server unreachable, the login page says so; 重新连接 opens the page once it answers, without logging in', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': fail(0, '无法连接服务器，请检查服务器地址和网络') } })
    const { router } = renderRoutes(routes, '/task')
    expect((await screen.findByTestId('login-unreachable')).textContent).toContain('无法连接服务器')
    api.handle('user.loginInfo', ok(memberUser))
    fireEvent.click(screen.getByRole('button', { name: '重新连接' }))
    expect(await screen.findByText('任务内容')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/task')
    expect(api.call).not.toHaveBeenCalledWith('user.login', expect.anything())
  })

  it('a refused login (401) goes to the login page with no such notice', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': fail(401, '请先登录') } })
    renderRoutes(routes, '/task')
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy()
    expect(screen.queryByTestId('login-unreachable')).toBeNull()
    expect(screen.queryByTestId('login-ended')).toBeNull()
  })

  it('a login the server ended (a ban, 7 idle days) says why on the login page, with no toast', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': fail(401, '登录已过期（超过 7 天未使用），请重新登录') } })
    const { router } = renderRoutes(routes, '/task')
    expect((await screen.findByTestId('login-ended')).textContent).toContain('登录已过期（超过 7 天未使用），请重新登录')
    expect(router.state.location.search).toBe('?redirect=%2Ftask')
    expect(screen.queryByTestId('login-unreachable')).toBeNull()
    expect(document.querySelector('.ant-message')).toBeNull()
  })

  it('renders menu, header and page once the user is known, and stores the user', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(routes, '/task')
    expect(await screen.findByText('任务内容')).toBeTruthy()
    expect(screen.getByTestId('app-logo').textContent).toBe('保种管理台')
    expect(screen.getByTestId('user-menu').textContent).toContain('alice')
    expect(screen.getByRole('menuitem', { name: /我的任务/ }).className).toContain('ant-menu-item-selected')
    expect(useUserStore.getState().currentUser).toEqual(memberUser)
  })

  it('navigates from the side menu', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    const { router } = renderRoutes(routes, '/task')
    await screen.findByText('任务内容')
    fireEvent.click(screen.getByRole('menuitem', { name: /首页/ }))
    expect(await screen.findByText('首页内容')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/')
  })

  it('switches the theme from the header and saves it through main', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(routes, '/')
    await screen.findByText('首页内容')
    const button = screen.getByTestId('theme-switch')
    expect(button.getAttribute('aria-label')).toBe('切换为亮色主题')
    fireEvent.click(button)
    await waitFor(() => expect(api.setSettings).toHaveBeenCalledWith({ navTheme: 'light' }))
    expect(useSettingsStore.getState().navTheme).toBe('light')
    await waitFor(() => expect(screen.getByTestId('theme-switch').getAttribute('aria-label')).toBe('切换为暗色主题'))
    expect(api.settings.navTheme).toBe('light')
  })

  it('shows a toast when main refuses the theme', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    api.setSettings.mockResolvedValueOnce(fail(500, '设置保存失败'))
    renderRoutes(routes, '/')
    await screen.findByText('首页内容')
    fireEvent.click(screen.getByTestId('theme-switch'))
    expect(await screen.findByText('设置保存失败')).toBeTruthy()
    expect(useSettingsStore.getState().navTheme).toBe('realDark')
  })

  it('logs out from the user menu to the login page, clearing the user', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser), 'user.logout': ok(null) } })
    const { router } = renderRoutes(routes, '/')
    await screen.findByText('首页内容')
    fireEvent.click(screen.getByTestId('user-menu'))
    fireEvent.click(await screen.findByText('退出登录'))
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/login')
    expect(api.call).toHaveBeenCalledWith('user.logout', undefined)
    await waitFor(() => expect(useUserStore.getState().currentUser).toBeNull())
    expect(useUserStore.getState().sessionEpoch).toBeGreaterThan(0)

    // The session is gone: opening the app again asks the server anew and lands on the login page.
    api.handle('user.loginInfo', fail(401, '请先登录'))
    await router.navigate('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy()
  })

  it('still logs out when the server call fails (main drops the token anyway)', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser), 'user.logout': fail(500, '服务器内部错误，请稍后再试') } })
    const { router } = renderRoutes(routes, '/')
    await screen.findByText('首页内容')
    fireEvent.click(screen.getByTestId('user-menu'))
    fireEvent.click(await screen.findByText('退出登录'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(screen.queryByText('服务器内部错误，请稍后再试')).toBeNull()
  })
})
