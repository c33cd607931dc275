/**
 * 首页 after an admin's rule change agrees with 任务分配: the admin raises 目标保种人数 in 官种设置 → 官种规则; the
 * torrents are re-labelled, and the dashboard's figures (cached, refreshed by each sync) are refreshed after that pass
 * too — they used to keep the old rules' 官种完成率 until the next sync or 刷新统计 (which members do not have).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, poll, spaced, tableTotal, toast, waitForRows, waitForTableSettled } from './harness/ui'

describe.skipIf(!browserAvailable())('首页 after a rule change', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
  })

  afterAll(() => stopSuite(server, app))

  /** `已完成 3,970 / 5,097` on the 官种完成率 card → 3970. */
  async function dashboardCompleted(): Promise<number> {
    const { page } = app
    await openMenu(page, '首页', /#\/$/)
    const note = page.getByTestId('stat-官种完成率').getByText(/^已完成/)
    await note.waitFor()
    const text = (await note.textContent()) ?? ''
    return Number(text.replace(/\/.*$/, '').replace(/[^\d]/g, ''))
  }

  /** 任务分配 filtered by 完成情况 = 官种已完成: its total. */
  async function listedCompleted(): Promise<number> {
    const { page } = app
    await openMenu(page, '任务分配', 'task-assignment')
    await waitForRows(page)
    const form = page.getByTestId('data-table-search')
    await form.getByLabel('完成情况', { exact: true }).click()
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="官种已完成"]').click()
    await form.getByRole('button', { name: spaced('查询') }).click()
    await waitForTableSettled(page)
    await poll(async () => (await form.getByLabel('完成情况', { exact: true }).locator('..').textContent()) ?? '').toContain('官种已完成')
    await waitForTableSettled(page)
    return tableTotal(page)
  }

  it('官种完成率 on 首页 agrees with 任务分配 right after 目标保种人数 is raised', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    const before = await listedCompleted()
    expect(await dashboardCompleted()).toBe(before) // they agree to start with

    await openMenu(page, '官种设置', 'torrent-manage')
    const target = page.getByLabel('目标保种人数')
    await target.waitFor()
    const current = Number(await target.inputValue())
    await target.fill(String(current + 1))
    await page
      .getByRole('button', { name: spaced('保存') })
      .first()
      .click()
    await toast(page, /已保存为规则版本 v2/)

    // The torrents are re-labelled: fewer reach the higher target.
    let after = before
    await poll(async () => (after = await listedCompleted())).toBeLessThan(before)

    // 首页 shows the same figure once its background refresh is in (a user opening it now, a reload).
    await poll(async () => {
      await page.reload()
      return dashboardCompleted()
    }).toBe(after)
  })
})
