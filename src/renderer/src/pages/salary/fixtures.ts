/** Wage fixtures shared by the wage pages' tests. */
import type { WageDetail, WageItem, WagePreviewEntry, WageRankEntry, WageRecord } from '@shared/entities'
import { adminUser, memberUser } from '@renderer/test/fakeApi'

export const GiB = 1024 ** 3

export const wageRecord = (patch: Partial<WageRecord> = {}): WageRecord => ({
  id: 101,
  userId: memberUser.id,
  username: memberUser.username,
  period: '2025-02',
  amount: 1234.5,
  torrentCount: 12,
  totalSize: 300 * GiB,
  seedHours: 6120.5,
  payment: 0,
  paidAt: null,
  paidBy: null,
  computedAt: '2025-03-01T09:00:00+08:00',
  ruleVersion: 3,
  ...patch,
})

export const wageItem = (patch: Partial<WageItem> = {}): WageItem => ({
  torrentId: 11,
  torrentName: 'Planet.Earth.II.2016.2160p.UHD.BluRay.x265-TEAM',
  size: 50 * GiB,
  seeders: 4,
  seedHours: 672,
  uploaded: 80 * GiB,
  keeperRank: 1,
  value: 210.25,
  qualified: true,
  reason: null,
  ...patch,
})

export const wageDetail = (patch: Partial<WageDetail> = {}): WageDetail => ({
  ...wageRecord(),
  items: [
    wageItem(),
    wageItem({
      torrentId: 12,
      torrentName: 'Some.Show.S01.1080p',
      qualified: false,
      value: 0,
      reason: '做种时长不足 720 小时且上传量不足',
    }),
  ],
  ...patch,
})

export const previewEntry = (patch: Partial<WagePreviewEntry> = {}): WagePreviewEntry => ({
  userId: memberUser.id,
  username: memberUser.username,
  period: '2025-02',
  amount: 1234.5,
  torrentCount: 12,
  totalSize: 300 * GiB,
  seedHours: 6120.5,
  computedAt: '2025-03-01T09:00:00+08:00',
  ruleVersion: 3,
  belowMinimum: false,
  ...patch,
})

export const rankEntry = (patch: Partial<WageRankEntry> = {}): WageRankEntry => ({
  rank: 1,
  userId: memberUser.id,
  username: memberUser.username,
  period: '2025-02',
  amount: 1234.5,
  torrentCount: 12,
  totalSize: 300 * GiB,
  ...patch,
})

export { adminUser, memberUser }
