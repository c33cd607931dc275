/**
 * The 保种员 dialogs (新建保种员, 编辑保种员) on the demo community:
 * - what the admin typed survives a save that meets an ended login: the app goes to the login page, and after
 *   logging in again the dialog opens once more with the draft (the initial password is never kept);
 * - the 站点 UID search names who holds a taken uid by their role (an admin's uid is 已是管理员, not 已是保种员);
 * - a server refusal about a field goes once the user has changed that field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { buttonIn, openMenu, poll, searchTable, spaced, tableTotal, waitForRows } from './harness/ui'

const REMARK = '周末换硬盘，下周一恢复做种（草稿）'

describe.skipIf(!browserAvailable())('保种员 dialogs', () => {
  let server: RunningServer
  let app: OpenApp
  /** An active demo member without a remark. */
  let member: string

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
    member = server.sql<{ username: string }>(
      "select username from users where role = 'normal' and status = 2 and remark = '' order by id limit 1",
    )[0]!.username
  })

  beforeEach(async () => {
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(app.page, '保种员', 'normal-user')
    await waitForRows(app.page)
  })

  afterAll(() => stopSuite(server, app))

  /**
   * Ends the session on the server while the app still shows the page: the same admin, on another computer, resets
   * the account's password (to the same value), which ends every session of the account.
   */
  async function endSession() {
    const login = await fetch(`${server.apiBase}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    })
    const token = ((await login.json()) as { data: string }).data
    const id = server.sql<{ id: number }>("select id from users where username = 'admin'")[0]!.id
    const reset = await fetch(`${server.apiBase}/user/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'access-token': token },
      body: JSON.stringify({ id, password: server.adminPassword }),
    })
    expect(((await reset.json()) as { code: number }).code).toBe(200)
  }

  async function logInAgain() {
    const { page } = app
    await page.waitForURL(/#\/login/)
    await page.getByLabel('用户名').fill('admin')
    await page.getByLabel('密码').fill(server.adminPassword)
    await page.getByRole('button', { name: '登录' }).click()
    await page.waitForURL(/#\/normal-user/)
  }

  it('编辑保种员: the remark typed before a 保存 that met an ended login is back in the dialog after logging in again', async () => {
    const { page } = app
    await searchTable(page, { 用户名包含的文字: member })
    await poll(() => tableTotal(page)).toBe(1)
    await page
      .locator('.ant-table-tbody tr.ant-table-row')
      .first()
      .getByRole('button', { name: spaced('编辑') })
      .click()
    const dialog = page.getByRole('dialog', { name: /编辑保种员/ })
    await dialog.getByLabel('备注').fill(REMARK)

    await endSession()
    await buttonIn(dialog, '保存').click()
    await logInAgain()
    // Nothing was saved: the server refused the call.
    expect(server.sql<{ remark: string }>('select remark from users where username = ?', member)[0]!.remark).toBe('')

    // The dialog opens again by itself, for the same member, with the draft.
    const again = page.getByRole('dialog', { name: new RegExp(`编辑保种员 · ${member}`) })
    await again.getByTestId('member-draft').waitFor()
    expect(await again.getByLabel('备注').inputValue()).toBe(REMARK)
    await app.screenshot('member-edit-draft')
    // 取消 drops it.
    await buttonIn(again, '取消').click()
    await again.waitFor({ state: 'hidden' })
    await poll(() => page.evaluate(() => window.sessionStorage.length)).toBe(0)
  })

  it('新建保种员: the username and remark typed before a 创建 that met an ended login are back, the password is not', async () => {
    const { page } = app
    await page.getByRole('button', { name: /新建保种员/ }).click()
    const dialog = page.getByRole('dialog', { name: /新建保种员/ })
    await dialog.getByLabel('用户名').fill('draft_newbie')
    await dialog.getByLabel('初始密码').fill('Draft-newbie-pass-1')
    await dialog.getByLabel('备注').fill(REMARK)

    await endSession()
    await buttonIn(dialog, '创建').click()
    await logInAgain()
    expect(server.sql("select id from users where username = 'draft_newbie'")).toHaveLength(0)

    await dialog.getByTestId('member-draft').waitFor()
    expect(await dialog.getByLabel('用户名').inputValue()).toBe('draft_newbie')
    expect(await dialog.getByLabel('备注').inputValue()).toBe(REMARK)
    expect(await dialog.getByLabel('初始密码').inputValue()).toBe('')
    // The password was never written down.
    expect(await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }))).not.toContain('Draft-newbie-pass-1')
    await buttonIn(dialog, '取消').click()
    await dialog.waitFor({ state: 'hidden' })
  })

  it('站点 UID: a uid held by an admin is offered as taken, 已是管理员 (not 已是保种员)', async () => {
    const { page } = app
    await page.getByRole('button', { name: /新建保种员/ }).click()
    const holder = server.sql<{ username: string; site_uid: number }>(
      "select username, site_uid from users where role = 'admin' and site_uid is not null order by id limit 1",
    )[0]!
    const dialog = page.getByRole('dialog', { name: /新建保种员/ })
    await dialog.getByLabel('站点 UID').fill(String(holder.site_uid))
    // The site-user search answers after a short delay: wait for the option naming the site user.
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: holder.username })
    await option.waitFor()
    expect(await option.getAttribute('class')).toContain('ant-select-item-option-disabled')
    const text = (await option.textContent()) ?? ''
    expect(text).toContain('已是管理员')
    expect(text).not.toContain('已是保种员')
  })

  it('用户名: the server’s refusal goes once the user has corrected the name', async () => {
    const { page } = app
    await page.getByRole('button', { name: /新建保种员/ }).click()
    const dialog = page.getByRole('dialog', { name: /新建保种员/ })
    await dialog.getByLabel('用户名').fill('test user 空格')
    await dialog.getByLabel('初始密码').fill('Outside-test-pass-1')
    await buttonIn(dialog, '创建').click()
    const refusal = dialog.getByTestId('form-error')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain('用户名：只能包含')

    await dialog.getByLabel('用户名').fill('valid_user_1')
    // The name is valid now (letters, digits, underscore): nothing says it is not.
    await refusal.waitFor({ state: 'detached' })
    expect(await dialog.getByText(/用户名：只能包含/).count()).toBe(0)
  })
})

describe.runIf(!browserAvailable())('保种员 dialogs (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
