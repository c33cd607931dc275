import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { AllSeedingStats, UserSeedingStats } from '@shared/entities'
import type { ApiResult } from '@shared/ipc'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { bindMessageApi } from '@renderer/utils/feedback'
import { formatDateTime } from '@renderer/utils/format'
import { SEEDING_COUNT_HELP } from '@renderer/components/seedingCountHelp'
import { greeting } from './greeting'
import { completionRate, ESTIMATE_HELP, formatPercent, lastDays, rankText, seedingRecords } from './stats'

const GiB = 1024 ** 3
const TiB = 1024 * GiB

const dailyDates = (count: number) =>
  Array.from({ length: count }, (_, index) => new Date(Date.UTC(2025, 2, 1 + index)).toISOString().slice(0, 10))

const teamStats: AllSeedingStats = {
  officialTorrents: 5000,
  officialSize: 120 * TiB,
  completedOfficial: 1234,
  members: 200,
  activeMembers: 150,
  byStatus: { 1: 10, 2: 20, 3: 30000, 4: 4000, 5: 50, 6: 60, 7: 70, 8: 80 },
  byCompletion: { 1: 1234, 2: 3766, 3: 9000, 4: 6000 },
  seedingSize: 80 * TiB,
  daily: dailyDates(40).map((date, index) => ({ date, seedingCount: 30000 + index, seedingSize: 70 * TiB + index * GiB })),
  topWages: [
    { rank: 2, userId: 8, username: 'moonlight', period: '2025-03', amount: 800.5, torrentCount: 40, totalSize: 2 * TiB },
    { rank: 1, userId: 7, username: 'seedking', period: '2025-03', amount: 1234.56, torrentCount: 55, totalSize: 3 * TiB },
  ],
  estimatedWages: 98765.4,
  computedAt: '2025-03-14T09:05:00+08:00',
}

const myStats: UserSeedingStats = {
  userId: memberUser.id,
  byStatus: { 1: 1, 2: 0, 3: 120, 4: 7, 5: 2, 6: 3, 7: 4, 8: 0 },
  seedingCount: 127,
  seedingSize: 3.5 * TiB,
  uploaded: 20 * TiB,
  estimatedWage: 321.5,
  rank: 12,
  daily: dailyDates(30).map((date, index) => ({
    date,
    seedingCount: 120 + index,
    seedingSize: 3 * TiB + index * GiB,
    uploaded: index * 50 * GiB,
  })),
}

let api: FakeApi
const calls = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint)
const card = (title: string) => within(screen.getByTestId(`stat-${title}`))
/** The shown value of a Statistic (antd splits numbers like `0.00` into integer and decimal spans). */
const statValue = (title: string, scope: HTMLElement = document.body) =>
  within(scope).getByText(title).closest('.ant-statistic')!.querySelector('.ant-statistic-content')!.textContent
const chart = (name: string) => screen.getByRole('img', { name })

beforeEach(() => {
  api = installFakeApi({
    handlers: { 'user.loginInfo': ok(adminUser), 'statistics.all': ok(teamStats), 'statistics.user': ok(myStats) },
  })
})

