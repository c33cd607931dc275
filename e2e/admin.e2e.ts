/**
 * The admin pages end to end on the demo community: 保种员 (create, ban → cannot log in),
 * 管理员 (add, remove), 任务分配 (assign, auto-assign preview, an inactive assignee marked), 官种设置 (a rule change re-labels
 * torrents), 操作日志 (every action above is logged). One server, one browser, steps in order.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { browserAvailable, CHROMIUM_PATH, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart, logOut, submitLogin } from './harness/session'
import {
  buttonIn,
  confirmPopover,
  openMenu,
  pick,
  poll,
  searchTable,
  spaced,
  tableTotal,
  toast,
  waitForRows,
  waitForTableSettled,
  waitForTitle,
} from './harness/ui'

const NEW_MEMBER = 'e2e-newbie'
const NEW_MEMBER_PASSWORD = 'E2e-newbie-pass-1'

describe.skipIf(!browserAvailable())('admin pages on demo data', () => {
  let server: RunningServer
  let app: OpenApp
  /** An active demo member (not the new one). */
  let member: string
  /** The 操作日志 actions the steps above did (their toast came): 操作日志 looks for these, not for a failed step's. */
  const performed = new Set<string>()

  beforeAll(async () => {
    ;({ server, app } = await startSuite())
    member = server.sql<{ username: string }>("select username from users where role = 'normal' and status = 2 order by id limit 1")[0]!
      .username
  })

  // Every step starts on a fresh page as admin, so one failed step leaves nothing in the next one's way.
  beforeEach(async () => {
    await freshStart(app, server, 'admin', server.adminPassword)
  })

  afterAll(() => stopSuite(server, app))

  it('保种员: creates a member, opens their detail and bans them', async () => {
    const { page } = app
    await openMenu(page, '保种员', 'normal-user')
    await waitForRows(page)
    expect(await tableTotal(page)).toBeGreaterThan(0)

    await page.getByRole('button', { name: /新建保种员/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('用户名').fill(NEW_MEMBER)
    await dialog.getByLabel('初始密码').fill(NEW_MEMBER_PASSWORD)
    // No demo site user has this uid: the typed number is offered as a uid of its own.
    await dialog.getByLabel('站点 UID').fill('987654')
    const useUid = page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="使用 UID 987654"]')
    await useUid.waitFor()
    // The site-user search answers 300 ms after typing and renders the list again: a click during that
    // once left the field empty (CI, a busy machine). Pick when the search has answered, then see it taken.
    const uidSelect = dialog.locator('.ant-select', { has: page.getByLabel('站点 UID') })
    await poll(() => uidSelect.evaluate((select) => select.classList.contains('ant-select-loading'))).toBe(false)
    await useUid.click()
    await uidSelect.getByText('UID 987654', { exact: true }).waitFor()
    await dialog.getByLabel('备注').fill('端到端测试')
    await dialog.getByLabel('用户名').press('Enter') // Enter submits
    await toast(page, `已创建保种员 ${NEW_MEMBER}`)
    performed.add('创建保种员')

    // A second create with the same name: the server's message, the values kept.
    await page.getByRole('button', { name: /新建保种员/ }).click()
    await dialog.getByLabel('用户名').fill(NEW_MEMBER.toUpperCase())
    await dialog.getByLabel('初始密码').fill(NEW_MEMBER_PASSWORD)
    await buttonIn(dialog, '创建').click()
    await dialog.getByTestId('form-error').waitFor()
    expect(await dialog.getByTestId('form-error').textContent()).toMatch(/已存在|已被/)
    expect(await dialog.getByLabel('用户名').inputValue()).toBe(NEW_MEMBER.toUpperCase())
    await buttonIn(dialog, '取消').click()

    await searchTable(page, { 用户名包含的文字: NEW_MEMBER })
    await poll(() => tableTotal(page)).toBe(1)
    const row = page.locator('.ant-table-tbody tr.ant-table-row').first()
    expect(await row.locator('.ant-tag').first().textContent()).toBe('正常')
    expect(await row.textContent()).toContain('987654')

    // The member detail: account, chart and records.
    await row.getByText(NEW_MEMBER, { exact: true }).click()
    const drawer = page.locator('.ant-drawer', { hasText: '保种员详情' })
    await drawer.getByText(`保种员详情 · ${NEW_MEMBER}`).waitFor()
    await drawer.getByTestId('member-by-status').waitFor()
    await drawer.getByRole('img', { name: '近 30 天做种量' }).locator('svg').waitFor()
    await drawer.getByText('做种记录').first().waitFor()
    await page.keyboard.press('Escape')
    await drawer.getByText(`保种员详情 · ${NEW_MEMBER}`).waitFor({ state: 'hidden' })

    await searchTable(page, { 用户名包含的文字: '' })
    await poll(() => tableTotal(page)).toBeGreaterThan(1)
    await app.screenshot('20-normal-user')

    await searchTable(page, { 用户名包含的文字: NEW_MEMBER })
    await poll(() => tableTotal(page)).toBe(1)
    await row.getByRole('button', { name: spaced('封禁') }).click()
    await confirmPopover(page, '封禁')
    await toast(page, '已封禁')
    performed.add('修改账号状态')
    await poll(() => row.locator('.ant-tag').first().textContent()).toBe('封禁')
  })

  it('a banned member cannot log in: the login page shows the server message', async () => {
    await logOut(app)
    await submitLogin(app, server, NEW_MEMBER, NEW_MEMBER_PASSWORD)
    await app.page.getByTestId('login-error').getByText('账号已被封禁').waitFor()
    expect(app.page.url()).toMatch(/#\/login/)
  })

  it('管理员: adds a member as admin and removes them again; your own row cannot be removed', async () => {
    const { page } = app
    await openMenu(page, '管理员', 'admin-user')
    await waitForRows(page)
    const before = await tableTotal(page)
    const ownRow = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: 'admin' }).first()
    expect(await ownRow.getByRole('button', { name: spaced('移除') }).isDisabled()).toBe(true)

    await page.getByRole('button', { name: /添加管理员/ }).click()
    const dialog = page.getByRole('dialog')
    await pick(dialog, page, '保种员', member)
    await buttonIn(dialog, '添加').click()
    await toast(page, `${member} 已成为管理员`)
    performed.add('添加管理员')
    await poll(() => tableTotal(page)).toBe(before + 1)
    const added = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: member })
    await added.waitFor()
    await page.mouse.move(0, 0)
    await app.screenshot('21-admin-user')

    await added.getByRole('button', { name: spaced('移除') }).click()
    await confirmPopover(page, '移除')
    await toast(page, `已移除管理员 ${member}`)
    performed.add('移除管理员')
    await poll(() => tableTotal(page)).toBe(before)
  })

  it('管理员: 添加管理员 offers only members whose account is 正常 (not a banned one, even searched by name)', async () => {
    const { page } = app
    const banned = server.sql<{ username: string }>(
      "select username from users where role = 'normal' and status = 0 order by id limit 1",
    )[0]!.username
    await openMenu(page, '管理员', 'admin-user')
    await waitForRows(page)
    await page.getByRole('button', { name: /添加管理员/ }).click()
    const dialog = page.getByRole('dialog')
    const box = dialog.getByLabel('保种员')
    await box.click()
    await box.fill(banned)
    const select = dialog.locator('.ant-select', { has: page.getByLabel('保种员') })
    // The server has answered the search for that very name (the select shows loading until then).
    await poll(() => select.evaluate((node) => node.classList.contains('ant-select-loading'))).toBe(false)
    expect(await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${banned}"]`).count()).toBe(0)
    // An active member is still found by name.
    await box.fill(member)
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${member}"]`).waitFor()
  })

  it('任务分配: assigns two unassigned official torrents to a member and previews auto-assign', async () => {
    const { page } = app
    await openMenu(page, '任务分配', 'task-assignment')
    await waitForRows(page)
    const official = await tableTotal(page)
    await pick(page.getByTestId('data-table-search'), page, '分配状态', '未分配', false)
    await page
      .getByTestId('data-table-search')
      .getByRole('button', { name: spaced('查询') })
      .click()
    const rows = page.locator('.ant-table-tbody tr.ant-table-row')
    // 分配状态 starts hidden (the 保种员 column says who): the rows left name nobody.
    await poll(() => tableTotal(page)).toBeLessThan(official)
    await poll(() => rows.count()).toBeGreaterThan(0)
    expect(await rows.getByTestId('assignees').count()).toBe(0)
    const unassigned = await tableTotal(page)
    const names = [(await rows.nth(0).locator('td').nth(1).textContent())!, (await rows.nth(1).locator('td').nth(1).textContent())!]
    await rows.nth(0).locator('.ant-checkbox-input').check()
    await rows.nth(1).locator('.ant-checkbox-input').check()
    await page.getByText('官种（已选 2 个）').waitFor()

    await page.getByRole('button', { name: /分配给/ }).click()
    const dialog = page.getByRole('dialog')
    await pick(dialog, page, '保种员', member)
    await dialog.getByText('分配 2 个种子').click() // closes the multi-select's dropdown
    await buttonIn(dialog, '分配').click()
    await toast(page, '已新建 2 项分配')
    performed.add('分配任务')
    await poll(() => tableTotal(page)).toBe(unassigned - 2)
    expect(await page.locator('.ant-table-tbody').textContent()).not.toContain(names[0])
    await page.mouse.move(0, 0)
    await app.screenshot('22-task-assignment')

    // The member now has these torrents assigned.
    const assigned = server.sql<{ n: number }>(
      'select count(*) as n from assignments a join users u on u.id = a.user_id where u.username = ?',
      member,
    )
    expect(Number(assigned[0]?.n ?? 0)).toBeGreaterThanOrEqual(2)

    await page.getByRole('button', { name: /自动分配/ }).click()
    const preview = page.getByRole('dialog')
    await poll(() => preview.getByTestId('auto-assign-summary').textContent()).not.toContain('正在计算')
    expect(await preview.getByTestId('auto-assign-summary').textContent()).toMatch(/共 [\d,]+ 项分配|没有需要分配/)
    await buttonIn(preview, '取消').click()
  })

  it('任务分配: an assignee whose account is 已删除 is marked as such, so the torrent reads as having no active keeper', async () => {
    const { page } = app
    // An official torrent with exactly one assignment, to a member whose account is 已删除 (status 1).
    const target = server.sql<{ name: string; username: string }>(
      `select t.name, u.username from assignments a
         join users u on u.id = a.user_id
         join site_torrents t on t.id = a.torrent_id
         join torrent_labels l on l.torrent_id = a.torrent_id
       where u.status = 1 and l.seed_type = 1
         and (select count(*) from assignments b where b.torrent_id = a.torrent_id) = 1
       order by t.id limit 1`,
    )[0]!
    expect(target).toBeDefined()

    await openMenu(page, '任务分配', 'task-assignment')
    await waitForRows(page)
    await searchTable(page, { 名称包含的文字: target.name })
    await poll(() => tableTotal(page)).toBe(1)
    const tag = page.locator('.ant-table-tbody tr.ant-table-row').first().getByTestId('assignees').locator('.ant-tag').first()
    await tag.waitFor()
    expect(await tag.textContent()).toBe(`${target.username}（已删除）`)
    // The tooltip names the state and what it means.
    await tag.hover()
    await poll(() => page.locator('.ant-tooltip:visible').allTextContents()).toEqual([
      expect.stringMatching(/^账号已删除，不再为本组保种：这项分配不算有人保种/),
    ])
    await page.mouse.move(0, 0)
  })

  it('官种设置: removing an official team re-labels its torrents in 种子列表', async () => {
    const { page } = app
    await openMenu(page, '官种设置', 'torrent-manage')
    const form = page.getByTestId('rules-form')
    await form.getByText('活跃判定窗口（分钟）').waitFor()
    await form.getByText('做种者最近一次汇报在此分钟数内才算在做种；超过即视为已停止。').waitFor()
    const version = Number(((await page.getByTestId('rules-version').textContent()) ?? '').replace(/\D/g, ''))
    const teamsItem = form.locator('.ant-form-item', { hasText: '官方制作组' })
    const team = (await teamsItem.locator('.ant-select-selection-item').first().getAttribute('title')) ?? ''
    expect(team).not.toBe('')

    // Official torrents of that team before the change.
    await page.getByRole('tab', { name: '种子列表' }).click()
    await waitForRows(page)
    await pick(page.getByTestId('data-table-search'), page, '种子类型', '官种', false)
    await searchTable(page, { 完整的制作组名: team })
    await poll(() => tableTotal(page)).toBeGreaterThan(0)
    expect(await tableTotal(page)).toBeGreaterThan(0)

    // A refused save keeps the values and shows the message.
    await page.getByRole('tab', { name: '官种规则' }).click()
    const windowBox = form.getByLabel('活跃判定窗口（分钟）')
    await teamsItem.locator('.ant-select-selection-item', { hasText: team }).locator('.ant-select-selection-item-remove').click()
    // Official tags would keep some of the team's torrents official: clear them too.
    const tagsItem = form.locator('.ant-form-item', { hasText: '官方标签' })
    while ((await tagsItem.locator('.ant-select-selection-item-remove').count()) > 0)
      await tagsItem.locator('.ant-select-selection-item-remove').first().click()
    await form.getByLabel('时区').fill('Mars/Olympus')
    await form.getByRole('button', { name: spaced('保存') }).click()
    await page.getByTestId('rules-error').getByText(/时区/).waitFor()
    expect(await form.getByLabel('时区').inputValue()).toBe('Mars/Olympus')
    expect(await teamsItem.locator('.ant-select-selection-item', { hasText: team }).count()).toBe(0)

    await form.getByLabel('时区').fill('Asia/Shanghai')
    await windowBox.press('Enter') // Enter submits
    await toast(page, `已保存为规则版本 v${version + 1}`)
    performed.add('修改官种规则')
    expect(await page.getByTestId('rules-version').textContent()).toBe(`v${version + 1}`)
    await page.getByTestId('rules-error').waitFor({ state: 'detached' })
    await page.evaluate(() => window.scrollTo(0, 0))
    await app.screenshot('23-torrent-rules')

    // The list comes back with the search it was left with (官种 of that team), now read with the new labels.
    await page.getByRole('tab', { name: '种子列表' }).click()
    await poll(() => page.getByTestId('data-table-search').getByPlaceholder('完整的制作组名').inputValue()).toBe(team)
    await pick(page.getByTestId('data-table-search'), page, '种子类型', '官种', false)
    await searchTable(page, { 完整的制作组名: team })
    await poll(async () => {
      await page.getByRole('button', { name: '刷新' }).click()
      await waitForTableSettled(page)
      return tableTotal(page)
    }).toBe(0)

    // The team's torrents now read 非官种; one set by hand back to 官种 carries the 手动 badge.
    await pick(page.getByTestId('data-table-search'), page, '种子类型', '非官种', false)
    await page
      .getByTestId('data-table-search')
      .getByRole('button', { name: spaced('查询') })
      .click()
    const rows = page.locator('.ant-table-tbody tr.ant-table-row')
    await poll(() => tableTotal(page)).toBeGreaterThan(0)
    await rows.first().locator('.ant-checkbox-input').check()
    await page.getByRole('button', { name: spaced('设为官种') }).click()
    await page.locator('.ant-popover:visible').getByText('将 1 个种子设为官种？').waitFor()
    await confirmPopover(page, '设为官种')
    await toast(page, '已将 1 个种子设为官种')
    performed.add('设置种子类型')
    await page
      .getByTestId('data-table-search')
      .getByRole('button', { name: spaced('重置') })
      .click()
    await searchTable(page, { 完整的制作组名: team })
    await page.getByTestId('manual-badge').first().waitFor()
    await page.mouse.move(0, 0)
    await app.screenshot('24-torrent-list')
  })

  it('操作日志: finds each of the actions above', async () => {
    const { page } = app
    await openMenu(page, '操作日志', 'operation-history')
    await waitForRows(page)
    const search = page.getByTestId('operation-log-search')
    await pick(search, page, '操作人', 'admin')
    await search.getByRole('button', { name: spaced('查询') }).click()
    const rows = page.locator('.ant-table-tbody tr.ant-table-row')
    for (const [action, text] of [
      ['创建保种员', NEW_MEMBER],
      ['修改账号状态', NEW_MEMBER],
      ['添加管理员', member],
      ['移除管理员', member],
      ['分配任务', ''],
      ['修改官种规则', ''],
      ['设置种子类型', ''],
    ] as const) {
      if (!performed.has(action)) continue // its step failed and says so
      await pick(search, page, '操作', action)
      await search.getByRole('button', { name: spaced('查询') }).click()
      await poll(() => rows.first().locator('td').nth(2).textContent()).toBe(action)
      expect(await rows.first().locator('td').nth(1).textContent()).toBe('admin')
      if (text) expect(await page.locator('.ant-table-tbody').textContent()).toContain(text)
    }
    await search.getByLabel('操作', { exact: true }).click()
    await page.keyboard.press('Escape')
    await search.getByRole('button', { name: spaced('重置') }).click()
    await pick(search, page, '操作人', 'admin')
    await search.getByRole('button', { name: spaced('查询') }).click()
    await poll(() => tableTotal(page)).toBeGreaterThanOrEqual(8)
    await page.mouse.move(0, 0)
    await app.screenshot('25-operation-log')
  })

  it('shows a member the 403 page on every admin page', async () => {
    const { page } = app
    server.sql("update users set password_hash = (select password_hash from users where username = 'admin') where username = ?", member)
    await freshStart(app, server, member, server.adminPassword)
    for (const path of ['/normal-user', '/admin-user', '/task-assignment', '/torrent-manage', '/operation-history']) {
      await app.goto(path)
      await page.getByText('抱歉，你无权访问该页面。').waitFor()
      await waitForTitle(page, '无权访问')
    }
  })
})

describe.runIf(!browserAvailable())('admin pages (no browser)', () => {
  it.skip(`needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium fonts-wqy-microhei) or E2E_ELECTRON=1`, () => {})
})
