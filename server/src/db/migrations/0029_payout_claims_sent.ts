/**
 * `payout_ledger.claims_sent_at`: when an attempt on a site without transactions (MyISAM) sent the statement that takes
 * the claims deduction — the same guard as `credit_sent_at` (0027) for the payout's second bonus change. Its proof (the
 * `[key:claims]` line in users.bonuscomment) can be overwritten by the site before the deduction's log row is written;
 * a retry that finds neither then stops at 待核对 instead of deducting again.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').addColumn('claims_sent_at', epochMs).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').dropColumn('claims_sent_at').execute()
    },
  }
}
