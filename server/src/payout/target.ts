/**
 * Where a payout lands: the NexusPHP site (nexusphp-writer.ts), the demo's simulated site
 * (demo-target.ts) or an ingest site's webhook (webhook.ts). The service (service.ts) keeps the
 * ledger; a target only touches its site and reports what it found there.
 */
import type { PayoutTargetName } from '../db/schema'
import type { Evidence, LedgerEntry } from './ledger'
import type { PayoutTexts } from './texts'
import type { PayoutWage } from './wages'

/**
 * NexusPHP's claim settlement done with the payout (rules `settleClaims`, NexusPHP writer only):
 * the month's reached and new claims start again from the snatch's counters, claims made before
 * the month and still unreached (by the site's own standards, nexusphp-claims.ts) are removed with
 * `removeDeduction` each.
 */
export interface ClaimSettlement {
  /** The wage's month, YYYY-MM: its first day is the "older than a month" line, its end marks a claim settled. */
  period: string
  /** Per removed claim, in tenths. */
  removeDeduction: bigint
  /**
   * The member's counters of each claimed torrent (by torrent id) when the month ended, as our snapshot of the next
   * day has them — what NexusPHP's own settlement, run by its cron on the 1st, reads from the snatches. A claim is
   * judged by them and starts again from them, so a payout made days later neither counts those days in this month
   * nor takes them from the next. Absent: the site's counters now.
   */
  atMonthEnd?: MonthEndCounters
}

/** The counters of a member's claimed torrents (by torrent id) in the first snapshot after the month. */
export interface MonthEndCounters {
  /** The snapshot's day, yyyymmdd: the next month's 1st, or later where the server was down then. */
  day: number
  counters: ReadonlyMap<number, ClaimCounters>
}

/**
 * A member's claims for the dry run; `entry`: what an earlier attempt noted (the plan its message told, whether it sent
 * the deduction) — a plan told is what the run finishes, as the dry run must show.
 */
export interface ClaimsToPreview {
  wageId: number
  uid: number
  claims: ClaimSettlement
  entry?: { key: string; told: string | null; claimsSent: boolean }
}

/** What settling a member's claims will do: the message's note (null: no claims) and the deduction, in tenths. */
export interface ClaimsPreview {
  note: string | null
  deduction: bigint
}

export interface ClaimCounters {
  seedtime: number
  uploaded: number
  /** The torrent's size then (kept with the month's end), null where not kept: judges a claim whose torrent is gone now. */
  size: number | null
}

/** The bonus changes a payout makes: the credit, and with `settleClaims` the deduction for removed claims. */
export type SentChange = 'credit' | 'claims'

export interface SentNotes {
  /**
   * Notes that this attempt is sending the change (before it does); false when the entry is no longer open as this
   * attempt read it (a concurrent attempt recorded it failed, or reopened it): then nothing is sent.
   */
  note(what: SentChange): Promise<boolean>
  /** Takes this attempt's note back: the server refused the statement, so the change did not apply. */
  forget(what: SentChange): Promise<void>
  /**
   * Notes the claim settlement the member's message is about to tell (before it is sent; the target's own words,
   * opaque here); false when the entry is no longer open as this attempt read it.
   */
  tell(plan: string): Promise<boolean>
  /** As the entry has them now — read under the member's site lock, so an attempt that held it before is seen. */
  read(): Promise<SentState>
  /**
   * Whether the entry is still open as this attempt read it (pending or 待核对, the same amount and site uid): not
   * recorded failed and reopened since with another amount or uid, which this attempt would pay instead.
   */
  stillOpen(): Promise<boolean>
  /**
   * The keys this console's ledger opened for other wage records on the entry's site uid: their rows on the site are
   * those records' payments, never this one's under another key.
   */
  othersKeys(): Promise<ReadonlySet<string>>
}

/** What earlier statement-by-statement attempts noted: the changes they sent, and the claim settlement told (or null). */
export type SentState = Record<SentChange, boolean> & { told: string | null }

export interface MemberPayout {
  entry: LedgerEntry
  wage: PayoutWage
  /** The wage as the site stores it (tenths). */
  credit: bigint
  /** The comment and message, once the bonus before/after are known; `note` is added before the ledger key. */
  texts(before: bigint | null, after: bigint | null, note?: string): PayoutTexts
  /** null: claims are left to the site. */
  claims: ClaimSettlement | null
  /** What statement-by-statement attempts noted on the entry about the bonus changes they sent. */
  sent: SentNotes
}

/**
 * - done: landed (now, or `already` by an earlier attempt the site's rows show)
 * - failed: nothing reached the site; the next payout may try again
 * - in_doubt: part of it may have landed (a non-transactional site cut between statements)
 * - pending: unknown for now (a connection lost during commit, a webhook not yet accepted); the
 *   next attempt first looks at the site
 */
export type PayOutcome =
  | { state: 'done'; already: boolean; evidence: Evidence }
  /**
   * `memberGone`: the site has no such member — every attempt would fail alike, nothing can be paid there twice.
   * `confirmedUnpaid`: the admin checked where it may have landed and found it unpaid (补发剩余部分 of an entry opened
   * for another target, which this one can neither read nor finish) — 失败 whatever an attempt noted as sent there.
   */
  | { state: 'failed'; reason: string; memberGone?: true; confirmedUnpaid?: true }
  | { state: 'in_doubt'; reason: string; evidence: Evidence }
  | { state: 'pending'; reason: string; evidence?: Evidence; retryAt?: number }

export interface PayoutTarget {
  readonly name: PayoutTargetName
  /** Checks the site before anything is written (engines, grants — of the claim tables too when `settleClaims`); throws a PayoutError when paying cannot start. */
  begin(plan?: { settleClaims: boolean }): Promise<void>
  /** Members' bonus now, in tenths, by site uid; a uid absent from the map is not on the site. null: the target has no bonus to show. */
  bonusOf(uids: number[]): Promise<Map<number, bigint> | null>
  /**
   * settleClaims (NexusPHP only): the months among `periods` that have not ended on the site's clock. Their records are
   * neither opened nor paid: a claim restarted inside its month would look unsettled to a repeated run.
   */
  monthsNotOver?(periods: string[]): Promise<string[]>
  /** The dry run's check of the site's columns: why a member's bonus of `after` (tenths) could not be written, or null. */
  bonusLimit?(): Promise<(after: bigint) => string | null>
  /** The dry run's claim notes (settleClaims, NexusPHP only), by wage record id, read without writing. */
  previewClaims?(members: ClaimsToPreview[]): Promise<Map<number, ClaimsPreview>>
  pay(member: MemberPayout): Promise<PayOutcome>
  /** 待核对, settled by an admin: `markDone` = the bonus did land; `payRest` = it did not, credit it now. Either way the missing message is sent. */
  settle(member: MemberPayout, action: 'markDone' | 'payRest'): Promise<PayOutcome>
  close(): Promise<void>
}

/** A payout that cannot start or go on; the message is shown as is. */
export class PayoutError extends Error {
  override name = 'PayoutError'
}

/** Test hook: called at each step of a member's payout (the crash tests stop the process there). */
export type StepHook = (step: string, entry: LedgerEntry) => Promise<void> | void
