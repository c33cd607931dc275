/**
 * The wage records a payout works on, and the one write it makes to them: 未发放 → 已发放 with
 * paid at/by, conditional like POST /wages/pay (a record already paid is left as it is).
 */
import { WagePayment } from '@shared/enums'
import { payoutTargetLabels } from '@shared/payout'
import type { Kysely } from 'kysely'
import type { WageItem } from '@shared/entities'
import type { DB, PayoutTargetName } from '../db/schema'
import { notFound } from '../errors'
import { readItemSet } from '../wages/item-sets'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { periodBounds, periodDays } from '../wages/period'
import { periodRank } from '../wages/queries'
import { wageDb } from '../wages/tables'
import type { LedgerEntry } from './ledger'
import type { PayoutRules } from './rules'
import type { ClaimCounters, MonthEndCounters, PayoutTarget } from './target'

export interface PayoutWage {
  id: number
  userId: number
  username: string
  siteUid: number | null
  period: string
  amount: number
  torrentCount: number
  totalSize: number
  payment: number
}

export type WageSelection = { ids: number[]; period?: undefined } | { period: string; ids?: undefined }

export interface MonthOptions {
  /**
   * A whole month also takes the records of 0 whose member has claims made before the month's end on the
   * site: paying settles the claims (settleClaims), and NexusPHP's own settlement settles every such
   * claimant, reached or not — the members who reached nothing are the ones whose old unreached claims it
   * removes. The wage months' time zone, or null: no such records.
   */
  settlesClaimsIn: string | null
}

/** A target that settles claims (NexusPHP's writer: it can preview them) under rules that ask for it. */
export const monthOptions = (rules: PayoutRules, target: PayoutTarget | null): MonthOptions => ({
  settlesClaimsIn: rules.settleClaims !== null && target?.previewClaims !== undefined ? rules.timeZone : null,
})

/** The selected records (a whole month: those with an amount, see MonthOptions), and the ids that do not exist. */
export async function selectWages(
  db: Kysely<DB>,
  selection: WageSelection,
  month: MonthOptions = { settlesClaimsIn: null },
): Promise<{ wages: PayoutWage[]; missing: number[] }> {
  const base = wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.id', 'w.user_id', 'u.username', 'u.site_uid', 'w.period', 'w.amount', 'w.torrent_count', 'w.total_size', 'w.payment'])
  const rows = selection.ids
    ? await base.where('w.id', 'in', [...new Set(selection.ids)]).execute()
    : await base
        .where('w.period', '=', selection.period)
        .where((eb) =>
          month.settlesClaimsIn !== null
            ? eb.or([
                eb('w.amount', '>', 0),
                eb.exists(
                  eb
                    .selectFrom('site_claims as c')
                    .select('c.id')
                    .whereRef('c.uid', '=', 'u.site_uid')
                    .where('c.created_at', '<', periodBounds(selection.period, month.settlesClaimsIn).endMs),
                ),
              ])
            : eb('w.amount', '>', 0),
        )
        .execute()
  const wages = rows
    .map((r) => ({
      id: Number(r.id),
      userId: Number(r.user_id),
      username: r.username,
      siteUid: r.site_uid === null ? null : Number(r.site_uid),
      period: r.period,
      amount: Number(r.amount),
      torrentCount: Number(r.torrent_count),
      totalSize: Number(r.total_size),
      payment: Number(r.payment),
    }))
    .sort((a, b) => a.id - b.id)
  const found = new Set(wages.map((w) => w.id))
  return { wages, missing: selection.ids ? [...new Set(selection.ids)].filter((id) => !found.has(id)) : [] }
}

/** selectWages for a payout: an unknown id, or a month with nothing to pay, is a 404. */
export async function loadWages(db: Kysely<DB>, selection: WageSelection, month?: MonthOptions): Promise<PayoutWage[]> {
  const { wages, missing } = await selectWages(db, selection, month)
  if (missing.length) throw notFound(`工资记录不存在：${missing.slice(0, 20).join(', ')}`)
  if (selection.period && wages.length === 0) throw notFound(`${selection.period} 没有可发放的工资记录`)
  return wages
}

/**
 * A record marked 已发放 by hand (POST /wages/pay) was paid outside the console: never paid again. Only a done entry
 * marks its record 已发放 itself, so any other entry (a failed attempt the admin then paid by hand) is no proof the
 * site was not paid.
 */
export const paidByHand = (wage: PayoutWage, entry: LedgerEntry | undefined) => wage.payment === WagePayment.Paid && entry?.state !== 'done'
export const HAND_PAID = '已在控制台标记为已发放（未经「发放到站点」），不会再发放到站点'

/**
 * A site payout cut after it may have credited the member, and the record then marked 已发放 by hand (versions before
 * POST /wages/pay refused that): crediting again could pay the member twice, dropping the entry would leave a credit
 * without its log row and message. It goes to 待核对, where 确认已到账 writes what is missing and credits nothing.
 */
export const handPaidWhileOpen = (wage: PayoutWage, entry: LedgerEntry | undefined) =>
  wage.payment === WagePayment.Paid && entry?.state === 'pending' && entry.target !== 'webhook'
export const HAND_PAID_WHILE_OPEN =
  '上次发放到站点中断后，这条记录又在控制台被标记为已发放，站点可能已入账：请在站点上核对，已到账请选「确认已到账」（只补写魔力记录和站内信）'

