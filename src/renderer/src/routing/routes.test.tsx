import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { fail, installFakeApi, memberUser, adminUser, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { useSettingsStore } from '@renderer/stores/settings'
import { useUserStore } from '@renderer/stores/user'
import { PAGE_LOAD_FAILED } from '@renderer/components/RouteErrorPage'
import type { AppRoute } from './types'

/** The dashboard's greeting line (`晚上好，alice`): the mark that 首页 has rendered. */
const HOME_GREETING = /^(早上好|中午好|下午好|晚上好)，/

// Test-only config: the real layout with a member page and an admin page beside 首页.
const testRoutes: AppRoute[] = [
  { path: '/login', title: '登录', component: () => import('@renderer/pages/login') },
  {
    path: '/',
    component: () => import('@renderer/layouts/BasicLayout'),
    children: [
      { index: true, title: '首页', access: 'member', menu: true, component: () => import('@renderer/pages/home') },
      { path: 'task', title: '我的任务', access: 'member', menu: true, component: async () => ({ default: () => <p>任务列表</p> }) },
      { path: 'admin-user', title: '管理员', access: 'admin', menu: true, component: async () => ({ default: () => <p>管理员列表</p> }) },
      {
        path: 'broken',
        title: '坏页面',
        access: 'member',
        component: async () => ({
          default: () => {
            throw new TypeError('boom')
          },
        }),
      },
      {
        // Its chunk answers 404 (or an update replaced the files under the window): the import rejects.
        path: 'gone',
        title: '丢失的页面',
        access: 'member',
        component: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: ./assets/gone.js')),
      },
    ],
  },
  { path: '*', title: '页面不存在', component: () => import('@renderer/pages/exception/404') },
]

function sideMenu(): HTMLElement {
  return screen.getByRole('menu')
}

describe('route guards', () => {
  it('gives a member the 403 page on an admin route, inside the layout', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(testRoutes, '/admin-user')
    expect(await screen.findByText('抱歉，你无权访问该页面。')).toBeTruthy()
    expect(screen.queryByText('管理员列表')).toBeNull()
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy()
    expect(screen.getByTestId('theme-switch')).toBeTruthy()
    // The window says what is shown, not the page the member may not open.
    await waitFor(() => expect(document.title).toBe('无权访问 - 保种管理台'))
  })

  it('lets an admin open the admin route', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser) } })
    renderRoutes(testRoutes, '/admin-user')
    expect(await screen.findByText('管理员列表')).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('管理员 - 保种管理台'))
    expect(screen.queryByText('抱歉，你无权访问该页面。')).toBeNull()
  })

  it('filters admin items out of a member menu', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(testRoutes, '/task')
    expect(await screen.findByText('任务列表')).toBeTruthy()
    const items = within(sideMenu())
      .getAllByRole('menuitem')
      .map((item) => item.textContent)
    expect(items).toEqual(['首页', '我的任务'])
  })

  it('shows admins the admin items', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser) } })
    renderRoutes(testRoutes, '/task')
    await screen.findByText('任务列表')
    const items = within(sideMenu())
      .getAllByRole('menuitem')
      .map((item) => item.textContent)
    expect(items).toEqual(['首页', '我的任务', '管理员'])
  })

  it('sends a visitor without a session to /login, remembering the page', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': fail(401, '请先登录') } })
    const { router } = renderRoutes(testRoutes, '/task?status=3')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/task?status=3')
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy()
  })

  it('shows a route error as a 500 page with the error name, keeping the layout', async () => {
    // React and the router log the thrown error; that noise is the expected outcome here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(testRoutes, '/broken')
    expect(await screen.findByText('TypeError')).toBeTruthy()
    expect(screen.getByText('boom')).toBeTruthy()
    expect(screen.getByTestId('theme-switch')).toBeTruthy()
    consoleError.mockRestore()
    consoleWarn.mockRestore()
  })

  it('shows a page whose code fails to load as a 500 page inside the layout, with 重新加载', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(testRoutes, '/gone')
    expect(await screen.findByText('TypeError')).toBeTruthy()
    expect(screen.getByText(PAGE_LOAD_FAILED)).toBeTruthy()
    // The menu and the header stay, so the user can go elsewhere.
    expect(within(sideMenu()).getByRole('menuitem', { name: '首页' })).toBeTruthy()
    expect(screen.getByTestId('theme-switch')).toBeTruthy()
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy()
    // A reload loads the build that is there now.
    const reload = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload })
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }))
    expect(reload).toHaveBeenCalledOnce()
    vi.restoreAllMocks()
  })

  it('shows the load failure on going to the page from another, and the other pages still open', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    const { router } = renderRoutes(testRoutes, '/task')
    expect(await screen.findByText('任务列表')).toBeTruthy()
    await router.navigate('/gone')
    expect(await screen.findByText(PAGE_LOAD_FAILED)).toBeTruthy()
    expect(within(sideMenu()).getByRole('menuitem', { name: '我的任务' })).toBeTruthy()
    await router.navigate('/task')
    expect(await screen.findByText('任务列表')).toBeTruthy()
    expect(screen.queryByText(PAGE_LOAD_FAILED)).toBeNull()
  })

  it('offers no 重新加载 for an error of a page that did load', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(testRoutes, '/broken')
    expect(await screen.findByText('boom')).toBeTruthy()
    expect(screen.queryByRole('button', { name: '重新加载' })).toBeNull()
    consoleError.mockRestore()
    consoleWarn.mockRestore()
  })
})

