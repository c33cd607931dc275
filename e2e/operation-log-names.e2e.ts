/**
 * Found by an outside tester (a fault, fixed since; the test shows it stays fixed):
 *
 * 操作日志 is the record of who did what to whom. 分配任务 and 取消分配 name their torrents (`#编号《名称》`), but
 * - 标记已发放 says `标记已发放：2 条，此前已发放 0 条（记录 198, 197）`: internal wage-record ids — the log never says
 *   whose wages were marked paid (its 对象 reads just 工资记录);
 * - 设置种子类型 says `种子类型：按规则 → 官种（手动） 1 个：100383`: a bare number, not the torrent's name.
 * An admin checking who was paid, or which torrent was made official by hand, cannot tell from the log.
 */
import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import { postAsAdmin, type RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { confirmPopover, openMenu, pick, poll, spaced, toast, waitForRows } from './harness/ui'

const PERIOD = dayjs().subtract(1, 'month').format('YYYY-MM')

/** The 详情 of the newest log row of this action, as the 操作日志 page shows it. */
async function latestDetail(page: Page, action: string): Promise<string> {
  await openMenu(page, '操作日志', 'operation-history')
  await waitForRows(page)
  const search = page.getByTestId('operation-log-search')
  await pick(search, page, '操作', action)
  await search.getByRole('button', { name: spaced('查询') }).click()
  const row = page.locator('.ant-table-tbody tr.ant-table-row').first()
  await poll(() => row.locator('td').nth(2).textContent()).toBe(action)
  return ((await row.locator('td').nth(4).textContent()) ?? '').trim()
}

describe.skipIf(!browserAvailable())('操作日志 names whom and what', () => {
  let server: RunningServer
  let app: OpenApp

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
    await postAsAdmin(server, '/wages/compute', { period: PERIOD })
  })

  afterAll(() => stopSuite(server, app))

  it('标记已发放: the log row names the members whose wages were marked paid', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '工资计算', /#\/salary-computed/)
    const records = page.locator('.ant-card', { hasText: `${PERIOD} 已生成的工资` }).last()
    const rows = records.locator('.ant-table-tbody tr.ant-table-row')
    await rows.first().waitFor()
    const members: string[] = []
    for (const index of [0, 1]) {
      const name = ((await rows.nth(index).locator('td').nth(1).textContent()) ?? '').trim()
      members.push(name)
      await page.getByLabel(`选择 ${name}`).check()
    }
    await page.getByRole('button', { name: /标记已发放（2）/ }).click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm.getByRole('button', { name: '标记已发放' }).click()
    await toast(page, '已将 2 条标记为已发放')

    const detail = await latestDetail(page, '标记已发放')
    for (const name of members) expect(detail).toContain(name)
  }, 120_000)

  it('设置种子类型: the log row names the torrent by its name', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openMenu(page, '官种设置', 'torrent-manage')
    await page.getByRole('tab', { name: '种子列表' }).click()
    await waitForRows(page)
    const row = page.locator('.ant-table-tbody tr.ant-table-row').first()
    const id = await row.getAttribute('data-row-key')
    const name = server.sql<{ name: string }>('select name from site_torrents where id = ?', Number(id))[0]!.name
    await row.locator('.ant-checkbox-input').check()
    await page.getByRole('button', { name: spaced('设为官种') }).click()
    await confirmPopover(page, '设为官种')
    await toast(page, '已将 1 个种子设为官种')

    // The cell may cut a long name short (…): its start names the torrent.
    const detail = await latestDetail(page, '设置种子类型')
    expect(detail).toContain(`#${id}《${[...name].slice(0, 3).join('')}`)
  }, 120_000)
})

describe.runIf(!browserAvailable())('操作日志 names (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
