/**
 * Ingest sites (PAYOUT_WEBHOOK_URL): each paid wage is POSTed as JSON, signed
 * `X-Signature: sha256=<hex HMAC-SHA256 of the body with PAYOUT_WEBHOOK_SECRET>`, with the ledger key
 * as `Idempotency-Key`. The receiver may see a key more than once (a retry after a lost answer) and
 * must credit it once. Until it answers 2xx the entry stays pending and is tried again with
 * growing pauses (service.ts), also after a restart; every attempt is in payout_webhook_deliveries.
 */
import { createHmac } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { formatTenths } from './tenths'
import type { MemberPayout, PayOutcome, PayoutTarget } from './target'

export interface WebhookOptions {
  url: string
  secret: string
  /** First pause after a failed delivery; doubled per attempt up to `maxBackoffMs`. */
  backoffMs?: number
  maxBackoffMs?: number
  timeoutMs?: number
  clock?: () => number
}

export const DEFAULT_BACKOFF_MS = 10_000
export const DEFAULT_MAX_BACKOFF_MS = 3_600_000

/** The longest pause a receiver's Retry-After is followed for: a wage waits a day at most. */
export const MAX_RETRY_AFTER_MS = 86_400_000

/**
 * A receiver's Retry-After (RFC 9110 §10.2.3: seconds, or an HTTP date) as a pause from `now`; 0 when absent or unreadable.
 * A receiver that is overloaded (429) or down for maintenance (503) says when to come back: retrying sooner only adds to
 * its load and to the failed attempts in 数据同步.
 */
export function retryAfterMs(header: string | null, now: number): number {
  if (!header) return 0
  const value = header.trim()
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 0
}

export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

/** The request of a first attempt: built from the ledger entry and the wage record, not from the time of sending. */
export function webhookBody(member: MemberPayout): string {
  const { entry, wage } = member
  const texts = member.texts(null, null)
  return JSON.stringify({
    idempotencyKey: entry.ledger_key,
    wageId: wage.id,
    period: wage.period,
    userId: wage.userId,
    username: wage.username,
    siteUid: wage.siteUid,
    amount: wage.amount,
    credit: formatTenths(member.credit),
    torrentCount: wage.torrentCount,
    totalSize: wage.totalSize,
    createdAt: new Date(entry.created_at).toISOString(),
    subject: texts.subject,
    message: texts.message,
  })
}

/** A delivery's answer until it is recorded: what the log shows of one whose process stopped while it was on its way. */
const IN_FLIGHT = '已发出，未记下接收方的回答（发送时服务器停止）'

export function webhookTarget(db: Kysely<DB>, options: WebhookOptions): PayoutTarget {
  const clock = options.clock ?? Date.now
  const backoff = (attempts: number) =>
    Math.min((options.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** Math.max(0, attempts), options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS)

  /**
   * The same bytes on every attempt of an entry: the body an earlier attempt sent, while it still pays what the entry
   * does (a failed entry reopened with another amount or site uid is a new request). The message texts would otherwise
   * follow a template, rank or username changed in between.
   */
  async function requestBody(member: MemberPayout): Promise<string> {
    const sent = await db
      .selectFrom('payout_webhook_deliveries')
      .select('body')
      .where('ledger_id', '=', member.entry.id)
      .where('body', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    if (sent?.body) {
      const earlier = JSON.parse(sent.body) as { idempotencyKey?: unknown; amount?: unknown; credit?: unknown; siteUid?: unknown }
      if (
        earlier.idempotencyKey === member.entry.ledger_key &&
        earlier.amount === member.wage.amount &&
        earlier.credit === formatTenths(member.credit) &&
        earlier.siteUid === member.wage.siteUid
      )
        return sent.body
    }
    return webhookBody(member)
  }

  async function deliver(member: MemberPayout): Promise<PayOutcome> {
    // Paid to nobody is not paid: as the other targets, a record without a site account fails (the dry run blocks it).
    if (member.wage.siteUid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID，无法发放到站点' }
    const body = await requestBody(member)
    // Noted before it is sent: a process that dies before the answer is recorded sends these same bytes again under the
    // same key (a receiver may refuse a reused key with another payload, for ever), whatever the texts are by then.
    const delivery = await db
      .insertInto('payout_webhook_deliveries')
      .values({ ledger_id: member.entry.id, at: clock(), status: null, error: IN_FLIGHT, body })
      .returning('id')
      .executeTakeFirstOrThrow()
    let status: number | null = null
    let error: string | null = null
    let location: string | null = null
    let retryAfter: string | null = null
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature': signature(body, options.secret),
          'idempotency-key': member.entry.ledger_key,
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        // Never followed: a redirected POST arrives as a GET without the wage, and whatever that page answers would
        // be taken for the receiver's 2xx (an http:// address that nginx sends to https://, say).
        redirect: 'manual',
      })
      status = response.status
      location = response.headers.get('location')
      retryAfter = response.headers.get('retry-after')
      await response.arrayBuffer().catch(() => {})
    } catch (cause) {
      error =
        cause instanceof Error
          ? `${cause.message}${(cause as { cause?: Error }).cause ? `（${(cause as { cause?: Error }).cause!.message}）` : ''}`
          : String(cause)
    }
    await db.updateTable('payout_webhook_deliveries').set({ at: clock(), status, error }).where('id', '=', delivery.id).execute()
    if (status !== null && status >= 200 && status < 300) return { state: 'done', already: false, evidence: { logId: delivery.id } }
    const retryAt = clock() + Math.max(backoff(member.entry.attempts), retryAfterMs(retryAfter, clock()))
    const why =
      status === null
        ? `无法连接接收方：${error}`
        : status >= 300 && status < 400
          ? `接收方返回 HTTP ${status}，要求转到 ${location ?? '（未给出地址）'}：重定向不会转发工资，请把 PAYOUT_WEBHOOK_URL 改为最终地址`
          : `接收方返回 HTTP ${status}`
    return { state: 'pending', reason: `${why}，将于 ${new Date(retryAt).toISOString()} 自动重试`, retryAt }
  }

  return {
    name: 'webhook',
    async begin() {},
    async bonusOf() {
      return null
    },
    pay: deliver,
    settle: deliver,
    async close() {},
  }
}
