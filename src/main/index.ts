/**
 * Electron main entry: the only module that wires Electron's objects to the app's modules.
 * Everything it composes (API client, settings store, IPC handlers, security guards, menu,
 * updater, crash handler) is plain code tested under Node behind small structural types.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron'
import log from 'electron-log/main'
import Store from 'electron-store'
import electronUpdater from 'electron-updater'
import { createApiClient } from './api-client'
import { APP_SCHEME, APP_URL, appSchemePrivileges, createAppProtocolHandler } from './app-protocol'
import { installCrashHandler } from './crash'
import { createFileSaver } from './downloads'
import { createIpcHandlers } from './ipc/handlers'
import { registerIpcHandlers } from './ipc/register'
import { createSenderCheck } from './ipc/sender'
import { configureLogFile } from './logging'
import { buildMenuTemplate } from './menu'
import { contentSecurityPolicy, guardWebContents, lockDownSession } from './security'
import { createSettingsStore, DEFAULT_SERVER_ADDRESS, openSettingsBackend } from './settings-store'
import { createUpdateChecker } from './updater'
import { createMainWindow, focusWindow } from './window'

const here = fileURLToPath(new URL('.', import.meta.url))
const dev = !app.isPackaged
const devServerUrl = dev ? process.env.ELECTRON_RENDERER_URL : undefined
// Production pages come from app://bundle (see app-protocol.ts), never from file://.
const appUrl = devServerUrl ?? APP_URL

// A throw-away profile for the e2e suite run against the real app (e2e/harness/app.ts).
if (process.env.SEEDING_CONSOLE_USER_DATA) app.setPath('userData', process.env.SEEDING_CONSOLE_USER_DATA)

configureLogFile(log, { dev })
const write = (message: string) => log.info(message)
const logDirectory = () => app.getPath('logs')

installCrashHandler({
  process,
  app,
  showErrorBox: (title, content) => dialog.showErrorBox(title, content),
  showReloadPrompt: async (message) =>
    (await dialog.showMessageBox({ type: 'error', title: '保种管理台', message, buttons: ['重新加载', '关闭'], defaultId: 0, cancelId: 1 }))
      .response === 0,
  logDirectory,
  log: (message) => log.error(message),
})

// One instance: a second launch focuses the first window instead of opening another.
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.enableSandbox()
  protocol.registerSchemesAsPrivileged([appSchemePrivileges])
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, appUrl, write))
  app.on('second-instance', () => focusWindow(BrowserWindow.getAllWindows()[0]))
  app.whenReady().then(start)
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}

function start(): void {
  lockDownSession(session.defaultSession, Boolean(devServerUrl))
  protocol.handle(APP_SCHEME, createAppProtocolHandler(join(here, '../renderer'), contentSecurityPolicy(false)))

  const settings = createSettingsStore({
    backend: openSettingsBackend((options) => new Store(options)),
    sealer: safeStorage,
    defaultServerAddress: import.meta.env.MAIN_VITE_API_BASE || DEFAULT_SERVER_ADDRESS,
    defaultUpdateUrl: import.meta.env.MAIN_VITE_UPDATE_URL ?? '',
  })
  const client = createApiClient({
    baseUrl: settings.apiBase,
    tokens: settings,
    deviceKeys: settings,
    log: write,
    saveFile: createFileSaver({
      showSaveDialog: (options) => {
        const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
        return window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options)
      },
      downloadsDir: () => app.getPath('downloads'),
      log: write,
    }),
  })
  // A new update feed is the user's decision, asked here: the page (even one running injected script) cannot answer it.
  const confirmUpdateUrl = async (url: string) => {
    const options = {
      type: 'warning' as const,
      title: '确认更新地址',
      message: '是否从这个地址获取新版本？',
      // The feed as the URL parser wrote it (no spaces or line breaks: ipc.ts), its site on a line of its own.
      detail: `站点：${new URL(url).origin}\n地址：${url}\n\n应用会从这里下载新版本，并在退出时安装。只在这是管理员提供的更新地址时确认。`,
      buttons: ['确认更改', '取消'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    }
    const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
    const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options)
    return response === 0
  }
  registerIpcHandlers(ipcMain, createIpcHandlers({ client, settings, confirmUpdateUrl }), createSenderCheck(appUrl), write)

  const updates = createUpdateChecker({
    updater: electronUpdater.autoUpdater,
    feedUrl: settings.getUpdateUrl,
    currentVersion: app.getVersion(),
    log: write,
    promptRestart: async (version) =>
      (
        await dialog.showMessageBox({
          type: 'info',
          title: '更新已下载',
          message: `新版本 ${version} 已下载，重启后安装。`,
          buttons: ['立即重启', '稍后'],
          defaultId: 0,
          cancelId: 1,
        })
      ).response === 0,
    inform: (message) => void dialog.showMessageBox({ type: 'info', title: '检查更新', message }),
  })

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate(
        {
          checkForUpdates: () => void updates.check({ userAsked: true }),
          openLogFolder: () => void shell.openPath(logDirectory()),
          showAbout: () =>
            void dialog.showMessageBox({
              type: 'info',
              title: '关于保种管理台',
              message: `保种管理台 ${app.getVersion()}`,
              detail: `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
            }),
        },
        { isMac: process.platform === 'darwin', dev },
      ),
    ),
  )

  const open = () => {
    const window = createMainWindow({ preload: join(here, '../preload/index.cjs'), appUrl, settings, log: write })
    void window.loadURL(appUrl)
  }
  open()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open()
  })

  if (!dev) void updates.check({ userAsked: false })
}
