/**
 * The Electron security checklist as code (the window options live in window.ts): CSP, navigation and window-open limits,
 * webviews blocked, permissions denied. Written against small structural types so the unit tests
 * can run it under Node without the Electron binary.
 */
/** Content-Security-Policy of the renderer (also set as a <meta> in index.html for file:// loads). */
export function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    // Vite's dev server injects an inline React-refresh preamble and talks over a websocket.
    dev ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // antd's CSS-in-JS inserts <style> elements
    "img-src 'self' data:",
    "font-src 'self' data:",
    dev ? "connect-src 'self' ws:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

interface NavigationEvent {
  preventDefault(): void
}

/** The parts of WebContents the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent, url: string) => void): unknown
  on(event: 'will-attach-webview', listener: (event: NavigationEvent) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

const webSchemes = new Set(['http:', 'https:', 'app:'])

/**
 * True when `url` is the app's own page: the `app://bundle` scheme in production, the dev server
 * in development, or one built `index.html` over file:// (reloads and hash routes stay inside).
 * Compares protocol + host rather than `origin`, which Node reports as "null" for custom schemes.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const target = new URL(url)
    const app = new URL(appUrl)
    if (target.protocol !== app.protocol) return false
    if (app.protocol === 'file:') return target.pathname === app.pathname
    return webSchemes.has(app.protocol) && target.host === app.host
  } catch {
    return false
  }
}

/** No navigation away from the app, no new windows, no webviews. */
export function guardWebContents(contents: GuardedContents, appUrl: string, log: (message: string) => void = () => {}): void {
  const refuse = (event: NavigationEvent, url: string) => {
    if (isAppUrl(url, appUrl)) return
    event.preventDefault()
    log(`navigation refused: ${url}`)
  }
  contents.on('will-navigate', refuse)
  contents.on('will-redirect', refuse)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    log(`new window refused: ${url}`)
    return { action: 'deny' }
  })
}

/** The parts of Session the lock-down uses. */
export interface GuardedSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void
  }
}

/** The console needs no camera, notifications, geolocation…: every permission is denied. */
export function lockDownSession(session: GuardedSession, dev: boolean): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  const csp = contentSecurityPolicy(dev)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
}
