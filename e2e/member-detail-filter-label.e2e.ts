/**
 * Found by an outside tester (a fault, fixed since; the test shows it stays fixed):
 *
 * 保种员详情: the drawer's seed-record search form and the 保种员 search form behind it both give their status field
 * the id `status` (antd ids a field by its name when the form has none). The drawer's 状态 label therefore points at
 * the page's 账号状态 select behind the drawer: clicking 状态 does not put the focus in the drawer's 状态 field, and the
 * field has no name for assistive technology (it is announced as an unnamed combobox). FormModal prefixes its ids for
 * exactly this reason; the tables' search form (components/DataTable/SearchForm) does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, poll, waitForRows } from './harness/ui'

describe.skipIf(!browserAvailable())('保种员详情: the record filters are labelled', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
  })

  afterAll(() => stopSuite(server, app))

  it('the drawer’s 状态 label names and focuses the drawer’s own 状态 field', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '保种员', 'normal-user')
    await waitForRows(page)
    await page.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').first().locator('a').click()
    const drawer = page.locator('.ant-drawer', { hasText: '保种员详情' })
    const form = drawer.getByTestId('data-table-search')
    await form.waitFor()

    // The field is found by its label inside the drawer (as a screen reader names it).
    expect(await form.getByLabel('状态', { exact: true }).count()).toBe(1)

    // A click on the label puts the focus in that field.
    await form.locator('label', { hasText: /^状态$/ }).click()
    await poll(() =>
      page.evaluate(() => {
        const focused = document.activeElement
        return !!focused?.closest('.ant-drawer [data-testid="data-table-search"]') && focused.getAttribute('role') === 'combobox'
      }),
    ).toBe(true)
  })
})

describe.runIf(!browserAvailable())('保种员详情 labels (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
