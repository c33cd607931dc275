/**
 * Found by an outside tester (fixed since; the test keeps it so): 首页 → 官种完成率 said 100.0% while official torrents
 * still lacked keepers.
 *
 * What the admin sees: with 9,996 of 10,000 official torrents complete, the card reads 「官种完成率 100.0%」 above
 * 「已完成 9,996 / 10,000」 — the headline figure says the team is done while 4 official torrents still have fewer
 * keepers than the target (官种未完成). The percentage is rounded with toFixed(1), so anything from 99.95% up is shown
 * as 100.0%.
 *
 * What should happen: product.md §3 首页 shows 官种完成率 so an admin can tell at a glance whether every official
 * torrent has its keepers; a rate short of complete must not read as complete (the same rule the wage breakdown
 * follows: a figure beside a standard it failed is cut, never rounded up to meet it). 100.0% only when all are complete.
 */
import { describe, expect, it } from 'vitest'
import type { AllSeedingStats } from '@shared/entities'
import { statCards } from './StatCards'

const stats: AllSeedingStats = {
  officialTorrents: 10_000,
  officialSize: 0,
  completedOfficial: 9_996,
  members: 10,
  activeMembers: 10,
  byStatus: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 },
  byCompletion: { 1: 9_996, 2: 4, 3: 0, 4: 0 },
  seedingSize: 0,
  daily: [],
  topWages: [],
  estimatedWages: 0,
  computedAt: '2026-11-28T00:00:00Z',
}

describe('官种完成率 short of complete', () => {
  it('does not read 100.0% while 4 of 10,000 official torrents are incomplete', () => {
    const card = statCards(stats).find((c) => c.title === '官种完成率')!
    expect(card.note).toBe('已完成 9,996 / 10,000')
    expect(card.value).toBe('99.9%')
  })

  it('reads 100.0% when all are complete, and 0.1% (not 0.0%) when a few are', () => {
    const all = statCards({ ...stats, completedOfficial: 10_000 }).find((c) => c.title === '官种完成率')!
    expect(all.value).toBe('100.0%')
    const few = statCards({ ...stats, completedOfficial: 3 }).find((c) => c.title === '官种完成率')!
    expect(few.value).toBe('0.1%')
    const none = statCards({ ...stats, completedOfficial: 0 }).find((c) => c.title === '官种完成率')!
    expect(none.value).toBe('0.0%')
  })
})
