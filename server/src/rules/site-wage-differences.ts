/**
 * Where the rules' 「NexusPHP 认领结算」 and the site's own settings disagree. The preset holds
 * NexusPHP's defaults; a site that changed its bonus formula (`bonus.*`) or its claim settlement
 * (`torrent.claim_*`) pays its members other numbers, and the console reproduces them only with the
 * same values — /data-sync names each one that differs.
 */
import { DEFAULT_CLAIM_REMOVE_DEDUCTION, type RuleBody, type SyncSite } from '@shared/entities'
import { fieldLabels } from '@shared/validation'
import type { SiteWageField, SiteWageSettings } from '../sources/source'

type Difference = NonNullable<SyncSite['wageDifferences']>[number]

const NO_SUCH_RULE = '无此规则（按不设置计算）'

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`

/** null: the rules do not promise NexusPHP's numbers (their own wage mode), so there is nothing to match. */
export function siteWageDifferences(site: SiteWageSettings, rules: RuleBody): Difference[] | null {
  if (rules.mode !== 'nexusphpClaims') return null
  const ruleValue = (field: SiteWageField): number | null => {
    if (field !== 'claimRemoveDeduction') return rules[field]
    // The deduction is the console's only when it settles the claims.
    return rules.settleClaims ? (rules.claimRemoveDeduction ?? DEFAULT_CLAIM_REMOVE_DEDUCTION) : null
  }
  const differences: Difference[] = []
  for (const [field, { setting, value: theirs }] of Object.entries(site.values) as [SiteWageField, { setting: string; value: number }][]) {
    const ours = ruleValue(field)
    if (ours !== null && ours !== theirs)
      differences.push({
        setting,
        label: fieldLabels[field] ?? field,
        site: String(theirs),
        rules: String(ours),
        field,
        siteValue: theirs,
      })
  }
  const unmatched = { rules: NO_SUCH_RULE, field: null, siteValue: null }
  if (site.minSizeBytes > 0)
    differences.push({ setting: 'bonus.min_size', label: '计魔力的最小体积', site: gib(site.minSizeBytes), ...unmatched })
  if (site.zeroBonusTag) differences.push({ setting: 'bonus.zero_bonus_tag', label: '零魔力标签', site: '已设置', ...unmatched })
  return differences
}
