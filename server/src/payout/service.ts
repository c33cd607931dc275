/**
 * 发放到站点 (closing the month into the site): preview, pay, settle. The ledger entry of each wage record is written
 * before its site is touched and moved only by conditional transitions; a wage record becomes
 * 已发放 (paid at/by) in the same transaction that marks its entry done (record-outcome.ts).
 * Which site is paid: choose-target.ts; the dry run: preview.ts.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { ExpressionBuilder } from 'kysely'
import type { PayoutPreview, PayoutResult } from '@shared/payout'
import { payoutStatusLabels, payoutTargetLabels } from '@shared/payout'
import type { DB } from '../db/schema'
import { conflict } from '../errors'
import { type OperationAction, recordOperation } from '../operation-log/record'
import { chooseTarget, type TargetOptions } from './choose-target'
import { entriesOf, openEntries, paysAsRead, transition, type LedgerEntry } from './ledger'
import { memberPayout } from './member'
import { previewPayout } from './preview'
import { lockPeriods } from '../wages/engine'
import { recordOutcome, resultOf, resultSummary, statusOf } from './record-outcome'
import { earlierMonthReason, earlierMonthsUnpaid, monthNotOverReason, monthsNotOver } from './month-over'
import { payoutRules } from './rules'
import { type PayOutcome, PayoutError, type PayoutTarget, type SentNotes } from './target'
import { namedWageRecords } from '../wages/log-detail'
import {
  HAND_PAID,
  HAND_PAID_WHILE_OPEN,
  handPaidWhileOpen,
  openForAnotherTarget,
  openForAnotherTargetReason,
  otherTargetUnpaid,
  loadWages,
  monthOptions,
  paidByHand,
  selectWages,
  wageFacts,
  type PayoutWage,
  type WageSelection,
} from './wages'

export interface Operator {
  id: number
  username: string
}

export interface PayoutServiceOptions extends TargetOptions {
  log?: FastifyBaseLogger
  /** How often due webhook retries are looked for. */
  retryPollMs?: number
}

export interface PayoutService {
  readonly disabledReason: string | null
  /** Wages are POSTed to PAYOUT_WEBHOOK_URL (the 数据同步 delivery log is shown). */
  readonly webhookConfigured: boolean
  preview(selection: WageSelection): Promise<PayoutPreview>
  run(selection: WageSelection, operator: Operator, ip: string): Promise<PayoutResult[]>
  resolve(wageId: number, action: 'markDone' | 'payRest', operator: Operator, ip: string): Promise<PayoutResult>
  /** Ledger state per wage record (我的工资). */
  states(wageIds: number[]): Promise<Map<number, LedgerEntry>>
  /** Delivers due webhook retries now; the background loop calls it. */
  retryDue(): Promise<number>
  start(): void
  close(): Promise<void>
}

/** A webhook delivery left unrecorded this long (no retry time) was orphaned by a payout that stopped: retried. */
const ORPHANED_DELIVERY_MS = 60 * 60_000
/**
 * How long a delivery taken stays its taker's (a delivery times out in seconds): a run's entries not yet reached count
 * as orphaned sooner, so a retry that takes one of them is never racing the delivery the run has in flight.
 */
const DELIVERY_LEASE_MS = 2 * ORPHANED_DELIVERY_MS

