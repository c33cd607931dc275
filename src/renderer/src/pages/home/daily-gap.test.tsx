/**
 * Found by an outside tester (fixed since; the test keeps it so) — 「近 30 天团队做种量」 silently drops a day the server has no figures for.
 *
 * The server writes a day's team row only when a sync ran that day (server/src/stats/daily.ts) and answers
 * `daily` with just the rows it has (server/src/stats/all.ts: `where day between from and today`). A day the
 * server or the site was down (Asia/Shanghai calendar day, e.g. 2025-03-10) is simply absent from the list, and
 * the chart's category axis puts 03-09 and 03-11 side by side, drawing a smooth line through the outage as if
 * the team seeded normally that day. The admin cannot see the gap (nor that the chart spans 31 days).
 *
 * Fails now: the x axis is 03-01 … 03-09, 03-11 … 03-30 (no 03-10). Passes once every calendar day of the window
 * has its place on the axis (a category per day with an empty value, or a time axis).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import type { AllSeedingStats } from '@shared/entities'
import { routes } from '@renderer/router'
import { echarts } from '@renderer/components/Chart/echarts'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

const TiB = 1024 ** 4
/** 2025-03-01 … 2025-03-30, as the server writes them (yyyy-mm-dd of the rules' zone). */
const allDays = Array.from({ length: 30 }, (_, i) => `2025-03-${String(i + 1).padStart(2, '0')}`)
/** No sync ran on 03-10 (server down): the server has no row for it. */
const withOutage = allDays.filter((date) => date !== '2025-03-10')

const stats: AllSeedingStats = {
  officialTorrents: 100,
  officialSize: 10 * TiB,
  completedOfficial: 50,
  members: 5,
  activeMembers: 5,
  byStatus: { 1: 0, 2: 0, 3: 100, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 },
  byCompletion: { 1: 50, 2: 50, 3: 0, 4: 0 },
  seedingSize: 8 * TiB,
  daily: withOutage.map((date) => ({ date, seedingCount: 100, seedingSize: 8 * TiB })),
  topWages: [],
  estimatedWages: 0,
  computedAt: '2025-03-30T09:05:00+08:00',
}

beforeEach(() => {
  installFakeApi({ handlers: { 'user.loginInfo': ok(adminUser), 'statistics.all': ok(stats) } })
})

describe('近 30 天团队做种量', () => {
  it('keeps a place for a day without figures instead of joining its neighbours', async () => {
    renderRoutes(routes, '/')
    const box = await screen.findByRole('img', { name: '近 30 天团队做种量' })
    const option = echarts.getInstanceByDom(box)!.getOption() as { xAxis: { type: string; data?: string[] }[] }
    const axis = option.xAxis[0]!
    if (axis.type === 'time') return // a time axis spaces the days by date: fixed
    // It was: 29 categories, 03-09 followed by 03-11.
    expect(axis.data).toContain('03-10')
    expect(axis.data).toEqual(allDays.map((date) => date.slice(5)))
  })
})
