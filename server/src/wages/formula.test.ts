/**
 * The wage formula (formula.ts) against hand-computed examples. Each expected number is written
 * as the arithmetic that produces it, next to its rounded value, so a reader can check it by hand.
 */
import { describe, expect, it } from 'vitest'
import { defaultRuleBody as rules, GIB, type RuleBody } from '../rules/rules'
import {
  belowStandard,
  computeWages,
  createWageCalculator,
  disqualification,
  memberAmount,
  torrentValue,
  type WageInput,
  type WageMember,
} from './formula'
import { itemOut } from './engine'

const WEEK = 7 * 24 * 3600 * 1000
const periodEnd = Date.UTC(2026, 10, 1) // 2026-11-01T00:00Z
const normal = (userId: number): WageMember => ({ userId, status: 2 })

function record(over: Partial<WageInput> = {}): WageInput {
  return {
    userId: 1,
    torrentId: 100,
    torrentName: 'Some.Movie.2019.1080p.BluRay.x264-TEAM',
    size: 10 * GIB,
    official: true,
    addedAt: periodEnd - 8 * WEEK,
    seeders: 3,
    claimedAt: periodEnd - 30 * WEEK,
    seedTimeGainSec: 400 * 3600,
    uploadedGain: 0,
    ...over,
  }
}

describe('torrent value v', () => {
  it('8 weeks old, 10 GiB, 3 seeders, first keeper', () => {
    // (1 − 10^(−8/4)) × 10 × (1 + √2 × 10^(−(3−1)/(7−1))) × 1 = 0.99 × 10 × 1.656420 = 16.39856
    const expected = (1 - 10 ** (-8 / 4)) * 10 * (1 + Math.SQRT2 * 10 ** (-(3 - 1) / (7 - 1))) * 1
    expect(expected).toBeCloseTo(16.39856, 4)
    expect(torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 1 }, rules)).toBeCloseTo(expected, 10)
  })

  it('applies the keeper rank factors, the last one for every later keeper', () => {
    const base = torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 1 }, rules)
    expect(torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 2 }, rules)).toBeCloseTo(base * 0.8, 10)
    expect(torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 3 }, rules)).toBeCloseTo(base * 0.6, 10)
    expect(torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 4 }, rules)).toBeCloseTo(base * 0.3, 10)
    expect(torrentValue({ weeks: 8, sizeGiB: 10, seeders: 3, keeperRank: 9 }, rules)).toBeCloseTo(base * 0.3, 10)
  })

  it('takes N as the site reports it, 0 included (NexusPHP: 1 + √2 × 10^(1/6) at N = 0)', () => {
    // weeks → ∞, 1 GiB, N = 0: 1 × 1 × (1 + 1.414214 × 10^(1/6)) = 1 + 1.414214 × 1.467799 = 3.075782
    const zero = torrentValue({ weeks: 10_000, sizeGiB: 1, seeders: 0, keeperRank: 1 }, rules)
    expect(zero).toBeCloseTo(1 + Math.SQRT2 * 10 ** (1 / 6), 10)
    expect(zero).toBeCloseTo(3.075782, 5)
    expect(zero).toBeGreaterThan(torrentValue({ weeks: 10_000, sizeGiB: 1, seeders: 1, keeperRank: 1 }, rules))
  })

  it('rewards scarce torrents: the seeders term', () => {
    // 1 seeder: 1 + √2 × 10^0 = 2.414214; 7 seeders: 1 + √2 × 10^(−1) = 1.141421
    const one = torrentValue({ weeks: 1000, sizeGiB: 1, seeders: 1, keeperRank: 1 }, rules)
    const seven = torrentValue({ weeks: 1000, sizeGiB: 1, seeders: 7, keeperRank: 1 }, rules)
    expect(one).toBeCloseTo(1 + Math.SQRT2, 6) // age term is 1 − 10^(−250) ≈ 1
    expect(seven).toBeCloseTo(1 + Math.SQRT2 / 10, 6)
  })

  it('grows with the torrent age: a new torrent is worth little', () => {
    // 1 week: 1 − 10^(−1/4) = 1 − 0.562341 = 0.437659
    expect(torrentValue({ weeks: 1, sizeGiB: 1, seeders: 1, keeperRank: 1 }, rules)).toBeCloseTo(
      (1 - 10 ** (-1 / 4)) * (1 + Math.SQRT2),
      10,
    )
    expect(torrentValue({ weeks: 0, sizeGiB: 50, seeders: 1, keeperRank: 1 }, rules)).toBe(0)
  })
})

