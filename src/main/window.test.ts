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
  const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }
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
