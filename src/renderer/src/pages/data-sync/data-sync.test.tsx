import { beforeEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { SyncStatus } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { sampleRules } from '@renderer/test/rules'
import { formatDateTime } from '@renderer/utils/format'
import { peerLifetimeExceedsWindow, rowsEntries, syncHealth, tableLabel } from '.'

const idle: SyncStatus = {
  source: 'demo',
  running: false,
  progress: null,
  lastStartedAt: '2025-03-14T09:00:00.000Z',
  lastFinishedAt: '2025-03-14T09:00:42.000Z',
  lastError: null,
  rows: { site_snatched: 1200, site_torrents: 35, site_peers: 800, custom_table: 2 },
}

let api: FakeApi
const calls = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint)

beforeEach(() => {
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'sync.status': ok(idle) } })
})

async function openPage() {
  const view = renderRoutes(routes, '/data-sync')
  await screen.findByTestId('sync-summary', undefined, { timeout: 8000 })
  return view
}

describe('数据同步 helpers', () => {
  it('tells the health from the status', () => {
    expect(syncHealth(idle)).toBe('ok')
    expect(syncHealth({ ...idle, lastError: 'x' })).toBe('error')
    expect(syncHealth({ ...idle, lastError: 'x', running: true })).toBe('running')
    expect(syncHealth({ ...idle, lastStartedAt: null, lastFinishedAt: null })).toBe('never')
  })

  it('warns only when the site keeps peers longer than the active window', () => {
    expect(peerLifetimeExceedsWindow(undefined)).toBe(false)
    expect(peerLifetimeExceedsWindow({ timeZone: 'Asia/Shanghai', peerLifetimeMinutes: 78, activeWindowMinutes: 80 })).toBe(false)
    expect(peerLifetimeExceedsWindow({ timeZone: 'Asia/Shanghai', peerLifetimeMinutes: 80, activeWindowMinutes: 80 })).toBe(false)
    expect(peerLifetimeExceedsWindow({ timeZone: 'Asia/Shanghai', peerLifetimeMinutes: 156, activeWindowMinutes: 80 })).toBe(true)
    expect(peerLifetimeExceedsWindow({ timeZone: 'Asia/Shanghai', peerLifetimeMinutes: null, activeWindowMinutes: 80 })).toBe(false)
  })

  it('names the tables in Chinese, known ones first in the page’s order, unknown ones raw', () => {
    expect(tableLabel('site_claims')).toBe('认领')
    expect(tableLabel('whatever')).toBe('whatever')
    expect(rowsEntries(idle.rows).map((e) => e.label)).toEqual(['种子', '做种连接', '完成记录', 'custom_table'])
  })
})

