/**
 * `payout_ledger.claims_plan`: the claim settlement a statement-by-statement attempt (MyISAM) told the member in its
 * message — which claims start again, which are removed and the deduction — noted before the message is sent. The
 * site's claims are settled after the message there; a retry after a cut in between settles what the member was told
 * rather than planning afresh (the per-claim deduction may have been changed by then, or a torrent deleted).
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').addColumn('claims_plan', 'text').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').dropColumn('claims_plan').execute()
    },
  }
}
