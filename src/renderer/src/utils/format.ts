/**
 * Display formats used across the console, one per kind of value: sizes in binary units,
 * durations in 天/小时, times as `YYYY-MM-DD HH:mm` in the user's local time.
 * Missing or unusable values render as `-` so tables never show `NaN` or `Invalid Date`.
 */
import dayjs from 'dayjs'

export const EMPTY = '-'

export const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const

function isUsableNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

/** `1610612736` → `1.50 GiB`; whole bytes stay whole (`512 B`). */
export function formatBytes(bytes: number | null | undefined, digits = 2): string {
  if (!isUsableNumber(bytes)) return EMPTY
  const sign = bytes < 0 ? '-' : ''
  let value = Math.abs(bytes)
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit += 1
  }
  // Rounding can carry into the next unit (1023.999 KiB → "1024.00 KiB"); step up instead.
  if (unit > 0 && unit < BYTE_UNITS.length - 1 && Number(value.toFixed(digits)) >= 1024) {
    value /= 1024
    unit += 1
  }
  return unit === 0 ? `${sign}${Math.round(value)} B` : `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit]}`
}

/**
 * Seconds → `3 天 5 小时`, `5 小时`, `2 天`, `1,095 天 2 小时`; under an hour → `N 分钟`; zero → `0 小时`.
 * Spaced like every figure with its unit (`3.88 GiB`, `522.2 小时`).
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (!isUsableNumber(seconds) || seconds < 0) return EMPTY
  const totalHours = Math.floor(seconds / 3600)
  if (totalHours === 0) {
    const minutes = Math.floor(seconds / 60)
    return minutes > 0 ? `${minutes} 分钟` : '0 小时'
  }
  const days = Math.floor(totalHours / 24)
  const hours = totalHours % 24
  if (days === 0) return `${hours} 小时`
  return hours === 0 ? `${formatCount(days)} 天` : `${formatCount(days)} 天 ${hours} 小时`
}

/** Hours (e.g. a wage's summed seed hours) in the same 天/小时 form, to the nearest whole hour. */
export function formatHours(hours: number | null | undefined): string {
  return isUsableNumber(hours) ? formatDuration(Math.round(hours) * 3600) : EMPTY
}

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm'
export const DATE_FORMAT = 'YYYY-MM-DD'

/** ISO string, epoch milliseconds or Date → `YYYY-MM-DD HH:mm` (local time). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY
  const time = dayjs(value)
  return time.isValid() ? time.format(DATE_TIME_FORMAT) : EMPTY
}

/** ISO string, epoch milliseconds or Date → `YYYY-MM-DD` (local time). */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY
  const time = dayjs(value)
  return time.isValid() ? time.format(DATE_FORMAT) : EMPTY
}

/** Counts (cards, totals, row counts, a table's count columns): `12345` → `12,345`; none → `-`. */
export function formatCount(value: number | null | undefined): string {
  return isUsableNumber(value) ? value.toLocaleString('zh-CN') : EMPTY
}

/** Wages are bonus points with two decimals: `12345.6` → `12,345.60`. */
export function formatAmount(value: number | null | undefined): string {
  if (!isUsableNumber(value)) return EMPTY
  return value.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}

/** A wage month as a title reads it: `2025-02` → `2025 年 2 月`. */
export function monthTitle(period: string): string {
  const [year, month] = period.split('-')
  return `${year} 年 ${Number(month)} 月`
}
