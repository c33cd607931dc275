/** The one application window: secure options, remembered bounds, guarded contents. */
import { BrowserWindow, screen } from 'electron'
import { guardWebContents } from './security'
import type { SettingsStore, WindowBounds } from './settings-store'

const DEFAULT_BOUNDS: WindowBounds = { width: 1360, height: 860 }

/** Bounds saved on a monitor that is gone are dropped, so the window never opens off-screen. */
export function visibleBounds(
  saved: WindowBounds | null,
  displays: { workArea: { x: number; y: number; width: number; height: number } }[],
): WindowBounds {
  if (!saved) return DEFAULT_BOUNDS
  if (saved.x === undefined || saved.y === undefined) return { width: saved.width, height: saved.height, maximized: saved.maximized }
  const onScreen = displays.some(
    ({ workArea: a }) => saved.x! >= a.x - 50 && saved.y! >= a.y - 50 && saved.x! < a.x + a.width - 100 && saved.y! < a.y + a.height - 100,
  )
  return onScreen ? saved : { width: saved.width, height: saved.height, maximized: saved.maximized }
}

export function createMainWindow(options: {
  preload: string
  appUrl: string
  settings: SettingsStore
  log: (m: string) => void
  icon?: string
}): BrowserWindow {
  const bounds = visibleBounds(options.settings.getWindowBounds(), screen.getAllDisplays())
  const window = new BrowserWindow({
    ...bounds,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    title: '保种管理台',
    backgroundColor: '#141414',
    icon: options.icon,
    // Written out here (not built elsewhere) so electronegativity's static checks can read them;
    // window.test.ts asserts the same options on the real constructor call.
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // Middle-click must not open links in new windows (electronegativity AUXCLICK check).
      disableBlinkFeatures: 'Auxclick',
    },
  })
  if (bounds.maximized) window.maximize()
  guardWebContents(window.webContents, options.appUrl, options.log)
  window.once('ready-to-show', () => window.show())
  window.on('close', () => {
    options.settings.setWindowBounds({ ...window.getNormalBounds(), maximized: window.isMaximized() })
  })
  return window
}

/** Brings the window back to the front (a second launch of the app lands here). */
export function focusWindow(window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'> | undefined): void {
  if (!window) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}
