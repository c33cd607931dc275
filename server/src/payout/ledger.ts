/**
 * The payout ledger (migration 0015): one row per wage record, written before the site is touched.
 * Every change of state is conditional on the state it leaves, so concurrent payouts of the same
 * records cannot both move an entry: the second finds nothing to update.
 */
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely'
import type { DB, PayoutLedgerTable, PayoutState, PayoutTargetName } from '../db/schema'

export type LedgerEntry = Selectable<PayoutLedgerTable>

/** The entry still pays what it did when an attempt read it: not reopened since with another amount or site uid. */
export function paysAsRead(eb: ExpressionBuilder<DB, 'payout_ledger'>, read: Pick<LedgerEntry, 'amount' | 'site_uid'>) {
  return eb.and([eb('amount', '=', read.amount), read.site_uid === null ? eb('site_uid', 'is', null) : eb('site_uid', '=', read.site_uid)])
}

/**
 * The key the site's rows carry (the bonuscomment line, the bonus log comment, the message, the webhook
 * Idempotency-Key): the wage record's id and its month. The month keeps a record id issued again — a console set up
 * afresh, a backup restored — from taking another month's rows of the same member for its own; a payment of the same
 * member and month under another key is found by the month itself (nexusphp-rows.ts paidForMonth). Entries keep the
 * key they were opened with (`ledger_key`; those before 0.3.0 `seeding-console:wage:<id>`).
 */
export function ledgerKey(wageId: number, period: string): string {
  return `seeding-console:wage:${wageId}:${period}`
}

/** What was read back from the site. */
export interface Evidence {
  bonusBefore?: string | null
  bonusAfter?: string | null
  logId?: number | null
  messageId?: number | null
}

export interface NewEntry {
  wageId: number
  period: string
  userId: number
  siteUid: number | null
  amount: number
}

/**
 * Makes sure each wage record has its entry. New ones start pending; a failed one (nothing reached
 * the site) is opened again with the current amount. Done and in-doubt entries are left alone.
 */
export async function openEntries(
  db: Kysely<DB>,
  entries: NewEntry[],
  args: { target: PayoutTargetName; operator: { id: number; username: string }; now: number },
): Promise<Map<number, LedgerEntry>> {
  for (let i = 0; i < entries.length; i += 200) {
    const chunk = entries.slice(i, i + 200)
    if (chunk.length === 0) break
    await db
      .insertInto('payout_ledger')
      .values(
        chunk.map((e) => ({
          wage_id: e.wageId,
          ledger_key: ledgerKey(e.wageId, e.period),
          period: e.period,
          user_id: e.userId,
          site_uid: e.siteUid,
          target: args.target,
          amount: e.amount,
          state: 'pending' as const,
          created_at: args.now,
          created_by_id: args.operator.id,
          created_by_name: args.operator.username,
          updated_at: args.now,
        })),
      )
      // No conflict target: a racing insert can collide on ledger_key as well as wage_id (PostgreSQL
      // only skips conflicts on the named key and raises on the other). Both derive from the wage id.
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
  for (const e of entries) {
    await db
      .updateTable('payout_ledger')
      // Failed: this entry's last attempt sent nothing. What an attempt noted as sent (one racing the failure, one
      // before the member left the site) still says what the site may hold — for the same member; a new binding
      // (the record's uid now) starts without it.
      .set((eb) => {
        const sameMember = <C extends 'credit_sent_at' | 'claims_sent_at' | 'claims_plan'>(column: C) =>
          eb.case().when('site_uid', '=', e.siteUid).then(eb.ref(column)).else(null).end()
        return {
          state: 'pending',
          reason: null,
          amount: e.amount,
          site_uid: e.siteUid,
          target: args.target,
          updated_at: args.now,
          credit_sent_at: sameMember('credit_sent_at'),
          claims_sent_at: sameMember('claims_sent_at'),
          claims_plan: sameMember('claims_plan'),
        }
      })
      .where('wage_id', '=', e.wageId)
      .where('state', '=', 'failed')
      .execute()
  }
  return entriesOf(
    db,
    entries.map((e) => e.wageId),
  )
}

export async function entriesOf(db: Kysely<DB>, wageIds: number[]): Promise<Map<number, LedgerEntry>> {
  const out = new Map<number, LedgerEntry>()
  for (let i = 0; i < wageIds.length; i += 500) {
    const rows = await db
      .selectFrom('payout_ledger')
      .selectAll()
      .where('wage_id', 'in', wageIds.slice(i, i + 500))
      .execute()
    for (const row of rows) out.set(row.wage_id, row)
  }
  return out
}

/** Moves an entry from `from` to `to` with the evidence; false when another payout moved it first. */
export async function transition(
  db: Kysely<DB>,
  entryId: number,
  from: PayoutState,
  to: PayoutState,
  args: {
    reason?: string | null
    evidence?: Evidence
    now: number
    settledBy?: string
    nextAttemptAt?: number | null
    attempted?: boolean
    /** Only while no attempt has noted a change as sent (checked by the move itself). */
    unnoted?: boolean
    /** Only while the entry pays what it did when the attempt read it (not reopened since with another amount or uid). */
    asRead?: Pick<LedgerEntry, 'amount' | 'site_uid'>
  },
): Promise<boolean> {
  const e = args.evidence ?? {}
  const result = await db
    .updateTable('payout_ledger')
    .set((eb) => ({
      state: to,
      reason: args.reason ?? null,
      updated_at: args.now,
      ...(to === 'done' ? { done_at: args.now } : {}),
      ...(e.bonusBefore !== undefined ? { bonus_before: e.bonusBefore } : {}),
      ...(e.bonusAfter !== undefined ? { bonus_after: e.bonusAfter } : {}),
      ...(e.logId !== undefined ? { log_id: e.logId } : {}),
      ...(e.messageId !== undefined ? { message_id: e.messageId } : {}),
      ...(args.settledBy !== undefined ? { settled_by_name: args.settledBy } : {}),
      ...(args.nextAttemptAt !== undefined ? { next_attempt_at: args.nextAttemptAt } : {}),
      ...(args.attempted ? { attempts: eb('attempts', '+', 1) } : {}),
    }))
    .where('id', '=', entryId)
    .where('state', '=', from)
    .$if(args.unnoted === true, (qb) => qb.where('credit_sent_at', 'is', null).where('claims_sent_at', 'is', null))
    .$if(args.asRead !== undefined, (qb) => qb.where((eb) => paysAsRead(eb, args.asRead!)))
    .executeTakeFirst()
  return Number(result.numUpdatedRows ?? 0) === 1
}
