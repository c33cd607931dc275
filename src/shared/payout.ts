/**
 * Paying wages into the site (each member's bonus credited there): the shapes of the 发放到站点 calls. Amounts credited
 * to the site are decimal strings with NexusPHP's one decimal ("123.5"), exact as the site stores them.
 */
import { periodSchema } from './entities'
import { z } from './validation'

const id = z.number().int().positive()
const tenths = z.string().regex(/^-?\d+\.\d$/)

export const payoutTargetLabels = { nexusphp: 'NexusPHP 站点', demo: '演示站点', webhook: '推送接入站点（Webhook）' } as const
export type PayoutTarget = keyof typeof payoutTargetLabels

/** 成功 / 已发放过 / 待核对 / 失败, and 待送达 for a webhook the receiver has not yet accepted. */
export const payoutStatusLabels = { paid: '成功', already: '已发放过', in_doubt: '待核对', failed: '失败', pending: '待送达' } as const
export type PayoutStatus = keyof typeof payoutStatusLabels

export const payoutSelectionSchema = z
  .strictObject({
    ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(1000).optional(),
    period: periodSchema.optional(),
  })
  .refine((s) => (s.ids === undefined) !== (s.period === undefined), { message: '请选择工资记录（ids）或整月（period），二者只能选一' })

export const payoutPreviewEntrySchema = z.object({
  wageId: id,
  userId: id,
  username: z.string(),
  period: periodSchema,
  siteUid: id.nullable(),
  amount: z.number().nonnegative(),
  /** The wage rounded to the site's one decimal. */
  credit: tenths,
  /** Shown when rounding changed the amount, e.g. "123.456 → 123.5". */
  rounding: z.string().nullable(),
  bonusBefore: tenths.nullable(),
  bonusAfter: tenths.nullable(),
  logComment: z.string(),
  subject: z.string(),
  message: z.string(),
  /** What paying would do: ready, or why not (already paid, in doubt, cannot be paid). */
  status: z.enum(['ready', 'already', 'in_doubt', 'blocked']),
  note: z.string().nullable(),
})
export type PayoutPreviewEntry = z.infer<typeof payoutPreviewEntrySchema>

export const payoutPreviewSchema = z.object({
  target: z.enum(['nexusphp', 'demo', 'webhook']).nullable(),
  targetLabel: z.string(),
  /** null when paying is on; else why it is off (e.g. NEXUSPHP_WRITE_DATABASE_URL not set). */
  disabledReason: z.string().nullable(),
  list: z.array(payoutPreviewEntrySchema),
})
export type PayoutPreview = z.infer<typeof payoutPreviewSchema>

export const payoutResultSchema = z.object({
  wageId: id,
  userId: id,
  username: z.string(),
  status: z.enum(['paid', 'already', 'in_doubt', 'failed', 'pending']),
  reason: z.string().nullable(),
  credit: tenths,
  bonusBefore: tenths.nullable(),
  bonusAfter: tenths.nullable(),
  logId: z.number().int().nonnegative().nullable(),
  messageId: z.number().int().nonnegative().nullable(),
})
export type PayoutResult = z.infer<typeof payoutResultSchema>

export const payoutRunSchema = z.object({ list: z.array(payoutResultSchema) })

export const payoutResolveInputSchema = z.strictObject({ wageId: id.max(2_147_483_647), action: z.enum(['markDone', 'payRest']) })

/** 我的工资: whether and when each record reached the site. */
export const payoutStatusEntrySchema = z.object({
  wageId: id,
  state: z.enum(['pending', 'done', 'in_doubt', 'failed']),
  doneAt: z.iso.datetime({ offset: true }).nullable(),
})
export const payoutStatusInputSchema = z.strictObject({ ids: z.array(id.max(2_147_483_647)).min(1).max(1000) })

/** 数据同步 · webhook delivery log: one row per wage record sent to PAYOUT_WEBHOOK_URL, newest first. */
export const webhookDeliverySchema = z.object({
  wageId: id,
  username: z.string(),
  period: periodSchema,
  idempotencyKey: z.string(),
  attempts: z.number().int().nonnegative(),
  /** HTTP status of the last attempt; null when the receiver could not be reached (see `lastError`). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.iso.datetime({ offset: true }).nullable(),
  nextRetryAt: z.iso.datetime({ offset: true }).nullable(),
  state: z.enum(['pending', 'done', 'in_doubt', 'failed']),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

export const webhookDeliveriesSchema = z.object({
  /** PAYOUT_WEBHOOK_URL and PAYOUT_WEBHOOK_SECRET are set. */
  webhookConfigured: z.boolean(),
  list: z.array(webhookDeliverySchema),
})
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>