describe('member amount', () => {
  it('one qualified torrent, 400 seed hours', () => {
    // A = 16.39856; perHour = 100 × (2/π) × atan(16.39856 / 300) + 1 × min(1, 7)
    //   = 63.66198 × 0.0546075 + 1 = 4.476422; amount = 1 × 4.476422 × 400 = 1790.569 → 1790.57
    const A = (1 - 10 ** (-8 / 4)) * 10 * (1 + Math.SQRT2 * 10 ** (-(3 - 1) / (7 - 1)))
    const perHour = 100 * (2 / Math.PI) * Math.atan(A / 300) + 1 * Math.min(1, 7)
    expect(perHour).toBeCloseTo(4.476422, 5)
    const { members } = computeWages(rules, [normal(1)], [record()], periodEnd)
    expect(members).toEqual([
      {
        userId: 1,
        amount: 1790.57,
        torrentCount: 1,
        totalSize: 10 * GIB,
        seedHours: 400,
        sumValue: 16.3986,
        belowMinimum: false,
        partial: false,
      },
    ])
    expect(Math.round(perHour * 400 * 100) / 100).toBe(1790.57)
  })

  it('caps the per-seeding bonus at maxSeeding and averages the seed hours', () => {
    // 9 torrents of 1 GiB, 10000 weeks old, 1 seeder: v = 1 × 1 × (1 + √2) = 2.414214 each, A = 21.72792
    // perHour = 63.66198 × atan(21.72792/300) + 1 × min(9, 7) = 63.66198 × 0.0723002 + 7 = 11.602771
    // hours: 300, 310, …, 380 → average 340; amount = 11.602771 × 340 = 3944.942 → 3944.94
    const records = Array.from({ length: 9 }, (_, i) =>
      record({ torrentId: 200 + i, size: GIB, addedAt: periodEnd - 10_000 * WEEK, seeders: 1, seedTimeGainSec: (300 + 10 * i) * 3600 }),
    )
    const A = 9 * (1 + Math.SQRT2)
    const perHour = 100 * (2 / Math.PI) * Math.atan(A / 300) + 7
    expect(perHour).toBeCloseTo(11.602771, 5)
    const { members } = computeWages(rules, [normal(1)], records, periodEnd)
    expect(members[0]!.amount).toBe(Math.round(perHour * 340 * 100) / 100)
    expect(members[0]!.amount).toBe(3944.94)
    expect(members[0]!.torrentCount).toBe(9)
  })

  it('applies the multiplier and rounds to 2 decimals', () => {
    expect(memberAmount({ sumValue: 0, qualifiedCount: 1, avgSeedHours: 1 / 3 }, { ...rules, multiplier: 1.5 })).toBe(0.5)
    expect(memberAmount({ sumValue: 300, qualifiedCount: 0, avgSeedHours: 2 }, rules)).toBe(
      Math.round(100 * (2 / Math.PI) * Math.atan(1) * 2 * 100) / 100,
    ) // = 100
  })

  it('pays 0 below the minimums and flags the member', () => {
    const strict: RuleBody = { ...rules, minQualifiedCount: 2 }
    const { members } = computeWages(strict, [normal(1)], [record()], periodEnd)
    expect(members[0]).toMatchObject({ amount: 0, torrentCount: 1, belowMinimum: true })
    const bySize: RuleBody = { ...rules, minQualifiedSizeGiB: 20 }
    expect(computeWages(bySize, [normal(1)], [record()], periodEnd).members[0]).toMatchObject({ amount: 0, belowMinimum: true })
  })

  it('lists members without records with 0', () => {
    const { members } = computeWages(rules, [normal(1), normal(2)], [record()], periodEnd)
    expect(members.map((m) => [m.userId, m.amount > 0, m.belowMinimum])).toEqual([
      [1, true, false],
      [2, false, true],
    ])
  })
})

