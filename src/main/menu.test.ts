import { describe, expect, it } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import { buildMenuTemplate } from './menu'

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])])
}

describe('application menu', () => {
  const calls: string[] = []
  const actions = {
    checkForUpdates: () => void calls.push('update'),
    openLogFolder: () => void calls.push('logs'),
    showAbout: () => void calls.push('about'),
  }

  it('has the Chinese top-level menus in order', () => {
    expect(buildMenuTemplate(actions, { isMac: false, dev: false }).map((m) => m.label)).toEqual(['编辑', '视图', '窗口', '帮助'])
    expect(buildMenuTemplate(actions, { isMac: true, dev: false }).map((m) => m.label)).toEqual([
      '保种管理台',
      '编辑',
      '视图',
      '窗口',
      '帮助',
    ])
  })

  it('wires 检查更新, 打开日志目录 and 关于 to their actions', () => {
    const items = flatten(buildMenuTemplate(actions, { isMac: false, dev: false }))
    for (const label of ['检查更新', '打开日志目录', '关于']) (items.find((i) => i.label === label)!.click as () => void)()
    expect(calls).toEqual(['update', 'logs', 'about'])
  })

  it('labels every item in Chinese and offers developer tools only in development', () => {
    const items = flatten(buildMenuTemplate(actions, { isMac: false, dev: false })).filter((i) => i.type !== 'separator')
    for (const item of items) expect(item.label).toMatch(/[\u4e00-\u9fff]/)
    expect(items.some((i) => i.role === 'toggleDevTools')).toBe(false)
    expect(flatten(buildMenuTemplate(actions, { isMac: false, dev: true })).some((i) => i.role === 'toggleDevTools')).toBe(true)
  })
})
