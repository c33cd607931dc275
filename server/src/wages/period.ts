/** Wage periods: calendar months (YYYY-MM) in the rules' time zone. */
import { dayStart, localDay } from '../domain/local-day'

export interface PeriodBounds {
  period: string
  /** yyyymmdd of the 1st of the month and of the next month. */
  startDay: number
  nextStartDay: number
  /** Epoch ms of local midnight starting the month, and the next month. */
  startMs: number
  endMs: number
}

/** Why a month's wages cannot be generated yet (the preview can). */
export const monthNotOverMessage = (period: string) => `${period} 尚未结束，月底之后才能生成工资（现在可以先预览计算）`

/** Why a month that is over cannot be computed yet: no sync has read its end counters (the site unreachable since). */
export const monthEndNotReadMessage = (period: string) =>
  `${period} 月底的做种计数还没有同步到（下月 1 日之后还没有完成过一次同步），现在计算会少算最后几天：请等同步完成后再预览或生成工资`

export function periodBounds(period: string, timeZone: string): PeriodBounds {
  const { startDay, nextStartDay } = periodDays(period)
  return { period, startDay, nextStartDay, startMs: dayStart(startDay, timeZone), endMs: dayStart(nextStartDay, timeZone) }
}

/** The period's first day and the first day after it, as yyyymmdd (days in any zone). */
export function periodDays(period: string): { startDay: number; nextStartDay: number } {
  const match = /^(\d{4})-(\d{2})$/.exec(period)
  if (!match) throw new Error(`bad period ${period}`)
  const year = Number(match[1])
  const month = Number(match[2])
  const startDay = year * 10000 + month * 100 + 1
  const nextStartDay = month === 12 ? (year + 1) * 10000 + 101 : year * 10000 + (month + 1) * 100 + 1
  return { startDay, nextStartDay }
}

/** The month `ms` falls in, in `timeZone`. */
export function periodOf(ms: number, timeZone: string): string {
  const day = localDay(ms, timeZone)
  return `${Math.floor(day / 10000)}-${String(Math.floor(day / 100) % 100).padStart(2, '0')}`
}

/** The period `n` months before `period` (n may be negative). */
export function shiftPeriod(period: string, n: number): string {
  const [y, m] = period.split('-').map(Number)
  const index = y * 12 + (m - 1) - n
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
}
