/**
 * The dry run of 发放到站点: per wage record, what paying would credit, the bonus before and after
 * as the site has it now, the log comment and message as they would be written, and whether it is
 * ready, already paid, 待核对 or blocked. Reads the site, writes nothing.
 */
import type { Kysely } from 'kysely'
import type { PayoutPreview, PayoutPreviewEntry } from '@shared/payout'
import type { DB } from '../db/schema'
import { entriesOf, ledgerKey } from './ledger'
import { earlierMonthReason, earlierMonthsUnpaid, monthNotOverReason, monthsNotOver } from './month-over'
import { payoutRules } from './rules'
import { PayoutError, type ClaimsPreview, type PayoutTarget } from './target'
import { payoutTexts, roundingNote } from './texts'
import { creditTenths, formatTenths } from './tenths'
import {
  HAND_PAID,
  HAND_PAID_WHILE_OPEN,
  handPaidWhileOpen,
  openForAnotherTarget,
  openForAnotherTargetReason,
  loadWages,
  monthOptions,
  paidByHand,
  wageFacts,
  type WageSelection,
} from './wages'

const ZERO_SETTLED = '工资为 0，站点已结算过本月的认领：发放时不写入任何东西（记为已发放）'

export interface PreviewTarget {
  target: PayoutTarget | null
  /** The target's name as the admin sees it. */
  label: string
  disabledReason: string | null
}

export async function previewPayout(
  db: Kysely<DB>,
  { target, label, disabledReason }: PreviewTarget,
  selection: WageSelection,
): Promise<PayoutPreview> {
  const rules = await payoutRules(db)
  const wages = await loadWages(db, selection, monthOptions(rules, target))
  const entries = await entriesOf(
    db,
    wages.map((w) => w.id),
  )
  const facts = await wageFacts(db, wages, { claims: rules.settleClaims !== null && target?.previewClaims !== undefined })
  let bonus: Map<number, bigint> | null = null
  let bonusProblem: string | null = null
  // settleClaims: what it will do to each member's claims, in the message as it will be sent.
  let claimNotes: Map<number, ClaimsPreview> | null = null
  let notOver = new Set<string>()
  let earlier = new Map<number, string>()
  let tooBig: ((after: bigint) => string | null) | null = null
  if (target) {
    try {
      notOver = await monthsNotOver(target, rules, wages)
      earlier = await earlierMonthsUnpaid(db, target, rules, wages)
      tooBig = (await target.bonusLimit?.()) ?? null
      bonus = await target.bonusOf(wages.flatMap((w) => (w.siteUid === null ? [] : [w.siteUid])))
      if (rules.settleClaims && target.previewClaims) {
        const open = wages.filter((w) => w.siteUid !== null && entries.get(w.id)?.state !== 'done')
        claimNotes = await target.previewClaims(
          open.map((w) => {
            const entry = entries.get(w.id)
            return {
              wageId: w.id,
              uid: w.siteUid!,
              claims: { period: w.period, ...rules.settleClaims!, atMonthEnd: facts.get(w.id)?.claimsAtMonthEnd },
              entry: entry && { key: entry.ledger_key, told: entry.claims_plan, claimsSent: entry.claims_sent_at !== null },
            }
          }),
        )
      }
    } catch (error) {
      bonusProblem = error instanceof PayoutError ? error.message : String(error)
    }
  }
  const list = wages.map((wage): PayoutPreviewEntry => {
    const entry = entries.get(wage.id)
    // A failed entry is opened again with the record's amount now; any other keeps what it was opened with.
    const credit = creditTenths(entry && entry.state !== 'failed' ? entry.amount : wage.amount)
    const before = wage.siteUid !== null ? (bonus?.get(wage.siteUid) ?? null) : null
    let status: PayoutPreviewEntry['status'] = 'ready'
    let note: string | null = null
    if (entry?.state === 'done') [status, note] = ['already', '已发放到站点']
    else if (entry?.state === 'in_doubt') [status, note] = ['in_doubt', entry.reason]
    else if (target && openForAnotherTarget(entry, target.name))
      [status, note] = ['in_doubt', openForAnotherTargetReason(entry!, target.name)]
    else if (handPaidWhileOpen(wage, entry)) [status, note] = ['in_doubt', HAND_PAID_WHILE_OPEN]
    else if (paidByHand(wage, entry)) [status, note] = ['already', HAND_PAID]
    else if (notOver.has(wage.period)) [status, note] = ['blocked', monthNotOverReason(wage.period)]
    else if (earlier.has(wage.id)) [status, note] = ['blocked', earlierMonthReason(earlier.get(wage.id)!)]
    else if (wage.siteUid === null) [status, note] = ['blocked', '该保种员没有绑定站点 UID']
    else if (bonusProblem) note = bonusProblem
    else if (bonus && before === null) [status, note] = ['blocked', `站点上找不到该会员（UID ${wage.siteUid}）`]
    // As the payout checks it before crediting (a record never tried, or 失败): it would answer 失败 with this reason.
    else if (before !== null && entry?.state !== 'pending' && tooBig?.(before + credit))
      [status, note] = ['blocked', tooBig(before + credit)]
    // As the payout leaves it (nexusphp-pay.ts): a 0 wage, taken only to settle claims the site's cron has settled.
    else if (credit === 0n && claimNotes?.get(wage.id)?.note === null && (!entry || entry.state === 'failed'))
      [status, note] = ['already', ZERO_SETTLED]
    // A pending entry's credit may have landed already (the payout then only finishes it): checked when it runs.
    else if (entry?.state === 'pending') note = entry.reason ? `上次未完成：${entry.reason}` : '上次未完成，发放时先核对站点'
    // A record this payout leaves alone changes no bonus: its texts name none, its current bonus only is shown.
    const after = before === null || status !== 'ready' ? null : before + credit
    const texts = payoutTexts(
      wage,
      facts.get(wage.id)!,
      {
        key: entry?.ledger_key ?? ledgerKey(wage.id, wage.period),
        credit,
        before: status === 'ready' ? before : null,
        after,
        note: claimNotes?.get(wage.id)?.note ?? undefined,
      },
      rules.template,
    )
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
      // Once paid: the credit, less what settling the claims deducts (the texts' figures are the credit's, as written).
      bonusAfter: after === null ? null : formatTenths(after - (claimNotes?.get(wage.id)?.deduction ?? 0n)),
      logComment: texts.comment,
      subject: texts.subject,
      message: texts.message,
      status,
      note,
    }
  })
  return { target: target?.name ?? null, targetLabel: label, disabledReason, list }
}
