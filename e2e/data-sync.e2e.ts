/**
 * 数据同步 end to end on the demo community: the page names the source, shows the last
 * run, and 立即同步 runs one through the real server (同步中 → 正常, a new end time, rows per
 * table, an operation-log row). The member form finds the synced site users by name. Screenshots 40–41.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, poll as pollFor } from './harness/ui'

/** expect.poll with room for a busy machine (a demo sync advances 200,000 records). */
const poll = <T>(read: () => T | Promise<T>) => pollFor(read, 60_000)

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim()

describe.skipIf(!browserAvailable())('数据同步 on demo data', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
  })

  beforeEach(async () => {
    await freshStart(app, server, 'admin', server.adminPassword)
  })

  afterAll(() => stopSuite(server, app))

  it('shows the demo source, runs a sync now and shows it finish with the rows it wrote', async () => {
    const { page } = app
    const items = page.locator('.ant-layout-sider .ant-menu-item')
    await items.first().waitFor()
    const titles = (await items.allTextContents()).map((title) => title.trim())
    expect(titles.slice(-2)).toEqual(['数据同步', '更新日志'])
    await openMenu(page, '数据同步', 'data-sync')

    await page.getByTestId('sync-summary').waitFor()
    expect(await text(page, 'sync-source')).toBe('演示数据')
    expect(await text(page, 'sync-health')).toBe('正常') // the demo's first generation counts as a run
    const finishedBefore = await text(page, 'sync-finished')
    expect(finishedBefore).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    expect(await page.getByTestId('sync-error').count()).toBe(0)

    // The demo's peers announce every 30–60 minutes, so a sync seconds after the first start has next to
    // nothing due and may finish between two looks at the page. As after a half-hour pause: every peer's
    // last announce and the demo's clock half an hour earlier, so the sync has steps and rows to show.
    server.sql('update site_peers set last_action = last_action - 1800000, prev_action = prev_action - 1800000')
    server.sql(
      "update sync_state set source_state = json_set(source_state, '$.lastAdvanceAt', json_extract(source_state, '$.lastAdvanceAt') - 1800000) where id = 1",
    )

    // Every state the health tag shows from now on (a short sync may be 同步中 for a moment only),
    // and every progress line (the step and rows so far).
    await page.evaluate(() => {
      const read = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim()
      const seen: string[] = [read('sync-health') ?? '']
      const progress: string[] = []
      Object.assign(window, { healthSeen: seen, progressSeen: progress })
      new MutationObserver(() => {
        const value = read('sync-health')
        if (value && seen.at(-1) !== value) seen.push(value)
        const line = read('sync-progress')
        if (line && progress.at(-1) !== line) progress.push(line)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await page.getByRole('button', { name: /立即同步/ }).click()
    await poll(() => page.evaluate(() => (window as unknown as { healthSeen: string[] }).healthSeen)).toContain('同步中')
    await poll(() => text(page, 'sync-health')).toBe('正常')
    await page.locator('.ant-message').getByText('同步完成').first().waitFor()
    expect(await page.evaluate(() => (window as unknown as { healthSeen: string[] }).healthSeen)).toEqual(['正常', '同步中', '正常'])
    // The progress moved while it ran: more than one step or count, each naming what it did.
    const progressSeen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)
    const steps = progressSeen.filter((line) => line !== '正在同步…')
    expect(steps.length, progressSeen.join(' | ')).toBeGreaterThanOrEqual(2)
    for (const line of steps) expect(line).toMatch(/^正在(读取 .+：[\d,]+|\S+)/)

    // The run is on record: its end after its start, the rows of each table it wrote.
    const [state] = server.sql<{ last_started_at: number; last_finished_at: number; last_error: string | null; rows: string }>(
      'select last_started_at, last_finished_at, last_error, rows from sync_state where id = 1',
    )
    expect(state!.last_error).toBeNull()
    expect(state!.last_finished_at).toBeGreaterThanOrEqual(state!.last_started_at)
    const rows = JSON.parse(state!.rows) as Record<string, number>
    expect(Object.keys(rows).length).toBeGreaterThan(0)
    const rowsTable = page.getByTestId('sync-rows')
    await rowsTable.locator('tbody tr.ant-table-row').first().waitFor()
    expect(await rowsTable.locator('tbody tr.ant-table-row').count()).toBe(Object.keys(rows).length)
    if (rows.site_snatched !== undefined) expect(await rowsTable.getByText('完成记录', { exact: true }).count()).toBe(1)
    const finishedAfter = await text(page, 'sync-finished')
    expect(finishedAfter).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    expect(finishedAfter >= finishedBefore).toBe(true)
    await app.screenshot('40-data-sync')

    const logged = server.sql<{ operator_name: string; detail: string }>(
      "select operator_name, detail from operation_log where action = 'sync.run'",
    )
    expect(logged).toEqual([{ operator_name: 'admin', detail: '立即同步（数据源：演示数据）' }])
  })

  it('保种员: the 站点 UID field finds the synced site users by name; members are marked', async () => {
    const { page } = app
    // A site user who is no member yet, and one who is.
    const [free] = server.sql<{ id: number; username: string }>(
      'select id, username from site_users where id not in (select site_uid from users where site_uid is not null) order by id limit 1',
    )
    const [taken] = server.sql<{ id: number; username: string }>(
      // An active 保种员's (a deleted or banned one's is marked so: 已是保种员（已删除）).
      "select s.id, s.username from site_users s join users u on u.site_uid = s.id where u.status = 2 and u.role = 'normal' order by s.id limit 1",
    )
    await openMenu(page, '保种员', 'normal-user')
    await page.getByRole('button', { name: /新建保种员/ }).click()
    const dialog = page.getByRole('dialog')
    const uid = dialog.getByLabel('站点 UID')

    await uid.fill(free!.username)
    const option = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${free!.username} (UID ${free!.id})"]`)
    await option.waitFor()
    await app.screenshot('41-normal-user-site-search')
    await option.click()
    await dialog.getByTitle(`${free!.username} (UID ${free!.id})`).waitFor()

    await uid.fill(String(taken!.id))
    const takenOption = page.locator(
      `.ant-select-dropdown:visible .ant-select-item-option[title="${taken!.username} (UID ${taken!.id}) 已是保种员"]`,
    )
    await takenOption.waitFor()
    expect(await takenOption.getAttribute('class')).toContain('ant-select-item-option-disabled')
    await dialog.getByRole('button', { name: /取\s*消/ }).click()
  })
})

describe.runIf(!browserAvailable())('数据同步 (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
