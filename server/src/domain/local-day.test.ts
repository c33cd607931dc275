import { describe, expect, it } from 'vitest'
import { dayToIso, localDateTime, localDay } from './local-day'

describe('local days and times in the rules’ zone', () => {
  it('writes wall-clock time in the zone, midnight as 00 (not 24)', () => {
    expect(localDateTime(Date.UTC(2026, 1, 3, 2, 0, 0), 'Asia/Shanghai')).toBe('2026-02-03 10:00:00')
    expect(localDateTime(Date.UTC(2026, 0, 31, 16, 0, 5), 'Asia/Shanghai')).toBe('2026-02-01 00:00:05')
    expect(localDateTime(Date.UTC(2026, 0, 31, 16, 0, 5), 'UTC')).toBe('2026-01-31 16:00:05')
  })

  it('puts an instant on the zone’s calendar day', () => {
    expect(localDay(Date.UTC(2026, 0, 31, 16, 0, 0), 'Asia/Shanghai')).toBe(20260201)
    expect(dayToIso(20260201)).toBe('2026-02-01')
  })
})
