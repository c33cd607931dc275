/**
 * 发放到站点 (domain.md §7): preview, pay, settle. The ledger entry of each wage record is written
 * before its site is touched and moved only by conditional transitions; a wage record becomes
 * 已发放 (paid at/by) in the same transaction that marks its entry done.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { PayoutPreview, PayoutPreviewEntry, PayoutResult } from '@shared/payout'
import { payoutStatusLabels, payoutTargetLabels } from '@shared/payout'
import type { Config } from '../config'
import type { AppDatabase } from '../db/database'
import type { PayoutState } from '../db/schema'
import { conflict, notFound } from '../errors'
import { type OperationAction, recordOperation } from '../operation-log/record'
import { lockPeriods } from '../wages/engine'
import { demoTarget } from './demo-target'
import { entriesOf, openEntries, transition, type LedgerEntry } from './ledger'
import { nexusphpWriter } from './nexusphp-writer'
import { PayoutError, type MemberPayout, type PayOutcome, type PayoutTarget, type StepHook } from './target'
import { payoutRules, type PayoutRules } from './rules'
import { payoutTexts, roundingNote } from './texts'
import { creditTenths, formatTenths } from './tenths'
import { webhookTarget } from './webhook'
import { markWagePaid, selectWages, wageFacts, type PayoutWage, type WageFacts, type WageSelection } from './wages'

export interface Operator {
  id: number
  username: string
}

export interface PayoutServiceOptions {
  database: AppDatabase
  config: Config
  clock: () => number
  log?: FastifyBaseLogger
  /** Test hook: each step of a member's payout on the NexusPHP site. */
  onStep?: StepHook
  /** Webhook retry pauses (tests shorten them). */
  webhookBackoffMs?: number
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

/** Which target pays: the write account when set, else the webhook, else the demo's own site. */
function chooseTarget(options: PayoutServiceOptions): { target: PayoutTarget | null; reason: string | null } {
  const { config } = options
  const { writeDatabaseUrl, webhookUrl, webhookSecret } = config.payout
  if (writeDatabaseUrl)
    return {
      target: nexusphpWriter({ databaseUrl: writeDatabaseUrl, timezone: config.nexusphp.timezone, onStep: options.onStep }),
      reason: null,
    }
  if (webhookUrl && webhookSecret) {
    return {
      target: webhookTarget(options.database.db, {
        url: webhookUrl,
        secret: webhookSecret,
        backoffMs: options.webhookBackoffMs,
        clock: options.clock,
      }),
      reason: null,
    }
  }
  if (config.source === 'demo') return { target: demoTarget(options.database.db, options.database.dialect), reason: null }
  if (config.source === 'ingest')
    return { target: null, reason: '未设置 PAYOUT_WEBHOOK_URL 和 PAYOUT_WEBHOOK_SECRET，发放到站点未开启（见 README「发放到站点」）' }
  return { target: null, reason: '未设置 NEXUSPHP_WRITE_DATABASE_URL，发放到站点未开启（见 README「发放到站点」）' }
}

const resultOf = (
  wage: PayoutWage,
  status: PayoutResult['status'],
  reason: string | null,
  entry?: Pick<LedgerEntry, 'bonus_before' | 'bonus_after' | 'log_id' | 'message_id'>,
): PayoutResult => ({
  wageId: wage.id,
  userId: wage.userId,
  username: wage.username,
  status,
  reason,
  credit: formatTenths(creditTenths(wage.amount)),
  bonusBefore: entry?.bonus_before ?? null,
  bonusAfter: entry?.bonus_after ?? null,
  logId: entry?.log_id ?? null,
  messageId: entry?.message_id ?? null,
})

const statusOfState: Record<PayoutState, PayoutResult['status']> = {
  done: 'already',
  in_doubt: 'in_doubt',
  failed: 'failed',
  pending: 'pending',
}
const statusOf = (entry: LedgerEntry): PayoutResult['status'] =>
  entry.state === 'pending' && entry.target !== 'webhook' ? 'failed' : statusOfState[entry.state]

