/**
 * The webhook delivery log of 数据同步: the wage records last sent to PAYOUT_WEBHOOK_URL (newest
 * activity first), each with its attempts, the last answer and the next retry.
 */
import type { Kysely } from 'kysely'
import type { WebhookDelivery } from '@shared/payout'
import type { DB } from '../db/schema'

export const DELIVERY_LOG_SIZE = 100

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

export async function webhookDeliveryLog(db: Kysely<DB>, limit = DELIVERY_LOG_SIZE): Promise<WebhookDelivery[]> {
  const entries = await db
    .selectFrom('payout_ledger as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.wage_id', 'u.username', 'l.period', 'l.ledger_key', 'l.attempts', 'l.next_attempt_at', 'l.state'])
    .where('l.target', '=', 'webhook')
    .orderBy('l.updated_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute()
  if (!entries.length) return []
  // The last attempt of each entry: its highest delivery id.
  const last = await db
    .selectFrom('payout_webhook_deliveries as d')
    .select(['d.ledger_id', 'd.at', 'd.status', 'd.error'])
    .where('d.id', 'in', (eb) =>
      eb
        .selectFrom('payout_webhook_deliveries')
        .select((s) => s.fn.max('id').as('id'))
        .where(
          'ledger_id',
          'in',
          entries.map((e) => e.id),
        )
        .groupBy('ledger_id'),
    )
    .execute()
  const byEntry = new Map(last.map((d) => [Number(d.ledger_id), d]))
  return entries.map((e) => {
    const delivery = byEntry.get(Number(e.id))
    return {
      wageId: Number(e.wage_id),
      username: e.username,
      period: e.period,
      idempotencyKey: e.ledger_key,
      attempts: Number(e.attempts),
      lastStatus: delivery?.status === null || delivery?.status === undefined ? null : Number(delivery.status),
      lastError: delivery?.error ?? null,
      lastAttemptAt: iso(delivery ? Number(delivery.at) : null),
      nextRetryAt: e.state === 'pending' ? iso(e.next_attempt_at === null ? null : Number(e.next_attempt_at)) : null,
      state: e.state,
    }
  })
}
