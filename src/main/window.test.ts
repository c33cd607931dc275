/** The real createMainWindow with Electron's BrowserWindow captured at the seam. */
import { describe, expect, it, vi } from 'vitest'

const created: Record<string, unknown>[] = []
const handlers: Record<string, unknown> = {}

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = {
      on: (event: string, listener: unknown) => void (handlers[event] = listener),
      setWindowOpenHandler: (handler: unknown) => void (handlers.windowOpen = handler),
    }
    constructor(options: Record<string, unknown>) {
      created.push(options)
    }
    maximize() {}
    once() {}
    on() {}
  }
  const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }
  const screen = { getAllDisplays: () => [display], getPrimaryDisplay: () => display }
  return { BrowserWindow, screen, default: { BrowserWindow, screen } }
})

const { createMainWindow, focusWindow, visibleBounds } = await import('./window')

const settings = { getWindowBounds: () => null, setWindowBounds: () => {} } as never

describe('main window', () => {
  it('is created with the secure options of the Electron checklist', () => {
    createMainWindow({ preload: '/app/out/preload/index.cjs', appUrl: 'app://bundle/index.html', settings, log: () => {} })
    const options = created.at(-1)!
    expect(options.show).toBe(false)
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
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
      disableBlinkFeatures: 'Auxclick',
    })
  })

  it('guards its contents: outside navigation refused, new windows denied', () => {
    createMainWindow({ preload: '/p', appUrl: 'app://bundle/index.html', settings, log: () => {} })
    let prevented = false
    ;(handlers['will-navigate'] as (e: { preventDefault(): void }, url: string) => void)(
      { preventDefault: () => (prevented = true) },
      'https://evil.example',
    )
    expect(prevented).toBe(true)
    expect((handlers.windowOpen as (d: { url: string }) => unknown)({ url: 'https://x' })).toEqual({ action: 'deny' })
  })

  it('puts a window saved on a missing monitor back on screen, keeping its size', () => {
    const displays = [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]
    expect(visibleBounds({ x: 3000, y: 200, width: 1200, height: 800 }, displays)).toEqual({
      width: 1200,
      height: 800,
      maximized: undefined,
    })
    expect(visibleBounds({ x: 100, y: 100, width: 1200, height: 800 }, displays)).toEqual({ x: 100, y: 100, width: 1200, height: 800 })
    expect(visibleBounds(null, displays)).toEqual({ width: 1360, height: 860 })
  })

  it('fits a window saved on a larger monitor, or with its title bar off the top, inside the screen', () => {
    const laptop = [{ workArea: { x: 0, y: 0, width: 1366, height: 728 } }]
    // Saved on a 4K monitor: the close button (top right on Windows) and the bottom would be off-screen.
    expect(visibleBounds({ x: 0, y: 0, width: 3800, height: 2100 }, laptop)).toEqual({ x: 0, y: 0, width: 1366, height: 728 })
    expect(visibleBounds({ x: 600, y: 300, width: 1200, height: 800 }, laptop)).toEqual({ x: 166, y: 0, width: 1200, height: 728 })
    // A title bar above the work area cannot be grabbed to move the window.
    expect(visibleBounds({ x: 100, y: -40, width: 1000, height: 600 }, laptop)).toEqual({ x: 100, y: 0, width: 1000, height: 600 })
    // Without a usable position the size still has to fit.
    expect(visibleBounds({ width: 3800, height: 2100, maximized: true }, laptop)).toEqual({ width: 1366, height: 728, maximized: true })
    // A second monitor left of the first keeps its negative coordinates.
    const two = [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }, { workArea: { x: -1280, y: 0, width: 1280, height: 1024 } }]
    expect(visibleBounds({ x: -1200, y: 10, width: 1000, height: 700 }, two)).toEqual({ x: -1200, y: 10, width: 1000, height: 700 })
  })

  it('brings a minimised window back for a second launch', () => {
    const calls: string[] = []
    focusWindow({
      isMinimized: () => true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    } as never)
    expect(calls).toEqual(['restore', 'show', 'focus'])
    expect(() => focusWindow(undefined)).not.toThrow()
  })
})
