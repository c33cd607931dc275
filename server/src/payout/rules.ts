/**
 * What the rules say about paying, read from the newest rule version when a payout
 * runs: the member's message template and NexusPHP's claim bookkeeping (`settleClaims`).
 */
import type { Kysely } from 'kysely'
import { DEFAULT_CLAIM_REMOVE_DEDUCTION } from '@shared/entities'
import type { PayoutMessageTemplate } from '@shared/payout-template'
import type { DB } from '../db/schema'
import { currentRules } from '../rules/rules'
import { creditTenths } from './tenths'

export interface PayoutRules {
  /** undefined: the Chinese default. */
  template: PayoutMessageTemplate | undefined
  /**
   * null: claims are left to the site's own cron. Which claims reached is the site's to say (its own standards, read by
   * the writer: nexusphp-claims.ts readClaimStandards); the deduction per removed claim is the rules'.
   */
  settleClaims: { removeDeduction: bigint } | null
  /** The wage months' time zone. */
  timeZone: string
}

export async function payoutRules(db: Kysely<DB>): Promise<PayoutRules> {
  const rules = await currentRules(db)
  return {
    template: rules.payoutMessageTemplate,
    settleClaims: rules.settleClaims
      ? { removeDeduction: creditTenths(rules.claimRemoveDeduction ?? DEFAULT_CLAIM_REMOVE_DEDUCTION) }
      : null,
    timeZone: rules.timezone,
  }
}
