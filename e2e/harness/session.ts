/** Logging in and out through the UI, as every browser suite does. */
import type { OpenApp } from './app'
import type { RunningServer } from './api-server'

/** Fills the login page (server address, username, password) and presses 登录. */
export async function submitLogin(app: OpenApp, server: RunningServer, username: string, password: string): Promise<void> {
  const { page } = app
  await app.goto('/login')
  await page.getByLabel('服务器地址', { exact: true }).fill(server.url)
  await page.getByLabel('用户名').fill(username)
  await page.getByLabel('密码').fill(password)
  await page.getByRole('button', { name: '登录' }).click()
}

/** Logs in and waits until the app has left the login page. */
export async function logIn(app: OpenApp, server: RunningServer, username: string, password: string): Promise<void> {
  await submitLogin(app, server, username, password)
  await app.page.waitForURL((url) => !url.hash.startsWith('#/login'))
}

/** 退出登录 from the header's user menu (the menu item, not a log row with the same words). */
export async function logOut(app: OpenApp): Promise<void> {
  await app.page.getByTestId('user-menu').click()
  await app.page.locator('.ant-dropdown-menu').getByText('退出登录', { exact: true }).click()
  await app.page.waitForURL(/#\/login/)
}

/**
 * Starts a step on a freshly loaded home page as this user, whatever an earlier step left behind
 * (an open dialog, a popover, another user's session): a failed step must not fail the next ones.
 * The session lives in the main process, so a reload keeps it.
 */
export async function freshStart(app: OpenApp, server: RunningServer, username: string, password: string): Promise<void> {
  const { page } = app
  await app.goto('/')
  await page.reload()
  const menu = page.getByTestId('user-menu')
  const login = page.getByRole('button', { name: '登录' })
  await menu.or(login).first().waitFor()
  if (await menu.isVisible()) {
    if (((await menu.textContent()) ?? '').trim() === username) return
    await logOut(app)
  }
  await logIn(app, server, username, password)
}
