import { describe, expect, it } from 'vitest'
import { canAccess } from './access'
import { isSeeder, joinPath, menuEntries, selectedMenuPath } from './menu'
import type { AppRoute } from './types'

const page = async () => ({ default: () => null })

// Test-only config in the shape admin pages will take once they exist.
const config: AppRoute[] = [
  { path: '/login', title: '登录', component: page },
  {
    path: '/',
    component: page,
    children: [
      { index: true, title: '首页', access: 'member', menu: true, component: page },
      { path: 'task', title: '我的任务', access: 'member', menu: 'seeder', component: page },
      { path: 'normal-user', title: '保种员', access: 'admin', menu: true, component: page },
      { path: 'normal-user/:id', title: '保种员详情', access: 'admin', component: page },
      { path: 'changelog', title: '更新日志', access: 'member', menu: true, component: page },
    ],
  },
  { path: '*', title: '页面不存在', component: page },
]

describe('canAccess', () => {
  it('lets everyone into public routes', () => {
    expect(canAccess(null, undefined)).toBe(true)
  })

  it('needs a user for member routes and the admin role for admin routes', () => {
    expect(canAccess(null, 'member')).toBe(false)
    expect(canAccess('normal', 'member')).toBe(true)
    expect(canAccess('admin', 'member')).toBe(true)
    expect(canAccess('normal', 'admin')).toBe(false)
    expect(canAccess('admin', 'admin')).toBe(true)
  })
})

describe('menuEntries', () => {
  it('hides admin-only pages from members', () => {
    expect(menuEntries(config, 'normal').map((entry) => [entry.path, entry.title])).toEqual([
      ['/', '首页'],
      ['/task', '我的任务'],
      ['/changelog', '更新日志'],
    ])
  })

  it('shows admins every menu page, in config order, and never non-menu routes', () => {
    expect(menuEntries(config, 'admin').map((entry) => entry.path)).toEqual(['/', '/task', '/normal-user', '/changelog'])
  })

  it("shows an admin's own-seeding pages only when the console follows their seeding (a site UID)", () => {
    expect(menuEntries(config, 'admin', { seeder: false }).map((entry) => entry.path)).toEqual(['/', '/normal-user', '/changelog'])
    expect(isSeeder({ role: 'admin', siteUid: null })).toBe(false)
    expect(isSeeder({ role: 'admin', siteUid: 10086 })).toBe(true)
    expect(isSeeder({ role: 'normal', siteUid: null })).toBe(true)
  })

  it('is empty without a user', () => {
    expect(menuEntries(config, null)).toEqual([])
  })
})

describe('selectedMenuPath', () => {
  const entries = menuEntries(config, 'admin')

  it('matches exactly, or the parent of a detail page', () => {
    expect(selectedMenuPath(entries, '/')).toBe('/')
    expect(selectedMenuPath(entries, '/task')).toBe('/task')
    expect(selectedMenuPath(entries, '/normal-user/12')).toBe('/normal-user')
  })

  it('selects nothing for unknown pages (the home entry is not a prefix of everything)', () => {
    expect(selectedMenuPath(entries, '/nothing')).toBeUndefined()
    expect(selectedMenuPath(entries, '/tasks')).toBeUndefined()
  })
})

describe('joinPath', () => {
  it('joins relative paths and keeps absolute ones', () => {
    expect(joinPath('/', 'task')).toBe('/task')
    expect(joinPath('/admin', 'users')).toBe('/admin/users')
    expect(joinPath('/', '/login')).toBe('/login')
    expect(joinPath('/x', undefined)).toBe('/x')
  })
})
