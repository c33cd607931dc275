/**
 * Every screen at 1360×860 (a common laptop window) on the demo community, as an admin and as a
 * member: a screenshot of each (e2e/screenshots/layout-*.png), and for each visible table its key
 * columns — the first one, which names the row, and a fixed 操作 column — must be in view and not
 * covered by anything (a sticky header, a fixed column, a drawer's edge): a wide table scrolls
 * sideways with those columns fixed instead of clipping them. At 1280×800 (the smallest laptop
 * window) the widest tables (admin and member) keep their key columns in view without scrolling
 * sideways too. A key column that is not there at all (renamed, hidden by default) is a problem as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { browserAvailable, screenshotDir, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { buttonIn, openMenu, poll, spaced, toast, waitForMotionEnd, waitForRows, waitForTableSettled } from './harness/ui'

const MEMBER_PASSWORD = 'E2e-member-pass-9'

/** A key column of a visible table that is off-screen, clipped or covered. */
interface LayoutProblem {
  table: string
  column: string
  problem: string
}

/**
 * Runs in the page. For each visible table: the header cells of its first column (after the
 * selection checkboxes) and of any column fixed to the end, and the first row's cell under the first
 * header, must lie inside the viewport and inside the table's own visible box, and the element
 * drawn at each cell's centre must be that cell (or inside it).
 */
function keyColumnProblems({ withRows, keys }: { withRows: boolean; keys: string[] }): LayoutProblem[] {
  const problems: LayoutProblem[] = []
  const viewport = { width: window.innerWidth, height: window.innerHeight }
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect()
    return box.width > 0 && box.height > 0
  }
  // With a drawer or a dialog open, the tables behind it are covered on purpose: check the top layer.
  const layers = Array.from(document.querySelectorAll('.ant-drawer, .ant-modal-wrap')).filter(visible)
  const scope = layers.at(-1) ?? document
  const wrappers = Array.from(scope.querySelectorAll('.ant-table-wrapper')).filter(visible)
  const seen = new Set<string>()
  for (const wrapper of wrappers) {
    const headerRow = wrapper.querySelector('.ant-table-thead > tr:last-child')
    if (!headerRow) continue
    const headers = Array.from(headerRow.querySelectorAll(':scope > th')).filter(
      (th) => visible(th) && !th.classList.contains('ant-table-selection-column') && !th.classList.contains('ant-table-cell-scrollbar'),
    )
    if (headers.length === 0) continue
    const table = headers.map((th) => th.textContent?.trim()).join(' | ')
    for (const th of headers) seen.add(th.textContent?.trim() ?? '')
    const fixedEnd = headers.filter((th, index) => index > 0 && /cell-fix-(end|right)/.test(th.className))
    // The screen's own key columns, in view without scrolling the table sideways.
    const named = headers.filter((th, index) => index > 0 && keys.includes(th.textContent?.trim() ?? ''))
    const firstRow = wrapper.querySelector('.ant-table-tbody > tr.ant-table-row')
    const firstCell = firstRow
      ? Array.from(firstRow.querySelectorAll(':scope > td')).find((td) => !td.classList.contains('ant-table-selection-column'))
      : undefined
    const cells: [string, Element][] = [
      [`表头「${headers[0].textContent?.trim()}」`, headers[0]],
      ...[...fixedEnd, ...named].map((th): [string, Element] => [`表头「${th.textContent?.trim()}」`, th]),
      ...(firstCell && withRows ? [[`第一行「${headers[0].textContent?.trim()}」`, firstCell] as [string, Element]] : []),
    ]
    // The table's own visible box: its scrolling area clipped by every scrolling ancestor (a drawer, a card).
    const holder = wrapper.querySelector('.ant-table-body, .ant-table-content') ?? wrapper
    let clip = holder.getBoundingClientRect()
    for (let node = wrapper.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node)
      if (/(auto|scroll|hidden|clip)/.test(style.overflowX + style.overflowY)) {
        const box = node.getBoundingClientRect()
        clip = new DOMRect(
          Math.max(clip.left, box.left),
          clip.top,
          Math.min(clip.right, box.right) - Math.max(clip.left, box.left),
          clip.height,
        )
      }
    }
    // A sticky header stuck below its scroll area's top edge lets the rows scrolled past show above it.
    const stuck = wrapper.querySelector('.ant-table-header')?.getBoundingClientRect()
    if (stuck && stuck.top > 1) {
      const above = document.elementFromPoint(stuck.left + 20, stuck.top - 3)
      if (above && wrapper.querySelector('.ant-table-tbody')?.contains(above)) {
        problems.push({ table, column: '表头', problem: `表头上方露出了表格行（表头位于 ${Math.round(stuck.top)}）` })
      }
    }
    for (const [column, cell] of cells) {
      // Vertically into view; the row (not the cell) keeps the table's sideways scroll at its start.
      cell.parentElement!.scrollIntoView({ block: 'nearest' })
      const box = cell.getBoundingClientRect()
      const clipNow = clip
      if (box.left < -0.5 || box.right > viewport.width + 0.5 || box.top < -0.5 || box.bottom > viewport.height + 0.5) {
        problems.push({
          table,
          column,
          problem: `不在窗口内 (${Math.round(box.left)}, ${Math.round(box.top)}, ${Math.round(box.right)}, ${Math.round(box.bottom)})`,
        })
        continue
      }
      if (box.left < clipNow.left - 0.5 || box.right > clipNow.right + 0.5) {
        problems.push({
          table,
          column,
          problem: `被截断：${Math.round(box.left)}–${Math.round(box.right)}，可见区域 ${Math.round(clipNow.left)}–${Math.round(clipNow.right)}`,
        })
        continue
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      if (!hit || !(cell === hit || cell.contains(hit))) {
        problems.push({
          table,
          column,
          problem: `被遮挡：中心点是 ${hit ? `${hit.tagName.toLowerCase()}.${String(hit.className).split(' ')[0]}「${hit.textContent?.trim().slice(0, 20)}」` : '无'}`,
        })
      }
    }
  }
  // A key column that is not there at all (renamed, hidden by default) is not in view either.
  for (const key of keys.filter((name) => !seen.has(name))) problems.push({ table: '-', column: `表头「${key}」`, problem: '没有这一列' })
  return problems
}