describe('数据同步', { timeout: 30_000 }, () => {
  it('shows the source, health, last run times and rows per table', async () => {
    await openPage()
    await waitFor(() => expect(document.title).toBe('数据同步 - 保种管理台'))
    expect(screen.getByTestId('sync-source').textContent).toBe('演示数据')
    const health = screen.getByTestId('sync-health')
    expect(health.textContent).toBe('正常')
    expect(health.className).toContain('ant-tag-success')
    expect(screen.getByTestId('sync-started').textContent).toBe(formatDateTime(idle.lastStartedAt))
    expect(screen.getByTestId('sync-finished').textContent).toBe(formatDateTime(idle.lastFinishedAt))
    const rows = within(screen.getByTestId('sync-rows'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent)
    expect(rows).toEqual(['种子site_torrents35', '做种连接site_peers800', '完成记录site_snatched1,200', 'custom_table2'])
    expect(screen.queryByTestId('sync-error')).toBeNull()
    expect(screen.queryByTestId('sync-progress')).toBeNull()
  })

  it('names every source in Chinese and shows the last error', async () => {
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', lastError: "Access denied for user 'seed'@'localhost'", rows: {} }))
    await openPage()
    expect(screen.getByTestId('sync-source').textContent).toBe('NexusPHP 数据库')
    expect(screen.getByTestId('sync-health').textContent).toBe('同步出错')
    const alert = screen.getByTestId('sync-error')
    expect(alert.className).toContain('ant-alert-error')
    expect(within(alert).getByText("Access denied for user 'seed'@'localhost'")).toBeTruthy()
    expect(screen.getByText('上次同步没有写入数据')).toBeTruthy()
  })

  it("shows a NexusPHP site's time zone and peer lifetime, and warns when the site keeps peers longer than the active window", async () => {
    const site = { timeZone: 'Asia/Shanghai', peerLifetimeMinutes: 156, activeWindowMinutes: 80 }
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site }))
    await openPage()
    expect(screen.getByTestId('sync-site-zone').textContent).toBe('Asia/Shanghai')
    expect(screen.getByTestId('sync-site-peer-life').textContent).toBe('156 分钟')
    const warning = screen.getByTestId('sync-site-warning')
    expect(warning.className).toContain('ant-alert-warning')
    expect(warning.textContent).toContain('活跃判定窗口只有 80 分钟')
    expect(warning.textContent).toContain('至少 156 分钟')
  })

  it("warns when the rules' time zone is not the site's, and only then", async () => {
    const site = { timeZone: 'UTC', peerLifetimeMinutes: 78, activeWindowMinutes: 80 }
    const zoneMismatch = { rulesTimeZone: 'Asia/Shanghai', siteOffset: '+00:00', rulesOffset: '+08:00' }
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site: { ...site, zoneMismatch } }))
    await openPage()
    const warning = screen.getByTestId('sync-zone-warning')
    expect(warning.className).toContain('ant-alert-warning')
    expect(warning.textContent).toContain('规则时区 Asia/Shanghai（UTC+08:00）')
    expect(warning.textContent).toContain('站点时区 UTC（UTC+00:00）')
    cleanup()
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site }))
    await openPage()
    expect(screen.getByTestId('sync-site-zone').textContent).toBe('UTC')
    expect(screen.queryByTestId('sync-zone-warning')).toBeNull()
  })

  it('names each site wage setting 「NexusPHP 认领结算」 does not match; none when all match', async () => {
    const site = {
      timeZone: 'Asia/Shanghai',
      peerLifetimeMinutes: 78,
      activeWindowMinutes: 80,
      wageDifferences: [{ setting: 'bonus.tzero', label: '种子年龄参数 T0（周）', site: '5', rules: '4' }],
    }
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site }))
    await openPage()
    const warning = screen.getByTestId('sync-site-wage-warning')
    expect(warning.className).toContain('ant-alert-warning')
    expect(warning.textContent).toContain('种子年龄参数 T0（周）：站点 5（bonus.tzero），规则 4')
    cleanup()
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site: { ...site, wageDifferences: [] } }))
    await openPage()
    expect(screen.getByTestId('sync-site-peer-life')).toBeTruthy()
    expect(screen.queryByTestId('sync-site-wage-warning')).toBeNull()
  })

  it('采用站点的设置 saves a rule version with the site value of each field the rules have, then asks the status again', async () => {
    const rules = { ...sampleRules, mode: 'nexusphpClaims' as const, version: 7 }
    const differences = [
      { setting: 'bonus.tzero', label: '种子年龄参数 T0（周）', site: '5', rules: '4', field: 't0Weeks', siteValue: 5 },
      { setting: 'torrent.claim_bonus_multiplier', label: '倍率', site: '2', rules: '1', field: 'multiplier', siteValue: 2 },
      {
        setting: 'bonus.min_size',
        label: '计魔力的最小体积',
        site: '1.00 GiB',
        rules: '无此规则（按不设置计算）',
        field: null,
        siteValue: null,
      },
    ]
    const site = { timeZone: 'Asia/Shanghai', peerLifetimeMinutes: 78, activeWindowMinutes: 80, wageDifferences: differences }
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site }))
    api.handle('config.rules', ok(rules))
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 8 }))
    await openPage()
    const before = calls('sync.status').length
    fireEvent.click(screen.getByTestId('adopt-site-wage-settings'))
    const dialog = await screen.findByRole('dialog')
    expect(dialog.textContent).toContain('「种子年龄参数 T0（周）」改为 5、「倍率」改为 2')
    expect(calls('config.saveRules')).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }))
    await waitFor(() => expect(calls('config.saveRules')).toHaveLength(1))
    const { version: _version, ...body } = rules
    expect(calls('config.saveRules')[0]![1]).toEqual({ ...body, t0Weeks: 5, multiplier: 2, baseVersion: 7 })
    await waitFor(() => expect(calls('sync.status').length).toBeGreaterThan(before))
  })

  it("no warning when the window covers the site's peer lifetime", async () => {
    api.handle(
      'sync.status',
      ok({ ...idle, source: 'nexusphp', site: { timeZone: '+08:00', peerLifetimeMinutes: 78, activeWindowMinutes: 80 } }),
    )
    await openPage()
    expect(screen.getByTestId('sync-site-peer-life').textContent).toBe('78 分钟')
    expect(screen.queryByTestId('sync-site-warning')).toBeNull()
    expect(screen.queryByTestId('sync-site-data-notes')).toBeNull()
  })

  it("lists what the syncs had to change in the site's rows, with how many rows", async () => {
    const dataNotes = [
      { message: '站点数据异常：peers.last_action 晚于站点时钟一天以上（tracker 时钟有误），已按无时间处理', rows: 1234 },
      { message: '站点数据异常：snatched.uploaded 为负数，已按 0 处理', rows: 2 },
    ]
    const site = { timeZone: '+08:00', peerLifetimeMinutes: 78, activeWindowMinutes: 80 }
    api.handle('sync.status', ok({ ...idle, source: 'nexusphp', site: { ...site, dataNotes } }))
    await openPage()
    const notes = within(screen.getByTestId('sync-site-data-notes'))
    expect(notes.getByText('站点数据中有无法照原样保存的值，同步已按下列方式处理')).toBeTruthy()
    expect(notes.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'peers.last_action 晚于站点时钟一天以上（tracker 时钟有误），已按无时间处理（1,234 行）',
      'snatched.uploaded 为负数，已按 0 处理（2 行）',
    ])
  })

  it("no warning when the site's settings could not be read", async () => {
    api.handle(
      'sync.status',
      ok({ ...idle, source: 'nexusphp', site: { timeZone: 'Asia/Shanghai', peerLifetimeMinutes: null, activeWindowMinutes: 80 } }),
    )
    await openPage()
    expect(screen.getByTestId('sync-site-peer-life').textContent).toBe('未读到站点设置')
    expect(screen.queryByTestId('sync-site-warning')).toBeNull()
  })

  it('shows no site details for other sources', async () => {
    await openPage()
    expect(screen.queryByTestId('sync-site-zone')).toBeNull()
    expect(screen.queryByTestId('sync-site-warning')).toBeNull()
  })

  it('says when nothing has been synced yet (push ingest)', async () => {
    api.handle('sync.status', ok({ ...idle, source: 'ingest', lastStartedAt: null, lastFinishedAt: null, rows: {} }))
    await openPage()
    expect(screen.getByTestId('sync-source').textContent).toBe('推送接入')
    expect(screen.getByTestId('sync-health').textContent).toBe('尚未同步')
    expect(screen.getByText('尚无同步记录')).toBeTruthy()
  })

  it('starts a sync, polls every second with live progress while it runs, and stops polling when it ends', async () => {
    const steps: SyncStatus[] = [
      { ...idle, running: true, progress: { table: 'site_torrents', read: 50, total: 200 } },
      { ...idle, running: true, progress: { table: 'site_peers', read: 1234, total: null } },
      { ...idle, running: true, progress: { table: 'derive:records', read: 3, total: 4 } },
      { ...idle, lastFinishedAt: '2025-03-14T10:00:05.000Z', lastStartedAt: '2025-03-14T10:00:00.000Z', rows: { site_torrents: 40 } },
    ]
    api.handle('sync.run', ok({ ...idle, running: true, lastStartedAt: '2025-03-14T10:00:00.000Z' }))
    await openPage()
    api.handle('sync.status', () => ok(steps.length > 1 ? steps.shift()! : steps[0]))
    const before = calls('sync.status').length

    fireEvent.click(screen.getByRole('button', { name: /立即同步/ }))
    await waitFor(() => expect(calls('sync.run')).toHaveLength(1))
    expect(calls('sync.run')[0][1]).toBeUndefined()
    expect(await screen.findByText('同步中')).toBeTruthy()
    // The button says a sync runs (antd's loading state) and takes no click meanwhile.
    const running = screen.getByRole('button', { name: /同步中…/ })
    expect(running.className).toContain('ant-btn-loading')
    expect(screen.queryByRole('button', { name: /立即同步/ })).toBeNull()
    fireEvent.click(running)

    // First poll: a table with a known total → a progress bar.
    const progress = await screen.findByRole('progressbar', { name: '种子同步进度' }, { timeout: 4000 })
    expect(progress.getAttribute('aria-valuenow')).toBe('25')
    expect(screen.getByTestId('sync-progress').textContent).toContain('种子：50 / 200')
    // Second poll: no total → the rows read so far.
    await waitFor(() => expect(screen.getByTestId('sync-progress').textContent).toContain('做种连接：1,234 行'), { timeout: 4000 })
    expect(screen.queryByRole('progressbar')).toBeNull()
    // Then the console's own steps: what it computes, with a bar where the step knows its total.
    await waitFor(() => expect(screen.getByTestId('sync-progress').textContent).toContain('正在计算做种状态：3 / 4'), { timeout: 4000 })
    expect(screen.getByRole('progressbar', { name: '计算做种状态进度' }).getAttribute('aria-valuenow')).toBe('75')
    // Last: done.
    await waitFor(() => expect(screen.getByTestId('sync-health').textContent).toBe('正常'), { timeout: 4000 })
    expect(await screen.findByText('同步完成')).toBeTruthy()
    expect(screen.getByTestId('sync-finished').textContent).toBe(formatDateTime('2025-03-14T10:00:05.000Z'))
    expect(screen.queryByTestId('sync-progress')).toBeNull()
    // Done: 立即同步 again, ready for the next run.
    const idleButton = screen.getByRole('button', { name: /立即同步/ })
    expect(idleButton.className).not.toContain('ant-btn-loading')
    expect((idleButton as HTMLButtonElement).disabled).toBe(false)
    expect(calls('sync.run')).toHaveLength(1)

    // Idle again: no more polling every second.
    const polled = calls('sync.status').length
    expect(polled - before).toBe(4)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(calls('sync.status').length).toBe(polled)
  })

  it('stops polling when the page is left', async () => {
    api.handle('sync.status', ok({ ...idle, running: true, progress: null }))
    const { router } = await openPage()
    expect(screen.getByText('正在同步…')).toBeTruthy()
    // A run this page did not start (the schedule, another server process) shows on the button too.
    expect(screen.getByRole('button', { name: /同步中…/ }).className).toContain('ant-btn-loading')
    await waitFor(() => expect(calls('sync.status').length).toBeGreaterThan(1), { timeout: 4000 })
    await router.navigate('/403')
    await screen.findByText('抱歉，你无权访问该页面。')
    const after = calls('sync.status').length
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(calls('sync.status').length).toBe(after)
  })

  it('shows the server’s message when a run is refused', async () => {
    api.handle('sync.run', fail(403, '没有权限'))
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /立即同步/ }))
    expect(await screen.findByText('没有权限')).toBeTruthy()
    expect(screen.getByTestId('sync-health').textContent).toBe('正常')
  })

  it('shows a load failure with 重试', async () => {
    api.handle('sync.status', fail(500, '服务器出错了'))
    renderRoutes(routes, '/data-sync')
    expect(await screen.findByText('同步状态加载失败', undefined, { timeout: 8000 })).toBeTruthy()
    expect(screen.getByText('服务器出错了')).toBeTruthy()
    api.handle('sync.status', ok(idle))
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }))
    expect(await screen.findByTestId('sync-summary')).toBeTruthy()
  })

  it('shows a member the 403 page', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    renderRoutes(routes, '/data-sync')
    expect(await screen.findByText('抱歉，你无权访问该页面。')).toBeTruthy()
    expect(calls('sync.status')).toEqual([])
  })
})
