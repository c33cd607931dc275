/**
 * `payout_ledger.credit_sent_at`: when an attempt on a site without transactions (MyISAM) sent the statement that
 * credits the member. That statement also writes its own proof (the key in users.bonuscomment), but the site can
 * overwrite that text wholesale — NexusPHP's bonus gift and its user edit form write back a bonuscomment they read
 * earlier — and an attempt cut before its log row would then leave no trace of a credit that did land. A retry that
 * finds neither the line nor the log row of an entry whose credit was sent stops at 待核对 instead of crediting again.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').addColumn('credit_sent_at', epochMs).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('payout_ledger').dropColumn('credit_sent_at').execute()
    },
  }
}
