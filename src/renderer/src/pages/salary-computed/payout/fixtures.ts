/** 发放到站点's test data: a dry-run row and a result row of alice's wage (#7) for last month, each with overrides. */
import type { PayoutPreview, PayoutPreviewEntry, PayoutResult } from '@shared/payout'
import { lastMonth } from '..'

export const payoutPeriod = lastMonth().format('YYYY-MM')

export const previewEntry = (over: Partial<PayoutPreviewEntry> = {}): PayoutPreviewEntry => ({
  wageId: 7,
  userId: 2,
  username: 'alice',
  period: payoutPeriod,
  siteUid: 1001,
  amount: 500.3,
  credit: '500.3',
  rounding: null,
  bonusBefore: '1200.0',
  bonusAfter: '1700.3',
  logComment: `保种工资 ${payoutPeriod}（工资记录 #7，魔力 1200.0 → 1700.3）[seeding-console:wage:7]`,
  subject: `保种工资 ${payoutPeriod}：500.3 魔力已发放`,
  message: 'alice，你好：',
  status: 'ready',
  note: null,
  ...over,
})

export const payoutResult = (over: Partial<PayoutResult> = {}): PayoutResult => ({
  wageId: 7,
  userId: 2,
  username: 'alice',
  status: 'paid',
  reason: null,
  credit: '500.3',
  bonusBefore: '1200.0',
  bonusAfter: '1700.3',
  logId: 31,
  messageId: 41,
  ...over,
})

/** A dry run to a NexusPHP site, nothing in its way. */
export const dryRun = (list: PayoutPreviewEntry[]): PayoutPreview => ({
  target: 'nexusphp',
  targetLabel: 'NexusPHP 站点',
  disabledReason: null,
  list,
})
