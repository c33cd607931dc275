/**
 * Enter submits forms (product.md §5), also a dialog whose only field is a select: 任务分配 → 分配给… takes a member
 * typed, picked with Enter, the list closed with Escape, and is submitted by the next Enter (antd's Select would
 * take that Enter to open its list; components/FormModal submitOnEnter). Found by an outside tester.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { logIn } from './harness/session'
import { openMenu, poll, waitForRows } from './harness/ui'

describe.skipIf(!browserAvailable())('dialogs by keyboard', () => {
  let server: RunningServer
  let app: OpenApp
  let member: string
  beforeAll(async () => {
    ;({ server, app } = await startSuite({}))
    member = server.sql<{ username: string }>(
      "select username from users where role = 'normal' and status = 2 and site_uid is not null order by id limit 1",
    )[0]!.username
  })
  afterAll(() => stopSuite(server, app))

  it('assigns the selected torrent when the admin picks a member and presses Enter', async () => {
    const { page } = app
    await logIn(app, server, 'admin', server.adminPassword)
    await openMenu(page, '任务分配', 'task-assignment')
    await waitForRows(page)
    const before = server.sql<{ n: number }>('select count(*) as n from assignments')[0]!.n
    await page.locator('.ant-table-tbody tr.ant-table-row').first().locator('.ant-checkbox-input').check()
    await page.getByText('官种（已选 1 个）').waitFor()
    await page.getByRole('button', { name: /分配给/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('分配 1 个种子').waitFor()

    // The dialog puts the focus in its field: type the name, Enter picks it, Escape closes the list.
    const box = dialog.getByLabel('保种员', { exact: true })
    await poll(() => box.evaluate((node) => node === document.activeElement)).toBe(true)
    await page.keyboard.type(member)
    const option = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${member}"]`)
    await option.waitFor()
    await page.keyboard.press('Enter')
    await dialog.locator(`.ant-select-selection-item[title="${member}"]`).waitFor()
    await page.keyboard.press('Escape')
    await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0)
    // Still the dialog, the member chosen, the list closed, the focus in the field.
    expect(await dialog.isVisible()).toBe(true)
    await poll(() => box.evaluate((node) => node === document.activeElement)).toBe(true)

    await page.keyboard.press('Enter')
    // The assignment is saved and the dialog closes (as a click on 分配 does).
    await poll(() => server.sql<{ n: number }>('select count(*) as n from assignments')[0]!.n, 15_000).toBeGreaterThan(before)
    await poll(() => page.getByRole('dialog').count()).toBe(0)
  }, 120_000)
})

describe.runIf(!browserAvailable())('dialogs by keyboard (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
