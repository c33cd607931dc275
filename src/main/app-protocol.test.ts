import { describe, expect, it } from 'vitest'
import { APP_URL, mimeTypeOf, resolveAppPath } from './app-protocol'

const root = '/opt/app/out/renderer'

describe('app:// protocol', () => {
  it('serves files inside the renderer folder', () => {
    expect(resolveAppPath(root, APP_URL)).toBe('/opt/app/out/renderer/index.html')
    expect(resolveAppPath(root, 'app://bundle/')).toBe('/opt/app/out/renderer/index.html')
    expect(resolveAppPath(root, 'app://bundle/assets/index-abc.js')).toBe('/opt/app/out/renderer/assets/index-abc.js')
    expect(resolveAppPath(root, 'app://bundle/assets/%E4%B8%AD.js')).toBe('/opt/app/out/renderer/assets/中.js')
  })

  it.each(['app://bundle/../main/index.js', 'app://bundle/%2e%2e/%2e%2e/etc/passwd', 'app://bundle/a/../../../etc/passwd'])(
    'keeps %s inside the folder (the URL parser clamps dot segments at the root)',
    (url) => {
      const path = resolveAppPath(root, url)
      expect(path === null || path.startsWith(`${root}/`)).toBe(true)
      expect(path).not.toBe('/opt/app/out/main/index.js')
      expect(path).not.toBe('/etc/passwd')
    },
  )

  it.each([
    'app://bundle/..%2Fmain%2Findex.js',
    'app://bundle/assets/..%2F..%2F..%2Fetc%2Fpasswd',
    'app://bundle/assets%5C..%5C..%5Cmain%5Cindex.js',
    'app://bundle/index.html%00.png',
    'app://bundle/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppPath(root, url)).toBeNull()
  })

  it('names the content types the renderer needs', () => {
    expect(mimeTypeOf('a/index.html')).toBe('text/html; charset=utf-8')
    expect(mimeTypeOf('a/x.JS')).toBe('text/javascript; charset=utf-8')
    expect(mimeTypeOf('CHANGELOG.md')).toBe('text/markdown; charset=utf-8')
    expect(mimeTypeOf('blob.bin')).toBe('application/octet-stream')
  })
})

describe('app:// handler', () => {
  it('serves the file with its type and the CSP, and 404s anything outside', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { createAppProtocolHandler } = await import('./app-protocol')
    const dir = mkdtempSync(join(tmpdir(), 'app-proto-'))
    mkdirSync(join(dir, 'renderer'))
    writeFileSync(join(dir, 'renderer/index.html'), '<h1>ok</h1>')
    writeFileSync(join(dir, 'secret.txt'), 'token')
    const handle = createAppProtocolHandler(join(dir, 'renderer'), "default-src 'self'")

    const page = await handle({ url: 'app://bundle/index.html' })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe("default-src 'self'")
    expect(await page.text()).toBe('<h1>ok</h1>')

    expect((await handle({ url: 'app://bundle/..%2Fsecret.txt' })).status).toBe(404)
    expect((await handle({ url: 'app://bundle/missing.js' })).status).toBe(404)
  })
})
