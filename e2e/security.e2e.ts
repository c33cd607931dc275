/** The renderer's walls, seen from inside the page: the CSP and the navigation limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, useElectron, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { poll } from './harness/ui'

describe.skipIf(!browserAvailable())('security', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite({ presetAddress: 'server' }))
    await app.page.getByRole('button', { name: '登录' }).waitFor()
  })
  afterAll(() => stopSuite(server, app))

  it('does not run an inline script injected into the page (CSP)', async () => {
    const violations = await app.page.evaluate(async () => {
      const seen: string[] = []
      document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective))
      const reported = new Promise((resolve) => document.addEventListener('securitypolicyviolation', resolve, { once: true }))
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.head.appendChild(script)
      await reported
      return seen
    })
    expect(await app.page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined()
    expect(violations.some((directive) => directive.startsWith('script-src'))).toBe(true)
  })

  it('does not load a script from another origin (CSP)', async () => {
    const loaded = await app.page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const script = document.createElement('script')
          script.src = 'https://cdn.example.com/evil.js'
          script.onload = () => resolve(true)
          script.onerror = () => resolve(false)
          document.head.appendChild(script)
        }),
    )
    expect(loaded).toBe(false)
  })

  it('refuses to navigate to an outside URL and stays on the app', async () => {
    const before = app.page.url()
    await app.page.evaluate(() => {
      window.location.href = 'https://example.com/phishing'
    })
    if (!useElectron) await poll(() => app.mainLog).toContain('navigation refused: https://example.com/phishing')
    await app.page.getByRole('button', { name: '登录' }).waitFor()
    expect(new URL(app.page.url()).origin).toBe(new URL(before).origin)
  })

  it('refuses to open new windows', async () => {
    await app.page.evaluate(() => void window.open('https://example.com/popup'))
    if (!useElectron) await poll(() => app.mainLog.some((line) => line.startsWith('new window refused'))).toBe(true)
    await poll(() => app.page.context().pages().length).toBe(1)
  })
})
