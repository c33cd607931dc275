/** Figures the dashboard derives from the statistics answers. */
import dayjs from 'dayjs'
import type { AllSeedingStats, ByStatus } from '@shared/entities'
import { SeedStatus } from '@shared/enums'
import { EMPTY } from '@renderer/utils/format'

/** Share of official torrents with enough keepers, in percent; null when there are none. */
export function completionRate(stats: Pick<AllSeedingStats, 'completedOfficial' | 'officialTorrents'>): number | null {
  if (stats.officialTorrents <= 0) return null
  return (stats.completedOfficial / stats.officialTorrents) * 100
}

/**
 * `24.0%`, or `-` when there is nothing to divide by. Never rounded to 100% or 0% when it is not: 9,996 of 10,000
 * complete reads 99.9%, not a 「100.0%」 that says the team is done.
 */
export function formatPercent(value: number | null, digits = 1): string {
  if (value === null || !Number.isFinite(value)) return EMPTY
  const step = 10 ** -digits
  const shown = value < 100 && value > 100 - step / 2 ? 100 - step : value > 0 && value < step / 2 ? step : value
  return `${shown.toFixed(digits)}%`
}

/** Records seeding now: claimed (3) and unclaimed (4). */
export function seedingRecords(byStatus: ByStatus): number {
  return byStatus[SeedStatus.Seeding] + byStatus[SeedStatus.SeedingUnclaimed]
}

/** The rank line of the member block. */
export function rankText(rank: number | null): string {
  return rank === null ? '暂无排名' : `第 ${rank} 名`
}

/** A day of a chart: its figures, or null when the server has none for it (no sync ran that day). */
export interface ChartDay<T> {
  date: string
  figures: T | null
}

/**
 * The last `days` calendar days of a daily series, up to its last day, each in its place: the server keeps a day only
 * when a sync ran on it, and a day left out joined its neighbours on the chart — an outage drawn as a smooth line, and
 * 31 days under "近 30 天" (found by an outside tester). A day without figures is null: the line breaks there.
 */
export function lastDays<T extends { date: string }>(daily: readonly T[], days = 30): ChartDay<T>[] {
  const last = daily.at(-1)
  if (!last) return []
  const byDate = new Map(daily.map((day) => [day.date, day]))
  const end = dayjs(last.date)
  return Array.from({ length: days }, (_, i) => {
    const date = end.subtract(days - 1 - i, 'day').format('YYYY-MM-DD')
    return { date, figures: byDate.get(date) ?? null }
  })
}

/**
 * Why the dashboard's estimate is not 工资计算's preview of the same month (server/src/wages/estimates.ts): the
 * standards are scaled to the share of the month seen ("on pace"), and it is refreshed at most every 10 minutes.
 */
export const ESTIMATE_HELP =
  '按本月到目前为止的做种数据估算，达标标准按本月已过去的比例折算，最多每 10 分钟更新一次；与「工资计算」的预览（按完整标准）会有出入，实际工资以月底生成的为准'
