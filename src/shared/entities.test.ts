import { describe, expect, it } from 'vitest'
import { accountStatusSchema, byStatusSchema, isoTime, seedStatusSchema } from './entities'
import { seedStatusColors, seedStatusLabels, seedStatusValues } from './enums'

describe('entity schemas', () => {
  it('accept exactly the eight seeding statuses', () => {
    for (const status of seedStatusValues) expect(seedStatusSchema.safeParse(status).success).toBe(true)
    for (const bad of [0, 9, '3', 3.5, null]) expect(seedStatusSchema.safeParse(bad).success).toBe(false)
  })

  it('have a label and a colour for every status', () => {
    for (const status of seedStatusValues) {
      expect(seedStatusLabels[status]).toMatch(/[\u4e00-\u9fff]/)
      expect(seedStatusColors[status]).toBeTruthy()
    }
    expect(new Set(Object.values(seedStatusColors)).size).toBe(8)
  })

  it('accept account statuses 0, 1, 2 only', () => {
    expect([0, 1, 2].every((s) => accountStatusSchema.safeParse(s).success)).toBe(true)
    expect(accountStatusSchema.safeParse(3).success).toBe(false)
  })

  it('require every status in a by-status count', () => {
    expect(byStatusSchema.safeParse({ 1: 0, 2: 0, 3: 5, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 }).success).toBe(true)
    expect(byStatusSchema.safeParse({ 3: 5 }).success).toBe(false)
  })

  it('take times as ISO-8601 with an offset', () => {
    expect(isoTime.safeParse('2026-11-21T12:00:00.000Z').success).toBe(true)
    expect(isoTime.safeParse('2026-11-21T20:00:00+08:00').success).toBe(true)
    expect(isoTime.safeParse('2026-11-21 20:00').success).toBe(false)
  })
})
