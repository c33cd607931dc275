/** The one application window: secure options, remembered bounds, guarded contents. */
import { BrowserWindow, screen } from 'electron'
import { guardWebContents } from './security'
import type { SettingsStore, WindowBounds } from './settings-store'

const DEFAULT_BOUNDS: WindowBounds = { width: 1360, height: 860 }

type Area = { x: number; y: number; width: number; height: number }

/**
 * Bounds saved on a monitor that is gone are dropped, so the window never opens off-screen; a window larger than
 * the monitor it lands on (saved on a bigger one) is shrunk to it, and moved so that all of it — title bar and
 * window buttons included — is inside the work area.
 */
export function visibleBounds(saved: WindowBounds | null, displays: { workArea: Area }[]): WindowBounds {
  if (!saved) return DEFAULT_BOUNDS
  const home = displays.find(({ workArea: a }) => saved.x !== undefined && saved.y !== undefined && isNear(saved.x, saved.y, a))?.workArea
  // Without a position the window opens centred on the primary display (the first one given).
  const fit = home ?? displays[0]?.workArea
  const width = fit ? Math.min(saved.width, fit.width) : saved.width
  const height = fit ? Math.min(saved.height, fit.height) : saved.height
  if (!home) return { width, height, maximized: saved.maximized }
  const x = Math.max(home.x, Math.min(saved.x!, home.x + home.width - width))
  const y = Math.max(home.y, Math.min(saved.y!, home.y + home.height - height))
  return saved.maximized === undefined ? { x, y, width, height } : { x, y, width, height, maximized: saved.maximized }
}

/** The window's top-left corner is on this work area (or just off its left or top edge). */
function isNear(x: number, y: number, a: Area): boolean {
  return x >= a.x - 50 && y >= a.y - 50 && x < a.x + a.width - 100 && y < a.y + a.height - 100
}

export function createMainWindow(options: {
  preload: string
  appUrl: string
  settings: SettingsStore
  log: (m: string) => void
  icon?: string
}): BrowserWindow {
  const primary = screen.getPrimaryDisplay()
  const displays = [primary, ...screen.getAllDisplays().filter(({ id }) => id !== primary.id)]
  const bounds = visibleBounds(options.settings.getWindowBounds(), displays)
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