describe('qualification', () => {
  it('qualifies by seed hours alone', () => {
    expect(disqualification(record({ seedTimeGainSec: 300 * 3600 }), normal(1), rules)).toBeNull()
  })

  it('qualifies by upload alone (≥ 2 × size)', () => {
    expect(disqualification(record({ seedTimeGainSec: 10 * 3600, uploadedGain: 20 * GIB }), normal(1), rules)).toBeNull()
  })

  it('refuses neither, saying both numbers', () => {
    expect(disqualification(record({ seedTimeGainSec: 120.5 * 3600, uploadedGain: 12 * GIB }), normal(1), rules)).toBe(
      '做种时长不足（120.5 小时 < 300 小时），上传量也不足（1.2 倍 < 2 倍体积）',
    )
  })

  it('refuses a banned or deleted member', () => {
    expect(disqualification(record(), { userId: 1, status: 0 }, rules)).toBe('账号封禁')
    expect(disqualification(record(), { userId: 1, status: 1 }, rules)).toBe('账号已删除')
  })

  it('refuses an unofficial torrent and an under-size one', () => {
    expect(disqualification(record({ official: false }), normal(1), rules)).toBe('非官种')
    expect(disqualification(record({ size: 0.5 * GIB }), normal(1), rules)).toBe('体积不足（0.5 GiB < 1 GiB）')
  })
})

describe('keeper ranks', () => {
  it('order the qualified keepers of one torrent by claim time; the disqualified do not take a rank', () => {
    const calc = createWageCalculator(rules, new Map([1, 2, 3, 4].map((id) => [id, normal(id)])), periodEnd)
    const items = calc.addTorrent([
      record({ userId: 1, claimedAt: 3000 }),
      record({ userId: 2, claimedAt: 1000 }),
      record({ userId: 3, claimedAt: 500, seedTimeGainSec: 0 }), // first to claim but did not seed: no rank
      record({ userId: 4, claimedAt: 2000 }),
    ])
    expect(items.map((i) => [i.userId, i.keeperRank, i.qualified])).toEqual([
      [1, 3, true],
      [2, 1, true],
      [3, 0, false],
      [4, 2, true],
    ])
    // The third keeper earns 0.6 of the first.
    expect(items[0]!.value / items[1]!.value).toBeCloseTo(0.6, 3)
  })

  it('are independent per torrent', () => {
    const { items } = computeWages(
      rules,
      [normal(1), normal(2)],
      [record({ userId: 1, claimedAt: 2 }), record({ userId: 2, claimedAt: 1, torrentId: 101 })],
      periodEnd,
    )
    expect(items.map((i) => i.keeperRank)).toEqual([1, 1])
  })
})

describe('reproducibility', () => {
  it('gives identical results for the same input, whatever the record order', () => {
    const records = [record({ userId: 1 }), record({ userId: 2, claimedAt: 1 }), record({ userId: 2, torrentId: 300, size: 3 * GIB })]
    const a = computeWages(rules, [normal(1), normal(2)], records, periodEnd)
    const b = computeWages(rules, [normal(2), normal(1)], [...records].reverse(), periodEnd)
    expect(b.members).toEqual(a.members)
    expect([...b.items].sort((x, y) => x.torrentId - y.torrentId || x.userId - y.userId)).toEqual(
      [...a.items].sort((x, y) => x.torrentId - y.torrentId || x.userId - y.userId),
    )
  })
})

// Near a standard, the breakdown never shows a failed standard as met (299 h 59 min 50 s read 「300 小时 < 300 小时」).
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
    const { items } = computeWages(
      rules,
      [{ userId: 1, status: 2 }],
      [record({ seedTimeGainSec: 0, uploadedGain: 2 * 10 * GIB - 1024 * 1024 })],
      periodEnd,
    )
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
