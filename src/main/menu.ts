/** The Chinese application menu: 编辑 / 视图 / 窗口 / 帮助 (with 关于, 检查更新, 打开日志目录). */
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  checkForUpdates(): void
  openLogFolder(): void
  showAbout(): void
}

export function buildMenuTemplate(actions: MenuActions, options: { isMac: boolean; dev: boolean }): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload', label: '重新加载' },
    ...(options.dev ? ([{ role: 'toggleDevTools', label: '开发者工具' }] as const) : []),
    { type: 'separator' },
    { role: 'resetZoom', label: '实际大小' },
    { role: 'zoomIn', label: '放大' },
    { role: 'zoomOut', label: '缩小' },
    { type: 'separator' },
    { role: 'togglefullscreen', label: '全屏' },
  ]
  return [
    ...(options.isMac
      ? [
          {
            label: '保种管理台',
            submenu: [
              { label: '关于保种管理台', click: actions.showAbout },
              { type: 'separator' },
              { role: 'hide', label: '隐藏保种管理台' },
              { role: 'hideOthers', label: '隐藏其他' },
              { type: 'separator' },
              { role: 'quit', label: '退出保种管理台' },
            ] satisfies MenuItemConstructorOptions[],
          },
        ]
      : []),
    {
      label: '编辑',
      submenu: [
        { role: 'undo', label: '撤销' },
        { role: 'redo', label: '重做' },
        { type: 'separator' },
        { role: 'cut', label: '剪切' },
        { role: 'copy', label: '复制' },
        { role: 'paste', label: '粘贴' },
        { role: 'selectAll', label: '全选' },
      ],
    },
    { label: '视图', submenu: view },
    {
      label: '窗口',
      submenu: [
        { role: 'minimize', label: '最小化' },
        { role: 'zoom', label: '缩放' },
        ...(options.isMac ? [] : [{ role: 'close' as const, label: '关闭' }]),
      ],
    },
    {
      label: '帮助',
      submenu: [
        { label: '检查更新', click: actions.checkForUpdates },
        { label: '打开日志目录', click: actions.openLogFolder },
        ...(options.isMac ? [] : [{ type: 'separator' as const }, { label: '关于', click: actions.showAbout }]),
      ],
    },
  ]
}