/**
 * An unfinished entry opened for another payout target (the configuration changed since: PAYOUT_WEBHOOK_URL then
 * NEXUSPHP_WRITE_DATABASE_URL, or back): the other may have credited it — a delivery whose answer was lost, a site
 * write cut — so this one never pays it as if nothing had happened. It goes to 待核对.
 */
export const openForAnotherTarget = (entry: LedgerEntry | undefined, target: PayoutTargetName) =>
  entry?.state === 'pending' && entry.target !== target
export const openForAnotherTargetReason = (entry: LedgerEntry, current: PayoutTargetName) =>
  `这条记录上次通过「${payoutTargetLabels[entry.target]}」发放，尚未完成，对方可能已入账；现在的发放方式是「${payoutTargetLabels[current]}」：请先在原处核对，已到账请选「确认已到账」（只记为已发放，不再写入任何一方），未到账请选「补发剩余部分」（下次发放时按现在的方式发放）`
/** 补发剩余部分 of an entry opened for another target: nothing is sent now; the next payout pays it here. */
export const otherTargetUnpaid = (entry: LedgerEntry, current: PayoutTargetName, wage: PayoutWage) =>
  `已按「未到账」处理：这条记录原通过「${payoutTargetLabels[entry.target]}」发放，再次「发放到站点」时将通过「${payoutTargetLabels[current]}」发放 ${wage.amount} 魔力`

/** What the member's message tells besides the amount. */
export interface WageFacts {
  items: WageItem[]
  rank: number | null
  rankOf: number
  /** With `claims`: the member's counters of their claimed torrents at the month's end (ClaimSettlement.atMonthEnd). */
  claimsAtMonthEnd?: MonthEndCounters
}

export async function wageFacts(db: Kysely<DB>, wages: PayoutWage[], { claims = false } = {}): Promise<Map<number, WageFacts>> {
  const ranks = new Map<string, Map<number, number>>()
  const endDays = new Map<string, number | null>()
  const out = new Map<number, WageFacts>()
  for (const wage of wages) {
    let rank = ranks.get(wage.period)
    if (!rank) ranks.set(wage.period, (rank = new Map((await periodRank(db, wage.period)).map((r) => [r.userId, r.rank]))))
    const facts: WageFacts = {
      items: await readItemSet(db, wage.period, wage.userId),
      rank: rank.get(wage.userId) ?? null,
      rankOf: rank.size,
    }
    if (claims && wage.siteUid !== null) {
      // The first snapshot after the month (the day's first sync, minutes after midnight; later if the server was down).
      if (!endDays.has(wage.period)) endDays.set(wage.period, await snapshotDayOnOrAfter(db, periodDays(wage.period).nextStartDay))
      const day = endDays.get(wage.period)!
      if (day !== null) facts.claimsAtMonthEnd = { day, counters: await claimCountersAt(db, day, wage.userId, wage.siteUid) }
    }
    out.set(wage.id, facts)
  }
  return out
}

/**
 * The member's snapshot counters on `day` of the torrents they claimed on the site: the claims kept with that day
 * (month_end_ties, with each torrent's size then — a torrent the site deleted since is still judged), else (a day
 * taken before 0.3.7) our mirror of the site's claims now.
 */
async function claimCountersAt(db: Kysely<DB>, day: number, userId: number, siteUid: number): Promise<Map<number, ClaimCounters>> {
  const kept = await db.selectFrom('month_end_ties').select('day').where('day', '=', day).limit(1).executeTakeFirst()
  if (kept) {
    const ties = await db
      .selectFrom('month_end_ties as t')
      .innerJoin('counter_snapshots as s', (join) => join.onRef('s.record_id', '=', 't.record_id').onRef('s.day', '=', 't.day'))
      .leftJoin('torrent_seeder_snapshots as ts', (join) => join.onRef('ts.torrent_id', '=', 't.torrent_id').onRef('ts.day', '=', 't.day'))
      .select(['t.torrent_id', 's.seed_time_sec', 's.uploaded', 'ts.size'])
      .where('t.day', '=', day)
      .where('t.user_id', '=', userId)
      .where('t.claimed', '=', 1)
      .execute()
    return new Map(
      ties.map((r) => [
        Number(r.torrent_id),
        { seedtime: Number(r.seed_time_sec), uploaded: Number(r.uploaded), size: r.size === null ? null : Number(r.size) },
      ]),
    )
  }
  const rows = await db
    .selectFrom('site_claims as c')
    .innerJoin('seed_records as r', (join) => join.onRef('r.torrent_id', '=', 'c.torrent_id').on('r.user_id', '=', userId))
    .innerJoin('counter_snapshots as s', (join) => join.onRef('s.record_id', '=', 'r.id').on('s.day', '=', day))
    .select(['c.torrent_id', 's.seed_time_sec', 's.uploaded'])
    .where('c.uid', '=', siteUid)
    .execute()
  return new Map(rows.map((r) => [Number(r.torrent_id), { seedtime: Number(r.seed_time_sec), uploaded: Number(r.uploaded), size: null }]))
}

/** 未发放 → 已发放 (the paid-at/by of POST /wages/pay); false when it was already paid. */
export async function markWagePaid(
  db: Kysely<DB>,
  wageId: number,
  now: number,
  by: { id: number | null; username: string },
): Promise<boolean> {
  const result = await wageDb(db)
    .updateTable('wage_records')
    .set({ payment: 1, paid_at: now, paid_by_id: by.id, paid_by_name: by.username })
    .where('id', '=', wageId)
    .where('payment', '=', 0)
    .executeTakeFirst()
  return Number(result.numUpdatedRows ?? 0) === 1
}
