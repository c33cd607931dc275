/**
 * What a member's records had uploaded when they left (a torrent the site deleted, a tie that ended), summed per member.
 *
 * A member's daily upload (stats/user.ts) is the day's total minus the day before's, and the total was over the records
 * there now: a record that left took its whole history out of it, and the day read 0 however much the others uploaded.
 * The derivation adds each leaving record's `uploaded` here (derive/departed.ts), and the daily total counts it
 * (stats/daily.ts), so a departure is no negative upload. Existing installs start at 0: their past days stay as they were.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('member_departed_uploads')
        .addColumn('user_id', 'integer', (col) => col.primaryKey())
        .addColumn('uploaded', 'bigint', notNull)
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('member_departed_uploads').execute()
    },
  }
}