export function createPayoutService(options: PayoutServiceOptions): PayoutService {
  const { db } = options.database
  const { target, reason: disabledReason } = chooseTarget(options)
  const label = target ? payoutTargetLabels[target.name] : '未开启'

  const requireTarget = (): PayoutTarget => {
    if (!target) throw conflict(disabledReason!)
    return target
  }

  async function logRun(
    operator: Operator,
    ip: string,
    action: OperationAction,
    targetId: string | number | null,
    detail: string,
  ): Promise<void> {
    await recordOperation(db, { operator, action, targetType: 'wage-payout', targetId, detail, ip }, options.clock())
  }

  const sentNotes = (entry: LedgerEntry): SentNotes => {
    // Only while the entry is still open, and as this attempt read it: a failed entry reopened since may credit
    // another amount or uid.
    const openAsRead = (eb: ExpressionBuilder<DB, 'payout_ledger'>) =>
      eb.and([eb('id', '=', entry.id), eb('state', 'in', ['pending', 'in_doubt']), paysAsRead(eb, entry)])
    const noteOnEntry = async (set: Partial<Pick<LedgerEntry, 'credit_sent_at' | 'claims_sent_at' | 'claims_plan'>>) => {
      const { numUpdatedRows } = await db.updateTable('payout_ledger').set(set).where(openAsRead).executeTakeFirst()
      return Number(numUpdatedRows) === 1
    }
    return {
      async stillOpen() {
        return (await db.selectFrom('payout_ledger').select('id').where(openAsRead).executeTakeFirst()) !== undefined
      },
      async othersKeys() {
        if (entry.site_uid === null) return new Set()
        const rows = await db
          .selectFrom('payout_ledger')
          .select('ledger_key')
          .where('site_uid', '=', entry.site_uid)
          .where('wage_id', '!=', entry.wage_id)
          .execute()
        return new Set(rows.map((row) => row.ledger_key))
      },
      note(what) {
        const now = options.clock()
        return noteOnEntry(what === 'credit' ? { credit_sent_at: now } : { claims_sent_at: now })
      },
      tell: (plan) => noteOnEntry({ claims_plan: plan }),
      async forget(what) {
        await db
          .updateTable('payout_ledger')
          .set(what === 'credit' ? { credit_sent_at: null } : { claims_sent_at: null })
          .where('id', '=', entry.id)
          .execute()
      },
      async read() {
        const row = await db
          .selectFrom('payout_ledger')
          .select(['credit_sent_at', 'claims_sent_at', 'claims_plan'])
          .where('id', '=', entry.id)
          .executeTakeFirstOrThrow()
        return { credit: row.credit_sent_at !== null, claims: row.claims_sent_at !== null, told: row.claims_plan }
      },
    }
  }

  /**
   * Takes a webhook entry for one delivery, as read and only while nobody holds it — no retry time, or one that is due
   * (a delivery in flight holds a lease; a failed one waits for its retry time): another process, or this one's retry
   * loop, that read it too then finds it moved. Its retry time moves a lease on, so a delivery cut with its process is
   * retried then.
   */
  const takeDelivery = async (entry: LedgerEntry): Promise<boolean> => {
    const now = options.clock()
    if (entry.next_attempt_at !== null && entry.next_attempt_at > now) return false
    const { numUpdatedRows } = await db
      .updateTable('payout_ledger')
      .set({ next_attempt_at: now + DELIVERY_LEASE_MS })
      .where('id', '=', entry.id)
      .where('state', '=', 'pending')
      .where((eb) =>
        entry.next_attempt_at === null ? eb('next_attempt_at', 'is', null) : eb('next_attempt_at', '=', entry.next_attempt_at),
      )
      .executeTakeFirst()
    return Number(numUpdatedRows) === 1
  }

  let timer: NodeJS.Timeout | null = null
  let retrying: Promise<number> | null = null
  let closed = false

  const service: PayoutService = {
    disabledReason,
    webhookConfigured: target?.name === 'webhook',

    preview: (selection) => previewPayout(db, { target, label, disabledReason }, selection),

    async run(selection, operator, ip) {
      const site = requireTarget()
      const rules = await payoutRules(db)
      const wages = await loadWages(db, selection, monthOptions(rules, site))
      const results: PayoutResult[] = []
      try {
        await site.begin({ settleClaims: rules.settleClaims !== null })
      } catch (error) {
        const reason = error instanceof PayoutError ? error.message : `无法开始发放：${String(error)}`
        // Nothing was tried: a record paid already, or 待核对, is shown as it is, the others as not paid and why.
        const known = await entriesOf(
          db,
          wages.map((w) => w.id),
        )
        for (const wage of wages) {
          const entry = known.get(wage.id)
          if (entry?.state === 'done' || entry?.state === 'in_doubt') results.push(resultOf(wage, statusOf(entry), entry.reason, entry))
          else if (paidByHand(wage, entry)) results.push(resultOf(wage, 'already', HAND_PAID, entry))
          else results.push(resultOf(wage, 'failed', reason))
        }
        await logRun(operator, ip, 'wages.payout', selection.period ?? null, `发放到站点（${label}）未开始：${reason}`)
        return results
      }
      const notOver = await monthsNotOver(site, rules, wages)
      const earlier = await earlierMonthsUnpaid(db, site, rules, wages)
      // Under the months' lock (compute and POST /wages/pay take it too): the records as they are now, and their entries
      // opened from those. A compute that committed since `wages` were read (the site checks above take a while) would
      // otherwise have changed a record whose entry then opens with the old amount — the site credited one amount, the
      // record marked 已发放 at another; once the entry is open, a compute keeps the record as it is.
      const opened = await db.transaction().execute(async (trx) => {
        await lockPeriods(
          trx,
          options.database.dialect,
          wages.map((w) => w.period),
        )
        const current = (await selectWages(trx, { ids: wages.map((w) => w.id) })).wages
        const known = await entriesOf(
          trx,
          current.map((w) => w.id),
        )
        // A month not over (settleClaims): nothing of it opened or moved — an entry left open stays open, not 失败. One
        // done or 待核对 is shown as it is.
        const waits = (w: PayoutWage) => {
          const e = known.get(w.id)
          return (
            (notOver.has(w.period) || earlier.has(w.id)) &&
            !paidByHand(w, e) &&
            (e === undefined || e.state === 'pending' || e.state === 'failed')
          )
        }
        const waiting = new Set(current.filter(waits).map((w) => w.id))
        const toOpen = current.filter((w) => !paidByHand(w, known.get(w.id)) && !waiting.has(w.id))
        const entries = await openEntries(
          trx,
          toOpen.map((w) => ({ wageId: w.id, period: w.period, userId: w.userId, siteUid: w.siteUid, amount: w.amount })),
          { target: site.name, operator, now: options.clock() },
        )
        // (A month not over waits as it is: nothing of it moves.)
        const stuck = current
          .filter((w) => !waiting.has(w.id) && (handPaidWhileOpen(w, known.get(w.id)) || openForAnotherTarget(known.get(w.id), site.name)))
          .map((w) => known.get(w.id)!)
        for (const entry of stuck)
          await transition(trx, entry.id, 'pending', 'in_doubt', {
            reason: entry.target === site.name ? HAND_PAID_WHILE_OPEN : openForAnotherTargetReason(entry, site.name),
            now: options.clock(),
            nextAttemptAt: null,
          })
        for (const [wageId, entry] of await entriesOf(
          trx,
          stuck.map((e) => e.wage_id),
        ))
          entries.set(wageId, entry)
        // 待核对 whatever its record says: shown as the dry run shows it, until the admin settles it.
        for (const w of current) if (known.get(w.id)?.state === 'in_doubt' && !entries.has(w.id)) entries.set(w.id, known.get(w.id)!)
        return { current: new Map(current.map((w) => [w.id, w])), toOpen, entries, waiting }
      })
      const facts = await wageFacts(db, opened.toOpen, { claims: rules.settleClaims !== null })
      for (const listed of wages) {
        const wage = opened.current.get(listed.id)
        if (!wage) {
          results.push(resultOf(listed, 'failed', '这条工资记录已不存在（重新生成工资时该保种员已不在结果中）'))
          continue
        }
        if (opened.waiting.has(wage.id)) {
          const before = earlier.get(wage.id)
          results.push(
            resultOf(wage, 'failed', notOver.has(wage.period) || !before ? monthNotOverReason(wage.period) : earlierMonthReason(before)),
          )
          continue
        }
        const entry = opened.entries.get(wage.id)
        if (!entry) {
          results.push(resultOf(wage, 'already', HAND_PAID))
          continue
        }
        if (entry.state !== 'pending') {
          results.push(resultOf(wage, statusOf(entry), entry.state === 'done' ? '此前已发放到站点' : entry.reason, entry))
          continue
        }
        // A webhook delivery is taken first: a retry (of this process or another) may be sending it already.
        if (site.name === 'webhook' && !(await takeDelivery(entry))) {
          results.push(resultOf(wage, 'pending', '这条记录正在推送中或等待自动重试，稍后刷新查看结果', entry))
          continue
        }
        const outcome = await site.pay(memberPayout(entry, wage, facts.get(wage.id), rules, sentNotes(entry)))
        results.push(await recordOutcome(options.database, options.clock(), entry, wage, outcome, 'pending', operator))
      }
      const period = selection.period ?? [...new Set(wages.map((w) => w.period))].join('、')
      await logRun(
        operator,
        ip,
        'wages.payout',
        selection.period ?? (wages.length === 1 ? wages[0]!.id : null),
        `发放到站点（${label}）${period}：${resultSummary(results)}（${namedWageRecords(wages, wages.length)}）`,
      )
      return results
    },

    async resolve(wageId, action, operator, ip) {
      const site = requireTarget()
      const [wage] = await loadWages(db, { ids: [wageId] })
      const entry = (await entriesOf(db, [wageId])).get(wageId)
      if (!entry || entry.state !== 'in_doubt') throw conflict('这条工资记录不是待核对状态，无需处理')
      if (action === 'payRest' && paidByHand(wage!, entry))
        throw conflict('这条工资记录已在控制台标记为已发放，不能再补发；若站点上已到账，请选「确认已到账」')
      const rules = await payoutRules(db)
      // As a payout: with settleClaims, nothing of a month not over on the site's clock is written (a claim restarted
      // inside it would look unsettled to the next attempt). The entry stays 待核对.
      const notOver = await monthsNotOver(site, rules, [wage!]).catch((error: unknown) => {
        if (error instanceof PayoutError) return error.message
        throw error
      })
      const what = action === 'markDone' ? '确认已到账' : '补发剩余部分'
      if (typeof notOver === 'string' || notOver.has(wage!.period)) {
        const why = typeof notOver === 'string' ? notOver : monthNotOverReason(wage!.period)
        await logRun(operator, ip, 'wages.payout-resolve', wageId, `待核对处理（${what}）未进行：${wage!.username} ${wage!.period}，${why}`)
        return resultOf(wage!, 'failed', why, entry)
      }
      // Opened for another target (the configuration changed since): that target holds what may have landed, and this
      // one can neither read nor finish it. 确认已到账 records the admin's word without touching either; 补发剩余部分
      // leaves the entry 失败, so that the next payout pays it through this target, whole.
      const outcome: PayOutcome =
        entry.target !== site.name
          ? action === 'markDone'
            ? { state: 'done', already: false, evidence: {} }
            : { state: 'failed', reason: otherTargetUnpaid(entry, site.name, wage!), confirmedUnpaid: true }
          : await site.settle(
              memberPayout(
                entry,
                wage!,
                (await wageFacts(db, [wage!], { claims: rules.settleClaims !== null })).get(wageId),
                rules,
                sentNotes(entry),
              ),
              action,
            )
      const result = await recordOutcome(options.database, options.clock(), entry, wage!, outcome, 'in_doubt', operator, operator.username)
      await logRun(
        operator,
        ip,
        'wages.payout-resolve',
        wageId,
        // What the admin confirmed or settled, as the entry said it: the log is where that is found again.
        `待核对处理（${what}）：${wage!.username} ${wage!.period}，结果 ${payoutStatusLabels[result.status]}${result.reason ? `：${result.reason}` : ''}（待核对原因：${entry.reason ?? '无'}）`,
      )
      return result
    },

    states: (wageIds) => entriesOf(db, wageIds),

    retryDue() {
      retrying ??= (async () => {
        if (!target || target.name !== 'webhook') return 0
        const now = options.clock()
        // Due for a retry; or opened by a payout that stopped before it recorded the delivery (the process killed, the
        // run failed): no retry time, untouched for an hour — longer than a run takes to reach its last member.
        const due = (await db
          .selectFrom('payout_ledger')
          .selectAll()
          .where('state', '=', 'pending')
          .where('target', '=', 'webhook')
          .where((eb) =>
            eb.or([
              eb('next_attempt_at', '<=', now),
              eb.and([eb('next_attempt_at', 'is', null), eb('updated_at', '<=', now - ORPHANED_DELIVERY_MS)]),
            ]),
          )
          .orderBy('id')
          .limit(100)
          .execute()) as LedgerEntry[]
        let delivered = 0
        for (const entry of due) {
          if (closed) break
          if (!(await takeDelivery(entry))) continue
          const [wage] = (await selectWages(db, { ids: [entry.wage_id] })).wages
          if (!wage) continue
          // Marked 已发放 by hand while its delivery was still being retried: the admin paid it some other way.
          if (paidByHand(wage, entry)) {
            await transition(db, entry.id, 'pending', 'failed', { reason: HAND_PAID, now: options.clock(), nextAttemptAt: null })
            continue
          }
          const facts = await wageFacts(db, [wage])
          const outcome = await target.pay(memberPayout(entry, wage, facts.get(wage.id), await payoutRules(db)))
          const result = await recordOutcome(options.database, options.clock(), entry, wage, outcome, 'pending', {
            id: entry.created_by_id,
            username: entry.created_by_name,
          })
          if (result.status === 'paid') delivered++
        }
        return delivered
      })().finally(() => (retrying = null))
      return retrying
    },

    start() {
      if (timer || !target || target.name !== 'webhook') return
      const tick = () => {
        if (closed) return
        service
          .retryDue()
          .catch((error: unknown) => options.log?.error({ err: error }, 'webhook payout retry failed'))
          .finally(() => {
            if (!closed) timer = setTimeout(tick, options.retryPollMs ?? 5_000)
          })
      }
      timer = setTimeout(tick, 0)
    },

    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      await retrying?.catch(() => {})
      await target?.close()
    },
  }
  return service
}
