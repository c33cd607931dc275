/**
 * What a member's payout comes to: the site's outcome recorded on the ledger entry by a
 * conditional transition (a wage record becomes 已发放 in the same transaction that marks its
 * entry done), and the result the admin sees.
 */
import type { PayoutResult } from '@shared/payout'
import { payoutStatusLabels } from '@shared/payout'
import type { AppDatabase } from '../db/database'
import type { PayoutState } from '../db/schema'
import { lockPeriods } from '../wages/engine'
import { transition, type LedgerEntry } from './ledger'
import type { PayOutcome } from './target'
import { creditTenths, formatTenths } from './tenths'
import { markWagePaid, type PayoutWage } from './wages'

export const resultOf = (
  wage: PayoutWage,
  status: PayoutResult['status'],
  reason: string | null,
  entry?: Pick<LedgerEntry, 'amount' | 'bonus_before' | 'bonus_after' | 'log_id' | 'message_id'>,
): PayoutResult => ({
  wageId: wage.id,
  userId: wage.userId,
  username: wage.username,
  status,
  reason,
  // What the site is (or was) credited: the entry's amount once there is one.
  credit: formatTenths(creditTenths(entry?.amount ?? wage.amount)),
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
export const statusOf = (entry: LedgerEntry): PayoutResult['status'] =>
  entry.state === 'pending' && entry.target !== 'webhook' ? 'failed' : statusOfState[entry.state]

/** The run's results counted by status, for the operation log. */
export const resultSummary = (results: PayoutResult[]) =>
  (Object.keys(payoutStatusLabels) as PayoutResult['status'][])
    .map((s) => [payoutStatusLabels[s], results.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join('，')

/** Records what the site said, moving the entry from `from`; a done entry makes its wage record 已发放 in the same transaction. */
export async function recordOutcome(
  database: AppDatabase,
  now: number,
  entry: LedgerEntry,
  wage: PayoutWage,
  outcome: PayOutcome,
  from: PayoutState,
  paidBy: { id: number | null; username: string },
  settledBy?: string,
): Promise<PayoutResult> {
  return database.db.transaction().execute(async (trx) => {
    // After a running compute of the month (the wage engine's lock), as POST /wages/pay does.
    await lockPeriods(trx, database.dialect, [wage.period])
    const evidence = 'evidence' in outcome ? outcome.evidence : undefined
    const args = {
      reason: 'reason' in outcome ? outcome.reason : null,
      evidence,
      now,
      settledBy,
      attempted: true,
      nextAttemptAt: outcome.state === 'pending' ? (outcome.retryAt ?? null) : null,
    }
    // 失败 says this attempt sent nothing that could have landed — not that another did not: while a credit or a
    // deduction is noted as sent (by an earlier attempt, or a concurrent one — checked by the move itself), the entry
    // stays as it was, unfinished or 待核对, and POST /wages/pay refuses it — unless the site has no such member, or the
    // admin found it unpaid where it may have landed.
    const guarded = outcome.state === 'failed' && !outcome.memberGone && !outcome.confirmedUnpaid
    // Every move is of the entry as this attempt read it: one recorded failed and reopened since with another amount
    // or uid is another payment, which this attempt's outcome must not settle.
    const asRead = { amount: entry.amount, site_uid: entry.site_uid }
    let to: PayoutState = outcome.state
    let moved = await transition(trx, entry.id, from, to, { ...args, unnoted: guarded, asRead })
    if (!moved && guarded) {
      to = from
      // A 待核对 kept shows why it is 待核对, not why this attempt failed (the result does).
      moved = await transition(trx, entry.id, from, from, {
        ...args,
        reason: from === 'in_doubt' ? entry.reason : args.reason,
        settledBy: undefined,
        asRead,
      })
    }
    let after = (await trx.selectFrom('payout_ledger').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow()) as LedgerEntry
    const reopened = after.amount !== entry.amount || after.site_uid !== entry.site_uid
    if (!moved && outcome.state === 'done' && after.state !== 'done' && reopened) {
      // This attempt paid (or found paid) the entry as it read it, and it has been reopened since to pay another
      // amount or uid: which one the site holds is the admin's to check — never settled as the other.
      const reason = `这次发放按 ${formatTenths(creditTenths(entry.amount))} 魔力写入站点 UID ${entry.site_uid ?? '—'}，其间这条记录被重新打开为 ${formatTenths(creditTenths(after.amount))} 魔力（站点 UID ${after.site_uid ?? '—'}）：请核对站点上的魔力后处理`
      await transition(trx, entry.id, after.state, 'in_doubt', {
        reason,
        evidence: outcome.evidence,
        now,
        attempted: true,
        nextAttemptAt: null,
      })
      after = (await trx.selectFrom('payout_ledger').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow()) as LedgerEntry
      return resultOf(wage, statusOf(after), after.reason, after)
    }
    if (!moved && outcome.state === 'done' && after.state !== 'done') {
      // A concurrent attempt (its lock wait timed out, its connection failed) recorded failed or pending while this
      // one was writing: what this one read from or wrote to the site settles it, or the record would show 失败
      // though the site was paid — and invite paying it again by hand.
      await transition(trx, entry.id, after.state, 'done', {
        reason: null,
        evidence: outcome.evidence,
        now,
        settledBy,
        attempted: true,
        asRead,
      })
      await markWagePaid(trx, wage.id, now, paidBy)
      after = (await trx.selectFrom('payout_ledger').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow()) as LedgerEntry
      return resultOf(wage, outcome.already ? 'already' : 'paid', null, after)
    }
    // Another payout recorded it first; if this one did the writing, it still reports 成功.
    if (!moved)
      return outcome.state === 'done' && !outcome.already && after.state === 'done'
        ? resultOf(wage, 'paid', null, after)
        : resultOf(wage, statusOf(after), after.reason ?? ('reason' in outcome ? outcome.reason : null), after)
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