describe('dashboard (首页)', () => {
  it('shows the stat cards, computing the completion rate', async () => {
    renderRoutes(routes, '/')
    await screen.findByTestId('stat-官种数')
    expect(card('官种数').getByText('5,000')).toBeTruthy()
    expect(card('官种总体积').getByText('120.00 TiB')).toBeTruthy()
    // 1234 / 5000
    expect(card('官种完成率').getByText('24.7%')).toBeTruthy()
    expect(card('官种完成率').getByText('已完成 1,234 / 5,000')).toBeTruthy()
    expect(card('保种员人数').getByText('200')).toBeTruthy()
    expect(card('保种员人数').getByText('活跃 150 人')).toBeTruthy()
    // Whom it counts: the wage preview computes more (banned members, admins with a site UID).
    expect(card('保种员人数').getByLabelText(/^状态正常的保种员，不含已封禁、已删除的保种员和管理员/)).toBeTruthy()
    // statuses 3 + 4
    expect(card('做种中记录').getByText('34,000')).toBeTruthy()
    // The volume is of every record seeding now (无工资 and seeding uploaders too), and the card says so.
    expect(card('做种中记录').getByText('全部做种体积 80.00 TiB')).toBeTruthy()
    expect(card('做种中记录').getByLabelText(/另含正在做种的「无工资」和发布者记录/)).toBeTruthy()
    expect(card('本月预计工资总额').getByText('98,765.40')).toBeTruthy()
    expect(card('本月预计工资总额').getByText('魔力')).toBeTruthy()
    // Why it differs from 工资计算's preview of the month.
    expect(card('本月预计工资总额').getByLabelText(/^按本月到目前为止的做种数据估算.*与「工资计算」的预览/)).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('首页 - 保种管理台'))
  })

  it('draws the four charts with Chinese labels', async () => {
    renderRoutes(routes, '/')
    await screen.findByTestId('stat-官种数')
    const status = chart('做种记录状态分布')
    for (const label of ['未下载', '下载中', '做种中', '做种中（未认领）', '无工资', '发布者', '已停止', '下载未完成']) {
      expect(status.textContent).toContain(label)
    }
    expect(chart('种子完成情况').textContent).toContain('官种未完成')
    expect(chart('近 30 天团队做种量').textContent).toContain('做种体积')
    // the last 30 of 40 days: 03-11 … 04-09
    expect(chart('近 30 天团队做种量').textContent).not.toContain('03-10')
    expect(chart('本月预计工资排行').textContent).toContain('1. seedking')
    // This month's figures are estimates until the month is computed: the card says so, like 本月预计工资总额.
    expect(screen.getByText('本月预计工资 Top 10')).toBeTruthy()
  })

  it('shows 本月尚无工资数据 when nobody has a wage this month', async () => {
    api.handle('statistics.all', ok({ ...teamStats, topWages: [], estimatedWages: 0 }))
    renderRoutes(routes, '/')
    expect(await screen.findByText('本月尚无工资数据')).toBeTruthy()
    expect(screen.queryByRole('img', { name: '本月预计工资排行' })).toBeNull()
    expect(statValue('本月预计工资总额')).toBe('0.00魔力')
  })

  it('gives admins 刷新统计 with the time of the figures; refreshing shows the fresh figures', async () => {
    const toast = { success: vi.fn(), error: vi.fn() }
    renderRoutes(routes, '/')
    await screen.findByTestId('stat-官种数')
    bindMessageApi(toast as never)
    expect(screen.getByTestId('computed-at').textContent).toBe(`统计时间：${formatDateTime(teamStats.computedAt)}`)

    api.handle('statistics.refresh', ok({ ...teamStats, officialTorrents: 5100, computedAt: '2025-03-14T10:30:00+08:00' }))
    fireEvent.click(screen.getByRole('button', { name: /刷新统计/ }))
    await waitFor(() => expect(card('官种数').getByText('5,100')).toBeTruthy())
    expect(screen.getByTestId('computed-at').textContent).toBe(`统计时间：${formatDateTime('2025-03-14T10:30:00+08:00')}`)
    expect(calls('statistics.refresh')).toHaveLength(1)
    // The refresh answer is the new cache: no second read of statistics.all.
    expect(calls('statistics.all')).toHaveLength(1)
    expect(toast.success).toHaveBeenCalledWith('统计已刷新')
    // An admin has no member block.
    expect(screen.queryByTestId('my-stats')).toBeNull()
    expect(calls('statistics.user')).toHaveLength(0)
  })

  it('keeps the figures when a refresh fails (the toast says why)', async () => {
    const toast = { success: vi.fn(), error: vi.fn() }
    renderRoutes(routes, '/')
    await screen.findByTestId('stat-官种数')
    bindMessageApi(toast as never)
    api.handle('statistics.refresh', fail(500, '服务器出错了'))
    fireEvent.click(screen.getByRole('button', { name: /刷新统计/ }))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('服务器出错了'))
    expect(card('官种数').getByText('5,000')).toBeTruthy()
    expect(toast.success).not.toHaveBeenCalled()
  })

  it("shows a member no 刷新统计, and the member's own block from statistics.user", async () => {
    api.handle('user.loginInfo', ok(memberUser))
    const { router } = renderRoutes(routes, '/')
    const mine = within(await screen.findByTestId('my-stats'))
    await mine.findByText('我的做种数')
    expect(screen.queryByRole('button', { name: /刷新统计/ })).toBeNull()
    expect(calls('statistics.user')).toEqual([['statistics.user', undefined]])

    const block = screen.getByTestId('my-stats')
    expect(statValue('我的做种数', block)).toBe('127')
    // Not a sum of the status counts beside it: what it counts, on hover.
    expect(within(block).getByLabelText(SEEDING_COUNT_HELP)).toBeTruthy()
    expect(statValue('我的做种体积', block)).toBe('3.50 TiB')
    expect(statValue('本月预计工资', block)).toBe('321.50魔力')
    expect(within(block).getByLabelText(ESTIMATE_HELP)).toBeTruthy()
    expect(statValue('本月排名', block)).toBe('第 12 名')
    const counts = within(screen.getByTestId('my-status-counts'))
    expect(counts.getByText('做种中').className).toContain('ant-tag-green')
    expect(chart('近 30 天我的做种').textContent).toContain('上传量')
    // The team figures are there as well.
    expect(await screen.findByTestId('stat-官种数')).toBeTruthy()

    // A status opens 我的任务 filtered by it.
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    fireEvent.click(counts.getByText('做种中'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/task'))
    expect(router.state.location.search).toBe('?status=3')
  })

  it('tells a member without a site UID why their figures are zeros and whom to ask', async () => {
    api.handle('user.loginInfo', ok({ ...memberUser, siteUid: null }))
    renderRoutes(routes, '/')
    const alert = await screen.findByTestId('no-site-uid')
    expect(alert.textContent).toContain('你的账号还没有绑定站点 UID')
    expect(alert.textContent).toContain('请联系管理员在「保种员」中为你的账号填写站点 UID')
  })

  it('says nothing of a site UID to a member who has one', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    renderRoutes(routes, '/')
    await within(await screen.findByTestId('my-stats')).findByText('我的做种数')
    expect(screen.queryByTestId('no-site-uid')).toBeNull()
  })

  it('says 暂无排名 when the member has no rank this month', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    api.handle('statistics.user', ok({ ...myStats, rank: null }))
    renderRoutes(routes, '/')
    expect(await screen.findByText('暂无排名')).toBeTruthy()
  })

  it('shows skeletons while loading, and an error result with 重试 that loads again', async () => {
    let answer: ApiResult<unknown> = fail(500, '统计服务暂不可用')
    let release: () => void = () => undefined
    api.handle('statistics.all', () => new Promise((resolve) => (release = () => resolve(answer))))
    renderRoutes(routes, '/')
    expect(await screen.findByTestId('dashboard-loading')).toBeTruthy()
    release()
    expect(await screen.findByText('统计数据加载失败')).toBeTruthy()
    expect(screen.getByText('统计服务暂不可用')).toBeTruthy()

    answer = ok(teamStats)
    fireEvent.click(screen.getByRole('button', { name: '重试' }))
    release()
    expect(await screen.findByTestId('stat-官种数')).toBeTruthy()
    expect(screen.queryByText('统计数据加载失败')).toBeNull()
  })
})

