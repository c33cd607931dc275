/**
 * `payout_webhook_deliveries.body`: the request each delivery sent. A retry of the same entry sends the same bytes
 * under the same Idempotency-Key (a receiver following the Idempotency-Key draft refuses a reused key with another
 * payload): the message texts come from the rules' template, rank and username, which may change between attempts.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payout_webhook_deliveries').addColumn('body', 'text').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('payout_webhook_deliveries').dropColumn('body').execute()
    },
  }
}
