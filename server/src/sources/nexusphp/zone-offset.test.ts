import { describe, expect, it } from 'vitest'
import { zoneOffset } from './connection'

describe('zoneOffset (the session time zone when the database server has no zone tables)', () => {
  it('turns a zone name into its offset at that instant, daylight saving included', () => {
    expect(zoneOffset('Asia/Shanghai', Date.UTC(2026, 0, 15))).toBe('+08:00')
    expect(zoneOffset('Asia/Kolkata', Date.UTC(2026, 0, 15))).toBe('+05:30')
    expect(zoneOffset('America/New_York', Date.UTC(2026, 0, 15))).toBe('-05:00')
    expect(zoneOffset('America/New_York', Date.UTC(2026, 6, 15))).toBe('-04:00')
    expect(zoneOffset('UTC', Date.UTC(2026, 6, 15, 12, 30, 45, 500))).toBe('+00:00')
  })

  it('keeps an offset as given', () => {
    expect(zoneOffset('+09:00')).toBe('+09:00')
    expect(zoneOffset('-03:30')).toBe('-03:30')
  })
})
