/**
 * The walking skeleton end to end: the built renderer, the real main-process handlers and the real
 * server. Screenshots of each state land in e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { logIn, logOut, submitLogin } from './harness/session'
import { poll, waitForMotionEnd, waitForTitle } from './harness/ui'

/** Relative luminance of an element's background: dark theme < 0.2, light theme > 0.8. */
async function backgroundLuminance(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const [r, g, b] = getComputedStyle(element)
        .backgroundColor.match(/\d+(\.\d+)?/g)!
        .map(Number)
      return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255
    })
}

/**
 * WCAG contrast of the selected side-menu entry's text against its highlight (the item's background over
 * whatever is below it), once the pointer is away and its colour transition has ended. AA for 14 px text: 4.5.
 */
async function selectedMenuContrast(page: Page, title: string): Promise<number> {
  const selected = page.locator('.ant-menu-item-selected', { hasText: title })
  await selected.waitFor()
  await page.mouse.move(900, 500)
  await waitForMotionEnd(page)
  return selected.evaluate((item) => {
    const rgba = (css: string) => {
      const parts = css.match(/[\d.]+/g)!.map(Number)
      return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 }
    }
    type Rgba = ReturnType<typeof rgba>
    const over = (top: Rgba, under: Rgba): Rgba => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    })
    const layers: Rgba[] = []
    for (let node: Element | null = item; node; node = node.parentElement) {
      const bg = rgba(getComputedStyle(node).backgroundColor)
      if (bg.a > 0) layers.push(bg)
      if (bg.a === 1) break
    }
    let background: Rgba = { r: 0, g: 0, b: 0, a: 1 }
    for (const layer of layers.reverse()) background = over(layer, background)
    const text = over(rgba(getComputedStyle(item.querySelector('.ant-menu-title-content')!).color), background)
    const luminance = ({ r, g, b }: Rgba) => {
      const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a)
    return (light! + 0.05) / (dark! + 0.05)
  })
}

describe.skipIf(!browserAvailable())('logged in end to end', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
  })

  afterAll(() => stopSuite(server, app))

  it('sends a visitor without a session to the login page', async () => {
    await app.page.waitForURL(/#\/login/)
    await app.page.getByRole('button', { name: '登录' }).waitFor()
    await poll(() => app.page.title()).toContain('保种管理台')
    await app.screenshot('01-login')
  })

  it("shows the server's message for a wrong password and keeps what was typed", async () => {
    await submitLogin(app, server, 'admin', 'wrong-password')
    await app.page.getByText('用户名或密码错误').waitFor()
    expect(await app.page.getByLabel('用户名').inputValue()).toBe('admin')
    expect(await app.page.getByLabel('服务器地址', { exact: true }).inputValue()).toBe(server.url)
    await app.screenshot('02-login-wrong-password')
  })

  it('logs in to the dark Chinese layout', async () => {
    await logIn(app, server, 'admin', server.adminPassword)
    await app.page.getByRole('menuitem', { name: /首页/ }).waitFor()
    await app.page.getByText('admin').first().waitFor()
    expect(await backgroundLuminance(app.page, '.ant-layout')).toBeLessThan(0.2)
    await waitForTitle(app.page, '首页')
    await app.screenshot('03-home-dark')
  })

  it('dark theme: the selected menu entry is readable against its highlight (contrast ≥ 4.5:1)', async () => {
    expect(await selectedMenuContrast(app.page, '首页')).toBeGreaterThanOrEqual(4.5)
  })

  it('switches to the light theme and keeps it after a reload', async () => {
    await app.page.getByTestId('theme-switch').click()
    await expect.poll(() => backgroundLuminance(app.page, '.ant-layout')).toBeGreaterThan(0.8)
    await app.page.reload()
    await app.page.getByRole('menuitem', { name: /首页/ }).waitFor()
    expect(await backgroundLuminance(app.page, '.ant-layout')).toBeGreaterThan(0.8)
    await app.screenshot('04-home-light')
  })

  it('light theme: the selected menu entry is readable against its highlight (contrast ≥ 4.5:1)', async () => {
    expect(await selectedMenuContrast(app.page, '首页')).toBeGreaterThanOrEqual(4.5)
  })

  it('shows the 404 page for an unknown route', async () => {
    await app.goto('/no-such-page')
    await app.page.getByText('抱歉，你访问的页面不存在。').waitFor()
    await app.screenshot('05-not-found')
    await app.page.getByRole('button', { name: '返回首页' }).click()
    await app.page.getByRole('menuitem', { name: /首页/ }).waitFor()
  })

  it('logs out to the login page, and the old token is dead on the server', async () => {
    const before = server.sql<{ n: number }>('select count(*) as n from sessions where revoked_at is null')[0]!.n
    await logOut(app)
    const after = server.sql<{ n: number }>('select count(*) as n from sessions where revoked_at is null')[0]!.n
    expect(after).toBe(before - 1)
    await app.goto('/')
    await app.page.waitForURL(/#\/login/)
    await app.screenshot('06-logged-out')
  })

  it('sends a user whose session expired to the login page', async () => {
    await logIn(app, server, 'admin', server.adminPassword)
    await app.page.getByRole('menuitem', { name: /首页/ }).waitFor()
    // Seven days idle: age every session past the limit, as if the app had been closed for 8 days.
    server.sql('update sessions set last_seen_at = last_seen_at - ?, expires_at = expires_at - ?', 8 * 86_400_000, 8 * 86_400_000)
    // A change written behind the server's back reaches it like one from another server process: within
    // its session cache's bound (README: 2 s). Reload until the app finds the session gone.
    await poll(async () => {
      await app.page.reload()
      await app.page
        .getByTestId('user-menu')
        .or(app.page.getByRole('button', { name: '登录' }))
        .first()
        .waitFor()
      return new URL(app.page.url()).hash
    }).toMatch(/^#\/login/)
    await app.screenshot('07-expired')
  })
})

describe.runIf(!browserAvailable())('logged in end to end (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