describe('dashboard figures', () => {
  it('computes the completion rate, and - without official torrents', () => {
    expect(completionRate({ completedOfficial: 1234, officialTorrents: 5000 })).toBeCloseTo(24.68)
    expect(formatPercent(completionRate({ completedOfficial: 1234, officialTorrents: 5000 }))).toBe('24.7%')
    expect(formatPercent(completionRate({ completedOfficial: 0, officialTorrents: 0 }))).toBe('-')
  })

  it('counts seeding records as statuses 3 and 4', () => {
    expect(seedingRecords(teamStats.byStatus)).toBe(34000)
  })

  it('names the rank, and keeps the last 30 days', () => {
    expect(rankText(1)).toBe('第 1 名')
    expect(rankText(null)).toBe('暂无排名')
    expect(lastDays(teamStats.daily).map((day) => day.date)).toHaveLength(30)
    expect(lastDays(teamStats.daily)[0]!.date).toBe('2025-03-11')
  })
})

describe('greeting', () => {
  it('follows the time of day', () => {
    expect(greeting(8)).toBe('早上好')
    expect(greeting(12)).toBe('中午好')
    expect(greeting(15)).toBe('下午好')
    expect(greeting(21)).toBe('晚上好')
    expect(greeting(2)).toBe('晚上好')
  })
})