/** Waits until the page's tables have their first answer and no table is loading. */
async function waitForTables(page: Page): Promise<void> {
  await poll(() => page.getByTestId('data-table-skeleton').count()).toBe(0)
  await poll(() => page.locator('.ant-skeleton:visible').count()).toBe(0)
  await waitForTableSettled(page)
}

/** A screenshot of the window as the user sees it, then the key-column check. */
async function checkScreen(app: OpenApp, name: string, { withRows = true, keys = [] as string[] } = {}): Promise<void> {
  const { page } = app
  await page.mouse.move(0, 0)
  // A drawer whose rows came from the cache is in view before it has finished sliding in.
  await waitForMotionEnd(page)
  await page.screenshot({ path: join(screenshotDir, `layout-${name}.png`) })
  const problems = await page.evaluate(keyColumnProblems, { withRows, keys })
  expect(problems, name).toEqual([])
}

/** The pages of the side menu: title, route, whether it shows a table. */
const adminPages: { title: string; path: string; table: boolean }[] = [
  { title: '首页', path: '', table: false },
  { title: '工资排行', path: 'rank', table: true },
  { title: '任务分配', path: 'task-assignment', table: true },
  { title: '管理员', path: 'admin-user', table: true },
  { title: '保种员', path: 'normal-user', table: true },
  { title: '工资计算', path: 'salary-computed', table: true },
  { title: '工资统计', path: 'salary-stats', table: false },
  { title: '官种设置', path: 'torrent-manage', table: false },
  { title: '操作日志', path: 'operation-history', table: true },
  { title: '数据同步', path: 'data-sync', table: false },
  { title: '更新日志', path: 'changelog', table: false },
]

const memberPages: { title: string; path: string; table: boolean }[] = [
  { title: '首页', path: '', table: false },
  { title: '我的任务', path: 'task', table: true },
  { title: '我的工资', path: 'salary', table: true },
  { title: '工资排行', path: 'rank', table: true },
]

async function openPage(app: OpenApp, title: string, path: string, table: boolean): Promise<void> {
  const { page } = app
  if (path === '') {
    await app.goto('/')
    await poll(() => page.title()).toMatch(/保种管理台/)
  } else {
    await openMenu(page, title, path)
  }
  if (table) await page.locator('.ant-table-wrapper').first().waitFor()
  await waitForTables(page)
}

