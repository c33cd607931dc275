/** Figures the dashboard derives from the statistics answers. */
import type { AllSeedingStats, ByStatus } from '@shared/entities'
import { SeedStatus } from '@shared/enums'
import { EMPTY } from '@renderer/utils/format'

/** Share of official torrents with enough keepers, in percent; null when there are none. */
export function completionRate(stats: Pick<AllSeedingStats, 'completedOfficial' | 'officialTorrents'>): number | null {
  if (stats.officialTorrents <= 0) return null
  return (stats.completedOfficial / stats.officialTorrents) * 100
}

/** `24.0%`, or `-` when there is nothing to divide by. */
export function formatPercent(value: number | null, digits = 1): string {
  return value === null || !Number.isFinite(value) ? EMPTY : `${value.toFixed(digits)}%`
}

/** Records seeding now: claimed (3) and unclaimed (4). */
export function seedingRecords(byStatus: ByStatus): number {
  return byStatus[SeedStatus.Seeding] + byStatus[SeedStatus.SeedingUnclaimed]
}

/** The rank line of the member block. */
export function rankText(rank: number | null): string {
  return rank === null ? '暂无排名' : `第 ${rank} 名`
}

/** The last `days` entries of a daily series (the server may send more than the chart shows). */
export function lastDays<T>(daily: readonly T[], days = 30): T[] {
  return daily.slice(-days)
}
