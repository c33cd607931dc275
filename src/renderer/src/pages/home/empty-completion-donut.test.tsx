/**
 * Found by an outside tester (fixed since; the test keeps it so) — 首页 on a new install (no torrents synced yet) draws the 「种子完成情况」 donut as four equal
 * quarters, each labelled 0.
 *
 * With every completion count at 0, echarts' pie defaults to `stillShowZeroSum: true` and splits the ring
 * evenly: the admin's first look at the dashboard shows 官种已完成 / 官种未完成 / 非官种已完成 / 非官种未完成 as
 * 25 % each — a picture of data that does not exist. The two other charts of the page that can be empty
 * (近 30 天团队做种量, 本月预计工资 Top 10) show an empty state instead.
 *
 * Fails now: each of the four sectors spans 90° (π/2). Passes once the donut shows an empty state (no chart) or
 * draws no sector for a zero count.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import type { AllSeedingStats } from '@shared/entities'
import { routes } from '@renderer/router'
import { echarts } from '@renderer/components/Chart/echarts'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

/** What the server answers right after installation: nothing synced, nobody, no wages. */
const newInstall: AllSeedingStats = {
  officialTorrents: 0,
  officialSize: 0,
  completedOfficial: 0,
  members: 0,
  activeMembers: 0,
  byStatus: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 },
  byCompletion: { 1: 0, 2: 0, 3: 0, 4: 0 },
  seedingSize: 0,
  daily: [],
  topWages: [],
  estimatedWages: 0,
  computedAt: '2025-03-14T09:05:00+08:00',
}

beforeEach(() => {
  installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'statistics.all': ok(newInstall) } })
})

describe('首页 on a new install', () => {
  it('does not draw the completion donut as four equal slices of nothing', async () => {
    renderRoutes(routes, '/')
    await screen.findByTestId('stat-官种数')
    // The page handles empty data elsewhere (sanity: these two show their empty states).
    expect(screen.getByText('暂无做种历史')).toBeTruthy()
    expect(screen.getByText('本月尚无工资数据')).toBeTruthy()

    const box = screen.queryByRole('img', { name: '种子完成情况' })
    if (!box) return // an empty state in the chart's place: fixed
    const chart = echarts.getInstanceByDom(box)!
    // echarts' laid-out sectors: the angle each completion label takes of the ring.
    const data = (
      chart as unknown as {
        getModel(): { getSeriesByIndex(i: number): { getData(): { count(): number; getItemLayout(i: number): { angle: number } } } }
      }
    )
      .getModel()
      .getSeriesByIndex(0)
      .getData()
    const angles = Array.from({ length: data.count() }, (_, i) => Number(data.getItemLayout(i).angle.toFixed(4)))
    // Every count is 0: no label may take any part of the ring. Actual: [1.5708, 1.5708, 1.5708, 1.5708] (90° each).
    expect(angles).toEqual([0, 0, 0, 0])
  })
})
