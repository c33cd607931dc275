/**
 * The renderer is served from `app://bundle/…` instead of `file://` (Electron security checklist
 * item 18): a standard, secure scheme gives the page a real origin, and the handler serves only
 * files inside the renderer folder — `..`, encoded separators and absolute paths are refused.
 */
import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve, sep } from 'node:path'

export const APP_SCHEME = 'app'
export const APP_HOST = 'bundle'
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/** The privileges registered before `app.ready` (protocol.registerSchemesAsPrivileged). */
export const appSchemePrivileges = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
} as const

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}

export function mimeTypeOf(path: string): string {
  return mimeTypes[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Maps an `app://bundle/<path>` URL to a file inside `rootDir`, or null when the URL is not ours or
 * would leave the folder. `/` maps to index.html (hash routes never reach the handler).
 */
export function resolveAppPath(rootDir: string, requestUrl: string): string | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return null // malformed escapes
  }
  if (path.includes('\0') || path.includes('\\')) return null
  if (path === '/' || path === '') path = '/index.html'
  const root = resolve(rootDir)
  const target = resolve(root, `.${path}`)
  const inside = relative(root, target)
  if (!inside || inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) return null
  return target
}

/**
 * The handler given to `protocol.handle('app', …)`. Every answer carries the CSP header, since
 * `webRequest` header hooks do not see custom protocols.
 */
export function createAppProtocolHandler(rootDir: string, csp: string): (request: { url: string }) => Promise<Response> {
  return async (request) => {
    const path = resolveAppPath(rootDir, request.url)
    if (!path) return new Response('Not found', { status: 404 })
    try {
      const body = await readFile(path)
      return new Response(body, { headers: { 'Content-Type': mimeTypeOf(path), 'Content-Security-Policy': csp } })
    } catch {
      return new Response('Not found', { status: 404 })
    }
  }
}
