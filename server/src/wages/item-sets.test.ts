/**
 * The stored item sets keep each unqualified item's kind, and its reason is written when the set is
 * read: the text must be exactly the formula's (\`disqualification\` of the record), for every kind,
 * with figures that need rounding. Sets stored as text before keep their text.
 */
import { describe, expect, it } from 'vitest'
import { defaultRuleBody as rules, GIB } from '../rules/rules'
import { createWageCalculator, disqualification, type WageInput, type WageMember } from './formula'
import { ItemSetCollector, storedReason } from './item-sets'

const periodEnd = Date.UTC(2026, 10, 1)

function record(userId: number, torrentId: number, over: Partial<WageInput> = {}): WageInput {
  return {
    userId,
    torrentId,
    torrentName: `T${torrentId}`,
    size: 10 * GIB,
    official: true,
    addedAt: periodEnd - 8 * 7 * 24 * 3600_000,
    seeders: 3,
    claimedAt: periodEnd - 3600_000 * userId,
    seedTimeGainSec: 400 * 3600,
    uploadedGain: 0,
    ...over,
  }
}

describe('item sets', () => {
  it('write each reason exactly as the formula gives it, and nothing for qualified items', () => {
    const members = new Map<number, WageMember>([
      [1, { userId: 1, status: 2 }],
      [2, { userId: 2, status: 0 }],
      [3, { userId: 3, status: 2, siteEnabled: false }],
    ])
    const records = [
      record(1, 10),
      record(1, 11, { official: false }),
      record(1, 12, { size: 0.7431 * GIB }),
      record(1, 13, { seedTimeGainSec: 120.456 * 3600, uploadedGain: 12.3456 * GIB, size: 7.777 * GIB }),
      record(1, 14, { banned: true }),
      record(1, 15, { seedTimeGainSec: 1 / 3, uploadedGain: (10 * GIB) / 3 }),
      record(2, 10),
      record(3, 11),
      record(4, 12), // not a member (any more): 账号已删除
    ]
    const calculator = createWageCalculator(rules, members, periodEnd)
    const collector = new ItemSetCollector()
    const expected = new Map<string, string | null>()
    for (const torrentId of [10, 11, 12, 13, 14, 15]) {
      for (const item of calculator.addTorrent(records.filter((r) => r.torrentId === torrentId))) {
        collector.add(item)
        const input = records.find((r) => r.userId === item.userId && r.torrentId === item.torrentId)!
        const member = members.get(item.userId) ?? { userId: item.userId, status: 1 as const }
        expected.set(`${item.userId}/${item.torrentId}`, disqualification(input, member, rules))
      }
    }
    const stored = new Map<string, string | null>()
    const kinds = new Set<unknown>()
    for (const set of collector.sets()) {
      for (const [torrentId, size, , seedHours, uploaded, , , , reason] of JSON.parse(set.items) as [
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number | null,
      ][]) {
        kinds.add(reason)
        stored.set(`${set.userId}/${torrentId}`, storedReason({ reason: reason as never, size, seedHours, uploaded }, rules))
      }
    }
    // The set holds the kinds, not the text.
    expect([...kinds].every((k) => k === null || typeof k === 'number')).toBe(true)
    expect(stored).toEqual(expected)
    // Every kind is in the example, with figures that round.
    expect([...stored.values()].filter((r) => r !== null).sort()).toEqual(
      [
        '做种时长不足（0 小时 < 300 小时），上传量也不足（0.33 倍 < 2 倍体积）',
        '做种时长不足（120.46 小时 < 300 小时），上传量也不足（1.59 倍 < 2 倍体积）',
        '种子已被站点禁止',
        '站点账号已禁用',
        '账号封禁',
        '账号已删除',
        '非官种',
        '体积不足（0.74 GiB < 1 GiB）',
      ].sort(),
    )
    expect(stored.get('1/10')).toBeNull()
  })

  it('show a reason stored as text (sets computed before the kinds) as it is', () => {
    expect(storedReason({ reason: '非官种', size: 1, seedHours: 0, uploaded: 0 }, null)).toBe('非官种')
    expect(storedReason({ reason: null, size: 1, seedHours: 0, uploaded: 0 }, null)).toBeNull()
  })
})
