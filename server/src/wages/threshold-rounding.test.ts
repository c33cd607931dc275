/**
 * Near a standard, the breakdown never shows the standard as met by a record that failed it: seed hours, upload
 * times and size beside a failed standard are cut to 2 places, not rounded up (299 h 59 min 50 s shows 299.99 小时,
 * not 「300 小时 < 300 小时」). Found by an outside tester.
 */
import { describe, expect, it } from 'vitest'
import { defaultRuleBody as rules, GIB } from '../rules/rules'
import { belowStandard, computeWages, type WageInput } from './formula'
import { itemOut } from './engine'

const periodEnd = Date.UTC(2026, 1, 1)
const WEEK = 7 * 24 * 3600 * 1000

const record = (over: Partial<WageInput>): WageInput => ({
  userId: 1,
  torrentId: 100,
  torrentName: 'Some.Movie.2019.1080p-TEAM',
  size: 10 * GIB,
  official: true,
  addedAt: periodEnd - 20 * WEEK,
  seeders: 3,
  claimedAt: periodEnd - 30 * WEEK,
  seedTimeGainSec: 0,
  uploadedGain: 0,
  ...over,
})

describe('an item just below the standard, as the breakdown shows it', () => {
  it('does not show the standard as met while saying it was not (seed hours)', () => {
    const { items, members } = computeWages(rules, [{ userId: 1, status: 2 }], [record({ seedTimeGainSec: 300 * 3600 - 10 })], periodEnd)
    const shown = itemOut(items[0]!, rules)
    expect(members[0]!.amount).toBe(0)
    expect(shown.qualified).toBe(false)
    // What the member reads: 300 h seeded, standard 300 h, not paid.
    expect(shown.reason).not.toMatch(/（300 小时 < 300 小时）/)
    expect(shown.seedHours).toBeLessThan(rules.standardSeedHours)
    expect(shown.seedHours).toBe(299.99)
    expect(shown.reason).toMatch(/^做种时长不足（299.99 小时 < 300 小时）/)
  })

  it('does not show the upload standard as met while saying it was not (uploaded times)', () => {
    const { items } = computeWages(rules, [{ userId: 1, status: 2 }], [record({ uploadedGain: 2 * 10 * GIB - 1024 * 1024 })], periodEnd)
    const shown = itemOut(items[0]!, rules)
    expect(shown.qualified).toBe(false)
    expect(shown.reason).not.toMatch(/（2 倍 < 2 倍体积）/)
    expect(shown.reason).toMatch(/上传量也不足（1.99 倍 < 2 倍体积）$/)
  })

  it('cuts only what would reach the standard; exact figures stay exact', () => {
    expect(belowStandard(299.999, 300)).toBe(299.99)
    expect(belowStandard(0.29, 1)).toBe(0.29) // 0.29 × 100 is 28.999… in binary
    expect(belowStandard(12.345, 300)).toBe(12.35) // far from the standard: rounded as everywhere
  })
})
