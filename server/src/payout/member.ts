/** One member's payout as a target receives it: the ledger entry, the wage, the credit and how to word it. */
import type { LedgerEntry } from './ledger'
import type { PayoutRules } from './rules'
import type { MemberPayout, SentNotes } from './target'
import { payoutTexts } from './texts'
import { creditTenths } from './tenths'
import type { PayoutWage, WageFacts } from './wages'

export function memberPayout(
  entry: LedgerEntry,
  wage: PayoutWage,
  facts: WageFacts | undefined,
  rules: PayoutRules,
  sent: SentNotes = {
    note: async () => true,
    forget: async () => {},
    tell: async () => true,
    stillOpen: async () => true,
    othersKeys: async () => new Set(),
    read: async () => ({ credit: entry.credit_sent_at !== null, claims: entry.claims_sent_at !== null, told: entry.claims_plan }),
  },
): MemberPayout {
  const credit = creditTenths(entry.amount)
  return {
    entry,
    // Paid to the uid the entry was opened for: an attempt may have landed there (users refuse a new binding
    // while an entry is open; a failed entry is reopened with the current one).
    wage: { ...wage, siteUid: entry.site_uid },
    credit,
    texts: (before, after, note) =>
      payoutTexts(
        wage,
        facts ?? { items: [], rank: null, rankOf: 0 },
        { key: entry.ledger_key, credit, before, after, note },
        rules.template,
      ),
    claims: rules.settleClaims && { period: wage.period, ...rules.settleClaims, atMonthEnd: facts?.claimsAtMonthEnd },
    sent,
  }
}
