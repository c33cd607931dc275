/**
 * 更新日志 shows the bundled CHANGELOG.md with the current version's notes on top, and the 设置
 * dialog shows main's refusals (a bad server address, an update address that is not https) on the field, in
 * Chinese and naming the field by its label. Screenshots 34–35.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { logIn } from './harness/session'
import { buttonIn, poll, waitForTitle } from './harness/ui'

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }

describe.skipIf(!browserAvailable())('更新日志 and 设置', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
    await logIn(app, server, 'admin', server.adminPassword)
  })

  afterAll(() => stopSuite(server, app))

  it("shows the current version's notes first, from the last menu entry", async () => {
    const { page } = app
    const items = page.locator('.ant-layout-sider .ant-menu-item')
    await items.first().waitFor()
    expect((await items.last().textContent())?.trim()).toBe('更新日志')
    await items.last().click()
    await page.waitForURL(/#\/changelog/)
    await waitForTitle(page, '更新日志')
    const cards = page.locator('[data-testid^="release-"]')
    await cards.first().waitFor()
    expect(await cards.first().getAttribute('data-testid')).toBe(`release-${version}`)
    const current = page.getByTestId(`release-${version}`)
    expect(await current.getByText('当前版本').count()).toBe(1)
    expect(await current.locator('li').count()).toBeGreaterThan(0)
    await app.screenshot('34-changelog')
  })

  it('opens 设置 from the user menu and keeps a refused address on the field', async () => {
    const { page } = app
    await page.getByTestId('user-menu').click()
    await page.locator('.ant-dropdown').getByText('设置', { exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '设置' })
    await dialog.waitFor()
    const address = dialog.getByLabel('服务器地址', { exact: true })
    expect(await address.inputValue()).toBe(`${server.url}/api/v1`)
    await address.fill('ftp://example.org')
    await buttonIn(dialog, '保存').click()
    await dialog.getByText('请输入 http:// 或 https:// 开头的地址').waitFor()
    expect(await address.inputValue()).toBe('ftp://example.org')
    await app.screenshot('35-settings')
    await buttonIn(dialog, '取消').click()
    await dialog.waitFor({ state: 'hidden' })
    // Still logged in: nothing was saved.
    expect(page.url()).toMatch(/#\/changelog/)
  })

  it('refuses an update address that is not https in Chinese, naming the field 更新服务器地址 (not `updateUrl`)', async () => {
    const { page } = app
    await page.getByTestId('user-menu').click()
    await page.locator('.ant-dropdown').getByText('设置', { exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '设置' })
    await dialog.waitFor()
    await dialog.getByLabel('更新服务器地址').fill('http://updates.example.com/console/')
    await buttonIn(dialog, '保存').click()
    const error = dialog.locator('.ant-form-item-explain-error')
    await poll(() => error.count()).toBeGreaterThan(0)
    const text = (await error.first().textContent()) ?? ''
    expect(text).toContain('更新服务器地址')
    expect(text).toContain('https://')
    // What the user reads is Chinese: no internal field key.
    expect(text).not.toMatch(/updateUrl|[A-Za-z]+Url/)
    await buttonIn(dialog, '取消').click()
    await dialog.waitFor({ state: 'hidden' })
  })
})

describe.runIf(!browserAvailable())('更新日志 (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
