/**
 * With the rules' settleClaims a month is paid only once it has ended on the site's clock: the settlement restarts
 * claims with `last_settle_at` = the site's NOW(), and one inside the month would look unsettled to a repeated run
 * (removed, deducted). Until then its records are neither opened nor paid, and the dry run says why.
 */
import type { PayoutRules } from './rules'
import type { PayoutTarget } from './target'
import type { PayoutWage } from './wages'

export const monthNotOverReason = (period: string) => `${period} 在站点时间上还没有结束：规则开启了认领结算，月份结束后才能发放到站点`

/** The months of `wages` the site's clock has not seen end (none without settleClaims, or on a target without claims). */
export async function monthsNotOver(site: PayoutTarget, rules: PayoutRules, wages: PayoutWage[]): Promise<Set<string>> {
  if (rules.settleClaims === null || !site.monthsNotOver) return new Set()
  return new Set(await site.monthsNotOver([...new Set(wages.map((w) => w.period))]))
}
