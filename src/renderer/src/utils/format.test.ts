import { describe, expect, it } from 'vitest'
import { formatAmount, formatBytes, formatCount, formatDate, formatDateTime, formatDuration, formatHours } from './format'

const GiB = 1024 ** 3
const TiB = 1024 ** 4

describe('formatBytes', () => {
  it('uses binary units with two decimals', () => {
    expect(formatBytes(1.5 * GiB)).toBe('1.50 GiB')
    expect(formatBytes(2 * TiB)).toBe('2.00 TiB')
    expect(formatBytes(1536)).toBe('1.50 KiB')
    expect(formatBytes(5 * 1024 ** 2)).toBe('5.00 MiB')
  })

  it('keeps bytes whole and handles zero and negatives', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(-1.5 * GiB)).toBe('-1.50 GiB')
  })

  it('steps up a unit when rounding reaches 1024', () => {
    expect(formatBytes(1024 * GiB - 1)).toBe('1.00 TiB')
  })

  it('shows - for missing values', () => {
    expect(formatBytes(null)).toBe('-')
    expect(formatBytes(undefined)).toBe('-')
    expect(formatBytes(Number.NaN)).toBe('-')
  })
})

describe('formatDuration', () => {
  it('writes days and hours, spaced like every other figure with its unit (3.88 GiB, 522.2 小时)', () => {
    expect(formatDuration((3 * 24 + 5) * 3600)).toBe('3 天 5 小时')
    expect(formatDuration(5 * 3600 + 59 * 60)).toBe('5 小时')
    expect(formatDuration(2 * 24 * 3600)).toBe('2 天')
    expect(formatDuration((1095 * 24 + 2) * 3600)).toBe('1,095 天 2 小时')
  })

  it('uses minutes under an hour and 0 小时 for nothing', () => {
    expect(formatDuration(45 * 60)).toBe('45 分钟')
    expect(formatDuration(0)).toBe('0 小时')
  })

  it('shows - for missing or negative values', () => {
    expect(formatDuration(null)).toBe('-')
    expect(formatDuration(-1)).toBe('-')
  })

  it('formats hours the same way, to the nearest hour: seed time and wage totals read alike', () => {
    expect(formatHours(50)).toBe('2 天 2 小时')
    expect(formatHours(447405.4)).toBe('18,641 天 21 小时')
    expect(formatHours(20.6)).toBe('21 小时')
    expect(formatHours(undefined)).toBe('-')
  })
})

describe('formatDateTime', () => {
  it('formats as YYYY-MM-DD HH:mm in local time', () => {
    const local = new Date(2025, 2, 1, 8, 5, 59)
    expect(formatDateTime(local.toISOString())).toBe('2025-03-01 08:05')
    expect(formatDateTime(local)).toBe('2025-03-01 08:05')
    expect(formatDate(local.getTime())).toBe('2025-03-01')
  })

  it('shows - for missing or invalid values', () => {
    expect(formatDateTime(null)).toBe('-')
    expect(formatDateTime('')).toBe('-')
    expect(formatDateTime('not a date')).toBe('-')
  })
})

describe('formatAmount', () => {
  it('keeps two decimals with thousands separators', () => {
    expect(formatAmount(12345.6)).toBe('12,345.60')
    expect(formatAmount(0)).toBe('0.00')
    expect(formatAmount(null)).toBe('-')
  })
})

describe('formatCount', () => {
  it('groups thousands, and shows - for a count that is not there (no TypeError in a table cell)', () => {
    expect(formatCount(1373)).toBe('1,373')
    expect(formatCount(0)).toBe('0')
    expect(formatCount(undefined)).toBe('-')
    expect(formatCount(null)).toBe('-')
    expect(formatCount(Number.NaN)).toBe('-')
  })
})
