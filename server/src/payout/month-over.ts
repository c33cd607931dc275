/**
 * With the rules' settleClaims a month is paid only once it has ended on the site's clock: the settlement restarts
 * claims with `last_settle_at` = the site's NOW(), and one inside the month would look unsettled to a repeated run
 * (removed, deducted). Until then its records are neither opened nor paid, and the dry run says why.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { periodBounds } from '../wages/period'
import { wageDb } from '../wages/tables'
import type { PayoutRules } from './rules'
import type { PayoutTarget } from './target'
import type { PayoutWage } from './wages'

export const monthNotOverReason = (period: string) => `${period} 在站点时间上还没有结束：规则开启了认领结算，月份结束后才能发放到站点`

/** The months of `wages` the site's clock has not seen end (none without settleClaims, or on a target without claims). */
export async function monthsNotOver(site: PayoutTarget, rules: PayoutRules, wages: PayoutWage[]): Promise<Set<string>> {
  if (rules.settleClaims === null || !site.monthsNotOver) return new Set()
  return new Set(await site.monthsNotOver([...new Set(wages.map((w) => w.period))]))
}

export const earlierMonthReason = (earlier: string) =>
  `请先将 ${earlier} 的工资发放到站点：规则开启了认领结算，站点上的认领按月依次结算（与 NexusPHP 每月 1 日的结算一致），先发放后面的月份会把 ${earlier} 的认领一起算进去，该扣的不扣`

/**
 * With settleClaims, the records whose member has an earlier month still to be paid into the site, by wage id: that
 * month's earliest. Settling a later month first restarts the member's claims after it — the earlier month's
 * settlement then finds them settled, and an unreached claim is never removed nor its deduction taken. A month is to
 * be paid while its record is 未发放 and a payout would take it (an amount, or claims to settle: wages.ts selectWages).
 */
export async function earlierMonthsUnpaid(
  db: Kysely<DB>,
  site: PayoutTarget,
  rules: PayoutRules,
  wages: PayoutWage[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>()
  if (rules.settleClaims === null || !site.monthsNotOver || !wages.length) return out
  const latest = wages.reduce((max, w) => (w.period > max ? w.period : max), wages[0]!.period)
  const rows = await wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.user_id', 'w.period', 'w.amount', 'u.site_uid'])
    .where('w.user_id', 'in', [...new Set(wages.map((w) => w.userId))])
    .where('w.period', '<', latest)
    .where('w.payment', '=', 0)
    .orderBy('w.period')
    .execute()
  // A record of 0 is taken where the member had a claim made before its month's end: their first claims, in one query.
  const zeroUids = [...new Set(rows.filter((r) => !(Number(r.amount) > 0) && r.site_uid !== null).map((r) => Number(r.site_uid)))]
  const firstClaim = new Map<number, number>()
  for (let i = 0; i < zeroUids.length; i += 500) {
    const claims = await db
      .selectFrom('site_claims')
      .select(['uid', (eb) => eb.fn.min('created_at').as('first')])
      .where('uid', 'in', zeroUids.slice(i, i + 500))
      .groupBy('uid')
      .execute()
    for (const c of claims) firstClaim.set(Number(c.uid), Number(c.first))
  }
  const earliest = new Map<number, string[]>()
  for (const r of rows) {
    const first = r.site_uid === null ? undefined : firstClaim.get(Number(r.site_uid))
    const taken = Number(r.amount) > 0 || (first !== undefined && first < periodBounds(r.period, rules.timeZone).endMs)
    if (taken) earliest.set(Number(r.user_id), [...(earliest.get(Number(r.user_id)) ?? []), r.period])
  }
  for (const w of wages) {
    const earlier = (earliest.get(w.userId) ?? []).find((period) => period < w.period)
    if (earlier) out.set(w.id, earlier)
  }
  return out
}