export function createPayoutService(options: PayoutServiceOptions): PayoutService {
  const { db } = options.database
  const { target, reason: disabledReason } = chooseTarget(options)
  const label = target ? payoutTargetLabels[target.name] : '未开启'

  const requireTarget = (): PayoutTarget => {
    if (!target) throw conflict(disabledReason!)
    return target
  }

  function member(entry: LedgerEntry, wage: PayoutWage, facts: WageFacts | undefined, rules: PayoutRules): MemberPayout {
    const credit = creditTenths(entry.amount)
    return {
      entry,
      wage,
      credit,
      texts: (before, after, note) =>
        payoutTexts(
          wage,
          facts ?? { items: [], rank: null, rankOf: 0 },
          { key: entry.ledger_key, credit, before, after, note },
          rules.template,
        ),
      claims: rules.settleClaims && { period: wage.period, ...rules.settleClaims },
    }
  }

  /** Records what the site said, moving the entry from `from`; a done entry makes its wage record 已发放 in the same transaction. */
  async function record(
    entry: LedgerEntry,
    wage: PayoutWage,
    outcome: PayOutcome,
    from: PayoutState,
    paidBy: { id: number | null; username: string },
    settledBy?: string,
  ): Promise<PayoutResult> {
    const now = options.clock()
    return db.transaction().execute(async (trx) => {
      // After a running compute of the month (the wage engine's lock), as POST /wages/pay does.
      await lockPeriods(trx, options.database.dialect, [wage.period])
      const evidence = 'evidence' in outcome ? outcome.evidence : undefined
      const to: PayoutState = outcome.state
      const moved = await transition(trx, entry.id, from, to, {
        reason: 'reason' in outcome ? outcome.reason : null,
        evidence,
        now,
        settledBy,
        attempted: true,
        nextAttemptAt: outcome.state === 'pending' ? (outcome.retryAt ?? null) : null,
      })
      const after = (await trx.selectFrom('payout_ledger').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow()) as LedgerEntry
      // Another payout recorded it first; if this one did the writing, it still reports 成功.
      if (!moved)
        return outcome.state === 'done' && !outcome.already && after.state === 'done'
          ? resultOf(wage, 'paid', null, after)
          : resultOf(wage, statusOf(after), after.reason, after)
      if (to === 'done') await markWagePaid(trx, wage.id, now, paidBy)
      // A pending site write (the outcome of a cut commit is unknown) is a failure to the admin; the next payout checks the site first.
      const status: PayoutResult['status'] =
        outcome.state === 'done'
          ? outcome.already
            ? 'already'
            : 'paid'
          : outcome.state === 'pending' && entry.target !== 'webhook'
            ? 'failed'
            : outcome.state
      return resultOf(
        wage,
        status,
        outcome.state === 'done' ? (outcome.already ? '站点上已有这笔发放（此前的发放已写入），未重复发放' : null) : outcome.reason,
        after,
      )
    })
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

  const summary = (results: PayoutResult[]) =>
    (Object.keys(payoutStatusLabels) as PayoutResult['status'][])
      .map((s) => [payoutStatusLabels[s], results.filter((r) => r.status === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${name} ${n}`)
      .join('，')

  async function load(selection: WageSelection): Promise<PayoutWage[]> {
    const { wages, missing } = await selectWages(db, selection)
    if (missing.length) throw notFound(`工资记录不存在：${missing.slice(0, 20).join(', ')}`)
    if (selection.period && wages.length === 0) throw notFound(`${selection.period} 没有可发放的工资记录`)
    return wages
  }

  /** A record marked 已发放 by hand (POST /wages/pay) without an entry was paid outside the console: never paid again. */
  const paidByHand = (wage: PayoutWage, entry: LedgerEntry | undefined) => wage.payment === 1 && !entry
  const HAND_PAID = '已在控制台标记为已发放（未经「发放到站点」），不会再发放到站点'

  let timer: NodeJS.Timeout | null = null
  let retrying: Promise<number> | null = null
  let closed = false

  const service: PayoutService = {
    disabledReason,
    webhookConfigured: target?.name === 'webhook',

    async preview(selection) {
      const wages = await load(selection)
      const entries = await entriesOf(
        db,
        wages.map((w) => w.id),
      )
      const facts = await wageFacts(db, wages)
      const rules = await payoutRules(db)
      let bonus: Map<number, bigint> | null = null
      let bonusProblem: string | null = null
      // settleClaims: what it will do to each member's claims, in the message as it will be sent.
      let claimNotes: Map<number, string | null> | null = null
      if (target) {
        try {
          bonus = await target.bonusOf(wages.flatMap((w) => (w.siteUid === null ? [] : [w.siteUid])))
          if (rules.settleClaims && target.previewClaims) {
            const open = wages.filter((w) => w.siteUid !== null && entries.get(w.id)?.state !== 'done')
            claimNotes = await target.previewClaims(
              open.map((w) => ({ wageId: w.id, uid: w.siteUid!, claims: { period: w.period, ...rules.settleClaims! } })),
            )
          }
        } catch (error) {
          bonusProblem = error instanceof PayoutError ? error.message : String(error)
        }
      }
      const list = wages.map((wage): PayoutPreviewEntry => {
        const entry = entries.get(wage.id)
        const credit = creditTenths(entry?.amount ?? wage.amount)
        const before = wage.siteUid !== null ? (bonus?.get(wage.siteUid) ?? null) : null
        const after = before === null ? null : before + credit
        const texts = payoutTexts(
          wage,
          facts.get(wage.id)!,
          {
            key: entry?.ledger_key ?? `seeding-console:wage:${wage.id}`,
            credit,
            before,
            after,
            note: claimNotes?.get(wage.id) ?? undefined,
          },
          rules.template,
        )
        let status: PayoutPreviewEntry['status'] = 'ready'
        let note: string | null = null
        if (entry?.state === 'done') [status, note] = ['already', '已发放到站点']
        else if (entry?.state === 'in_doubt') [status, note] = ['in_doubt', entry.reason]
        else if (paidByHand(wage, entry)) [status, note] = ['already', HAND_PAID]
        else if (wage.siteUid === null) [status, note] = ['blocked', '该保种员没有绑定站点 UID']
        else if (bonusProblem) note = bonusProblem
        else if (bonus && before === null) [status, note] = ['blocked', `站点上找不到该会员（UID ${wage.siteUid}）`]
        else if (entry?.state === 'pending') note = entry.reason ? `上次未完成：${entry.reason}` : '上次未完成，发放时先核对站点'
        return {
          wageId: wage.id,
          userId: wage.userId,
          username: wage.username,
          period: wage.period,
          siteUid: wage.siteUid,
          amount: wage.amount,
          credit: formatTenths(credit),
          rounding: roundingNote(wage.amount, credit),
          bonusBefore: before === null ? null : formatTenths(before),
          bonusAfter: after === null ? null : formatTenths(after),
          logComment: texts.comment,
          subject: texts.subject,
          message: texts.message,
          status,
          note,
        }
      })
      return { target: target?.name ?? null, targetLabel: label, disabledReason, list }
    },

    async run(selection, operator, ip) {
      const site = requireTarget()
      const wages = await load(selection)
      const results: PayoutResult[] = []
      const rules = await payoutRules(db)
      try {
        await site.begin({ settleClaims: rules.settleClaims !== null })
      } catch (error) {
        const reason = error instanceof PayoutError ? error.message : `无法开始发放：${String(error)}`
        for (const wage of wages) results.push(resultOf(wage, 'failed', reason))
        await logRun(operator, ip, 'wages.payout', selection.period ?? null, `发放到站点（${label}）未开始：${reason}`)
        return results
      }
      const known = await entriesOf(
        db,
        wages.map((w) => w.id),
      )
      const toOpen = wages.filter((w) => !paidByHand(w, known.get(w.id)))
      const entries = await openEntries(
        db,
        toOpen.map((w) => ({ wageId: w.id, period: w.period, userId: w.userId, siteUid: w.siteUid, amount: w.amount })),
        { target: site.name, operator, now: options.clock() },
      )
      const facts = await wageFacts(db, toOpen)
      for (const wage of wages) {
        const entry = entries.get(wage.id)
        if (!entry) {
          results.push(resultOf(wage, 'already', HAND_PAID))
          continue
        }
        if (entry.state !== 'pending') {
          results.push(resultOf(wage, statusOf(entry), entry.state === 'done' ? '此前已发放到站点' : entry.reason, entry))
          continue
        }
        const outcome = await site.pay(member(entry, wage, facts.get(wage.id), rules))
        results.push(await record(entry, wage, outcome, 'pending', operator))
      }
      const period = selection.period ?? [...new Set(wages.map((w) => w.period))].join('、')
      await logRun(
        operator,
        ip,
        'wages.payout',
        selection.period ?? (wages.length === 1 ? wages[0]!.id : null),
        `发放到站点（${label}）${period}：${summary(results)}（记录 ${wages
          .slice(0, 50)
          .map((w) => w.id)
          .join(', ')}${wages.length > 50 ? ' …' : ''}）`,
      )
      return results
    },

    async resolve(wageId, action, operator, ip) {
      const site = requireTarget()
      const [wage] = await load({ ids: [wageId] })
      const entry = (await entriesOf(db, [wageId])).get(wageId)
      if (!entry || entry.state !== 'in_doubt') throw conflict('这条工资记录不是待核对状态，无需处理')
      const facts = await wageFacts(db, [wage!])
      const outcome = await site.settle(member(entry, wage!, facts.get(wageId), await payoutRules(db)), action)
      const result = await record(entry, wage!, outcome, 'in_doubt', operator, operator.username)
      const what = action === 'markDone' ? '确认已到账' : '补发剩余部分'
      await logRun(
        operator,
        ip,
        'wages.payout-resolve',
        wageId,
        `待核对处理（${what}）：${wage!.username} ${wage!.period}，结果 ${payoutStatusLabels[result.status]}${result.reason ? `：${result.reason}` : ''}`,
      )
      return result
    },

    states: (wageIds) => entriesOf(db, wageIds),

    retryDue() {
      retrying ??= (async () => {
        if (!target || target.name !== 'webhook') return 0
        const due = (await db
          .selectFrom('payout_ledger')
          .selectAll()
          .where('state', '=', 'pending')
          .where('target', '=', 'webhook')
          .where('next_attempt_at', '<=', options.clock())
          .orderBy('id')
          .limit(100)
          .execute()) as LedgerEntry[]
        let delivered = 0
        for (const entry of due) {
          if (closed) break
          const [wage] = (await selectWages(db, { ids: [entry.wage_id] })).wages
          if (!wage) continue
          const facts = await wageFacts(db, [wage])
          const outcome = await target.pay(member(entry, wage, facts.get(wage.id), await payoutRules(db)))
          const result = await record(entry, wage, outcome, 'pending', { id: entry.created_by_id, username: entry.created_by_name })
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