describe.skipIf(!browserAvailable())("every screen at 1360×860 keeps its tables' key columns in view", () => {
  let server: RunningServer
  let app: OpenApp
  let member: string

  beforeAll(async () => {
    ;({ server, app } = await startSuite({ memberPassword: MEMBER_PASSWORD }))
    // A member with assignments, so 我的任务 has rows.
    member = server.sql<{ username: string }>(
      "select u.username from users u where u.role = 'normal' and u.status = 2 and exists (select 1 from assignments a where a.user_id = u.id) order by u.id limit 1",
    )[0]!.username
    expect(await app.page.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([1360, 860])
  })

  afterAll(() => stopSuite(server, app))

  for (const { title, path, table } of adminPages) {
    it(`admin: ${title}`, async () => {
      await freshStart(app, server, 'admin', server.adminPassword)
      await openPage(app, title, path, table)
      await checkScreen(app, `admin-${path || 'home'}`, {
        keys: path === 'normal-user' ? ['最近登录'] : path === 'task-assignment' ? ['保种员', '做种数'] : [],
      })
    })
  }

  it('admin: 官种设置 · 种子列表', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openPage(app, '官种设置', 'torrent-manage', false)
    await page.getByRole('tab', { name: '种子列表' }).click()
    await waitForRows(page)
    await waitForTables(page)
    await checkScreen(app, 'admin-torrent-list', { keys: ['保种人数', '完成情况'] })
  })

  it('admin: 保种员 · the member-detail drawer, also scrolled down', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openPage(app, '保种员', 'normal-user', true)
    await page.getByTestId('data-table-search').getByPlaceholder('用户名包含的文字').fill(member)
    await page
      .getByTestId('data-table-search')
      .getByRole('button', { name: spaced('查询') })
      .click()
    await page.locator('.ant-table-tbody tr.ant-table-row', { hasText: member }).first().getByTitle('查看详情').click()
    const drawer = page.locator('.ant-drawer', { hasText: '保种员详情' })
    await drawer.getByText(`保种员详情 · ${member}`).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'layout-admin-member-detail-opening.png') })
    await drawer.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()
    await waitForTables(page)
    await checkScreen(app, 'admin-member-detail', { keys: ['最后活动'] })
    // Scrolled to its table: the sticky header stays at the drawer's top edge, over no visible row.
    await drawer.locator('.ant-drawer-body').evaluate((body) => body.scrollTo({ top: body.scrollHeight }))
    await poll(() => drawer.locator('.ant-drawer-body').evaluate((body) => body.scrollTop > 0)).toBe(true)
    await checkScreen(app, 'admin-member-detail-scrolled', { withRows: false, keys: ['最后活动'] })
  })

  it('admin: 任务分配 · the member picker does not cover 分配', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    await openPage(app, '任务分配', 'task-assignment', true)
    await page.locator('.ant-table-tbody tr.ant-table-row').first().locator('.ant-checkbox-input').check()
    await page.getByRole('button', { name: /分配给/ }).click()
    const dialog = page.getByRole('dialog')
    // On a busy machine the modal may still be opening when the first click lands: click until the list is open.
    const picker = dialog.getByLabel('保种员', { exact: true })
    const dropdown = page.locator('.ant-select-dropdown:visible')
    await poll(async () => {
      if ((await dropdown.count()) === 0) await picker.click()
      return dropdown.count()
    }).toBeGreaterThan(0)
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option')
    await options.first().waitFor()
    // Each option names the member's load.
    expect(await options.first().textContent()).toMatch(/已分配 [\d,]+ · 做种 [\d,]+$/)
    await page.screenshot({ path: join(screenshotDir, 'layout-admin-assign-picker.png') })
    const button = buttonIn(dialog, '分配')
    const covered = await button.evaluate((element) => {
      const box = element.getBoundingClientRect()
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return !(hit && (hit === element || element.contains(hit)))
    })
    expect(covered).toBe(false)
    // 分配 can be pressed: the form asks for a member (a click that lands while the list closes is tried again).
    const asked = dialog.getByText('请选择保种员')
    await poll(async () => {
      if ((await asked.count()) === 0) await button.click()
      return asked.count()
    }).toBeGreaterThan(0)
  })

  it('admin: 任务分配 · one member is removed from a torrent, the others stay', async () => {
    const { page } = app
    await freshStart(app, server, 'admin', server.adminPassword)
    const [torrent] = server.sql<{ torrent_id: number; n: number }>(
      'select torrent_id, count(*) as n from assignments group by torrent_id having count(*) >= 2 order by torrent_id limit 1',
    )
    const names = server
      .sql<{ username: string }>(
        'select u.username from assignments a join users u on u.id = a.user_id where a.torrent_id = ? order by u.username_lower',
        torrent!.torrent_id,
      )
      .map((row) => row.username)
    const [name] = server
      .sql<{ name: string }>('select s.name from site_torrents s where s.id = ?', torrent!.torrent_id)
      .map((row) => row.name)
    await openPage(app, '任务分配', 'task-assignment', true)
    await page.getByTestId('data-table-search').getByPlaceholder('名称包含的文字').fill(name!)
    await page
      .getByTestId('data-table-search')
      .getByRole('button', { name: spaced('查询') })
      .click()
    const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: name! }).first()
    await poll(() => row.getByTestId('assignees').locator('.ant-tag').allTextContents()).toEqual(names)
    await row.getByLabel(`移除 ${names[0]} 的分配`).click()
    const confirm = page.locator('.ant-modal-confirm')
    await confirm.locator('.ant-modal-confirm-title', { hasText: `取消 ${names[0]} 的分配？` }).waitFor()
    await confirm.getByRole('button', { name: /取消分配/ }).click()
    await toast(page, `已取消 ${names[0]} 的分配`)
    await poll(() => row.getByTestId('assignees').locator('.ant-tag').allTextContents()).toEqual(names.slice(1))
  })

  for (const { title, path, table } of memberPages) {
    it(`member: ${title}`, async () => {
      await freshStart(app, server, member, MEMBER_PASSWORD)
      await openPage(app, title, path, table)
      if (path === 'task') await waitForRows(app.page)
      await checkScreen(app, `member-${path || 'home'}`, { keys: path === 'task' ? ['分配时间'] : [] })
    })
  }

  // Last: the window stays at 1280×800 only for these.
  describe('at 1280×800, the smallest laptop window', () => {
    const narrowPages: { title: string; path: string; keys: string[] }[] = [
      { title: '操作日志', path: 'operation-history', keys: ['详情', 'IP'] },
      { title: '工资计算', path: 'salary-computed', keys: ['金额', '发放状态'] },
      { title: '保种员', path: 'normal-user', keys: ['账号状态', '最近登录'] },
      { title: '任务分配', path: 'task-assignment', keys: ['保种人数', '完成情况', '保种员', '做种数'] },
    ]

    beforeAll(async () => {
      await app.page.setViewportSize({ width: 1280, height: 800 })
      expect(await app.page.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([1280, 800])
    })
    afterAll(() => app.page.setViewportSize({ width: 1360, height: 860 }))

    for (const { title, path, keys } of narrowPages) {
      it(`admin: ${title}`, async () => {
        await freshStart(app, server, 'admin', server.adminPassword)
        await openPage(app, title, path, true)
        await checkScreen(app, `admin-${path}-1280`, { keys })
      })
    }

    it('admin: 官种设置 · 种子列表', async () => {
      const { page } = app
      await freshStart(app, server, 'admin', server.adminPassword)
      await openPage(app, '官种设置', 'torrent-manage', false)
      await page.getByRole('tab', { name: '种子列表' }).click()
      await waitForRows(page)
      await waitForTables(page)
      await checkScreen(app, 'admin-torrent-list-1280', { keys: ['种子类型', '保种人数', '完成情况'] })
    })

    // A dialog of a plan or a dry run keeps its buttons in view in the smallest window, its rows scrolling inside.
    it('admin: 任务分配 · 自动分配 at 1280×720: 确认分配 and 取消 in view', async () => {
      const { page } = app
      await freshStart(app, server, 'admin', server.adminPassword)
      await openPage(app, '任务分配', 'task-assignment', true)
      await page.setViewportSize({ width: 1280, height: 720 })
      try {
        await page.getByRole('button', { name: /自动分配/ }).click()
        const dialog = page.getByRole('dialog')
        await poll(() => dialog.getByTestId('auto-assign-summary').textContent()).not.toContain('正在计算')
        // The demo's plan fills the table's page of 10.
        expect(await dialog.getByTestId('auto-assign-summary').textContent()).toMatch(/共 [\d,]+ 项分配/)
        await waitForMotionEnd(page)
        await page.screenshot({ path: join(screenshotDir, 'layout-admin-auto-assign-720.png') })
        for (const name of ['确认分配', '取消']) {
          const box = await dialog.getByRole('button', { name: spaced(name) }).boundingBox()
          expect(box, name).not.toBeNull()
          expect(box!.y + box!.height, `${name} 的下边缘`).toBeLessThanOrEqual(720)
          expect(box!.y, `${name} 的上边缘`).toBeGreaterThanOrEqual(0)
        }
        await buttonIn(dialog, '取消').click()
        await poll(() => page.getByRole('dialog').count()).toBe(0)
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 })
      }
    })

    // A member looks here for what to seed, whether it is seeding and claimed, and since when it is theirs.
    it('member: 我的任务', async () => {
      await freshStart(app, server, member, MEMBER_PASSWORD)
      await openPage(app, '我的任务', 'task', true)
      await waitForRows(app.page)
      await checkScreen(app, 'member-task-1280', { keys: ['状态', '认领状态', '做种时长', '最后活动', '分配时间'] })
    })

    // A member looks here for whether, when and where a month was paid.
    it('member: 我的工资', async () => {
      await freshStart(app, server, member, MEMBER_PASSWORD)
      await openPage(app, '我的工资', 'salary', true)
      await checkScreen(app, 'member-salary-1280', { keys: ['金额', '发放状态', '发放时间', '到账站点'] })
    })
  })
})
