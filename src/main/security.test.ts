import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, guardWebContents, isAppUrl, lockDownSession, type GuardedContents, type GuardedSession } from './security'

describe('content security policy', () => {
  it('allows only the app itself to run scripts in production', () => {
    const csp = contentSecurityPolicy(false)
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("connect-src 'self'")
  })

  it('relaxes only what the dev server needs in development', () => {
    expect(contentSecurityPolicy(true)).toContain('ws:')
    expect(contentSecurityPolicy(true)).not.toContain('unsafe-eval')
  })
})

function fakeContents() {
  const listeners: Record<string, (...args: unknown[]) => void> = {}
  let openHandler: ((d: { url: string }) => { action: string }) | undefined
  const contents = {
    on: (event: string, listener: (...args: unknown[]) => void) => {
      listeners[event] = listener
    },
    setWindowOpenHandler: (handler: typeof openHandler) => {
      openHandler = handler
    },
  } as unknown as GuardedContents
  const navigate = (event: string, url: string) => {
    let prevented = false
    listeners[event]!({ preventDefault: () => (prevented = true) }, url)
    return prevented
  }
  return { contents, navigate, open: (url: string) => openHandler!({ url }) }
}

describe('navigation guards', () => {
  const prod = 'file:///opt/app/out/renderer/index.html'
  const dev = 'http://localhost:5173/'

  it('refuse navigation to outside pages (checklist 13)', () => {
    const { contents, navigate } = fakeContents()
    guardWebContents(contents, prod)
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true)
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(navigate('will-redirect', 'http://localhost:5173/')).toBe(true)
    expect(navigate('will-navigate', 'file:///opt/app/out/renderer/index.html#/login')).toBe(false)
  })

  it('allow the dev server origin only in development', () => {
    const { contents, navigate } = fakeContents()
    guardWebContents(contents, dev)
    expect(navigate('will-navigate', 'http://localhost:5173/#/task')).toBe(false)
    expect(navigate('will-navigate', 'http://localhost:5174/')).toBe(true)
  })

  it('deny every new window (checklist 14) and every webview (checklist 12)', () => {
    const { contents, open, navigate } = fakeContents()
    guardWebContents(contents, prod)
    expect(open('https://example.com')).toEqual({ action: 'deny' })
    expect(open(prod)).toEqual({ action: 'deny' })
    expect(navigate('will-attach-webview', '')).toBe(true)
  })

  it('treat unparsable URLs as outside', () => {
    expect(isAppUrl('::::', prod)).toBe(false)
  })
})

describe('session lock-down', () => {
  it('denies every permission request and check (checklist 5) and sets the CSP header (checklist 7)', () => {
    let requestHandler: ((c: unknown, p: string, cb: (g: boolean) => void) => void) | undefined
    let checkHandler: ((...a: unknown[]) => boolean) | undefined
    let headers:
      | ((d: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)
      | undefined
    const session: GuardedSession = {
      setPermissionRequestHandler: (h) => (requestHandler = h),
      setPermissionCheckHandler: (h) => (checkHandler = h),
      webRequest: { onHeadersReceived: (l) => (headers = l) },
    }
    lockDownSession(session, false)
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
      let granted: boolean | undefined
      requestHandler!(null, permission, (g) => (granted = g))
      expect(granted).toBe(false)
    }
    expect(checkHandler!(null, 'media')).toBe(false)
    let answered: Record<string, string[]> = {}
    headers!({ responseHeaders: { 'X-Other': ['1'] } }, (r) => (answered = r.responseHeaders))
    expect(answered['Content-Security-Policy']).toEqual([contentSecurityPolicy(false)])
    expect(answered['X-Other']).toEqual(['1'])
  })
})

describe('navigation guards (app:// scheme)', () => {
  it('keep the app inside app://bundle', () => {
    const { contents, navigate } = fakeContents()
    guardWebContents(contents, 'app://bundle/index.html')
    expect(navigate('will-navigate', 'app://bundle/index.html#/rank')).toBe(false)
    expect(navigate('will-navigate', 'app://other/index.html')).toBe(true)
    expect(navigate('will-navigate', 'https://bundle/')).toBe(true)
  })
})