describe('app routes', () => {
  it('shows the 404 page for an unknown route, with its title', async () => {
    renderRoutes(routes, '/no-such-page')
    expect(await screen.findByText('抱歉，你访问的页面不存在。')).toBeTruthy()
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('页面不存在 - 保种管理台'))
  })

  it('shows the 403 and 500 pages', async () => {
    const { router } = renderRoutes(routes, '/403')
    expect(await screen.findByText('抱歉，你无权访问该页面。')).toBeTruthy()
    await router.navigate('/500')
    expect(await screen.findByText('抱歉，服务器出错了。')).toBeTruthy()
  })

  it('shows the big spinner while the first route loads', async () => {
    renderRoutes(routes, '/403')
    expect(screen.getByTestId('page-loading')).toBeTruthy()
    expect(screen.queryByRole('menu')).toBeNull()
    await screen.findByText('抱歉，你无权访问该页面。')
  })

  it('sets the document title from the route: 首页 - 保种管理台', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(routes, '/')
    expect(await screen.findByRole('heading', { name: HOME_GREETING })).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('首页 - 保种管理台'))
  })

  it('returns home from an exception page', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    const { router } = renderRoutes(routes, '/no-such-page')
    ;(await screen.findByRole('button', { name: '返回首页' })).click()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(await screen.findByRole('heading', { name: HOME_GREETING })).toBeTruthy()
  })

  it('orders the menu 首页 then 我的任务 first (an admin who seeds)', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok({ ...adminUser, siteUid: 10010 }) } })
    renderRoutes(routes, '/')
    await screen.findByRole('heading', { name: HOME_GREETING })
    const productOrder = [
      '首页',
      '我的任务',
      '我的工资',
      '工资排行',
      '任务分配',
      '管理员',
      '保种员',
      '工资计算',
      '工资统计',
      '官种设置',
      '操作日志',
      '数据同步',
      '更新日志',
    ]
    const items = within(sideMenu())
      .getAllByRole('menuitem')
      .map((item) => item.textContent)
    expect(items.slice(0, 2)).toEqual(['首页', '我的任务'])
    expect(items).toEqual(productOrder.filter((title) => items.includes(title)))
    expect(items).toHaveLength(productOrder.length)
  })

  it('leaves 我的任务 and 我的工资 out of the menu of an admin without a site UID (always empty for them)', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser) } })
    renderRoutes(routes, '/')
    await screen.findByRole('heading', { name: HOME_GREETING })
    const items = within(sideMenu())
      .getAllByRole('menuitem')
      .map((item) => item.textContent)
    expect(items.slice(0, 2)).toEqual(['首页', '工资排行'])
    expect(items).not.toContain('我的工资')
  })

  it('logs in after a failed first check and lands on 首页 (no stale failure is reused)', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': fail(401, '请先登录'), 'user.login': ok('token') } })
    await useSettingsStore.getState().load()
    const { router } = renderRoutes(routes, '/')
    await screen.findByRole('button', { name: '登录' })
    expect(router.state.location.pathname).toBe('/login')

    api.handle('user.loginInfo', ok(memberUser))
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'alice' } })
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: '登录' }))
    expect(await screen.findByRole('heading', { name: HOME_GREETING })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/')
  })

  it('logs out and back in as someone else without showing the previous user', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'user.logout': ok(null), 'user.login': ok('token') } })
    await useSettingsStore.getState().load()
    renderRoutes(routes, '/')
    expect(await screen.findByTestId('user-menu')).toBeTruthy()
    expect(screen.getByTestId('user-menu').textContent).toContain('admin')

    fireEvent.click(screen.getByTestId('user-menu'))
    fireEvent.click(await screen.findByText('退出登录'))
    await screen.findByRole('button', { name: '登录' })
    await waitFor(() => expect(useUserStore.getState().currentUser).toBeNull())

    api.handle('user.loginInfo', ok(memberUser))
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'alice' } })
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: '登录' }))
    expect(await screen.findByRole('heading', { name: /，alice$/ })).toBeTruthy()
    expect(await screen.findByText('我的保种')).toBeTruthy()
    expect(screen.getByTestId('user-menu').textContent).toContain('alice')
    expect(screen.queryByText('管理员')).toBeNull()
    expect(screen.queryByRole('button', { name: /刷新统计/ })).toBeNull()
  })
})
