/**
 * Opens the product for a test. Where Electron can run (`E2E_ELECTRON=1` on a desktop with the
 * Electron binary), it launches the real app built in out/. Elsewhere it serves the built renderer
 * to Debian's Chromium and installs the bridge shim in front of the real main-process handlers.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron, chromium, type Browser, type ElectronApplication, type Page } from 'playwright-core'
import { bridgeShim, createMainBridge } from './main-bridge'
import { CHROMIUM_PATH, chromiumArgs } from './chromium'
import { applyNavigationGuard } from './navigation-guard'
import { serveRenderer } from './static-server'

export { CHROMIUM_PATH }

const root = resolve(import.meta.dirname, '../..')
export const screenshotDir = join(root, 'e2e/screenshots')

export interface OpenApp {
  page: Page
  /** What the main process logged (navigation refusals, IPC refusals…). */
  mainLog: string[]
  /** Folder of files saved through the save dialog (Chromium mode). */
  downloadDir: string | null
  /** The address the app's pages live at (`#/…` routes are appended to it). */
  appUrl: string
  goto(route: string): Promise<void>
  screenshot(name: string): Promise<void>
  close(): Promise<void>
}

export const useElectron = process.env.E2E_ELECTRON === '1'

export function browserAvailable(): boolean {
  return useElectron || existsSync(CHROMIUM_PATH)
}

export async function openApp(options: { defaultServerAddress: string }): Promise<OpenApp> {
  mkdirSync(screenshotDir, { recursive: true })
  let page: Page
  let appUrl: string
  let shutdown: () => Promise<void>
  const mainLog: string[] = []
  let downloadDir: string | null = null

  if (useElectron) {
    const electronApp: ElectronApplication = await _electron.launch({
      args: [root],
      env: {
        ...process.env,
        SEEDING_CONSOLE_USER_DATA: mkdtempSync(join(tmpdir(), 'seeding-console-app-')),
        MAIN_VITE_API_BASE: options.defaultServerAddress,
      },
    })
    page = await electronApp.firstWindow()
    await page.waitForLoadState('domcontentloaded')
    appUrl = page.url().split('#')[0]!
    shutdown = () => electronApp.close()
  } else {
    const renderer = await serveRenderer(join(root, 'out/renderer'))
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs })
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'zh-CN' })
    page = await context.newPage()
    const bridge = createMainBridge({ appUrl: renderer.url, defaultServerAddress: options.defaultServerAddress })
    downloadDir = bridge.downloadDir
    await page.exposeBinding('__seedingIpc', ({ frame }, channel: string, arg: unknown) => bridge.invoke(frame, channel, arg))
    await page.addInitScript(bridgeShim)
    await applyNavigationGuard(page, renderer.url, (message) => mainLog.push(message))
    appUrl = renderer.url
    await page.goto(appUrl)
    shutdown = async () => {
      await browser.close()
      await renderer.close()
    }
  }

  return {
    page,
    mainLog,
    downloadDir,
    appUrl,
    goto: async (route) => {
      await page.goto(`${appUrl}#${route}`)
    },
    screenshot: async (name) => {
      await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true })
    },
    close: shutdown,
  }
}
