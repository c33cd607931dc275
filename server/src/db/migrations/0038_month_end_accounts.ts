/**
 * A member's site account as it was at a month's end (domain.md §4: a closed month is paid by its end, as NexusPHP's
 * cron settles on the 1st). The wage read the account as it is on the day of 生成工资: an account the site disabled on
 * the 2nd lost the whole of the month before, which its claims, torrents and bans (month_end_ties, migration 0035)
 * still paid.
 *
 * `month_end_accounts`: each member with a 站点 UID at a month's first snapshot — whether the site account was enabled,
 * and whether the site had deleted it. Written with month_end_ties (snapshots/write.ts), read for that closed month
 * (wages/reader.ts wageMembers). Existing installs: nothing to fill in; a month without rows reads the accounts now.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('month_end_accounts')
        /** The counter snapshot's day (yyyymmdd in the rules' time zone): a month's first. */
        .addColumn('day', 'integer', notNull)
        .addColumn('user_id', 'integer', notNull)
        /** 0 = the site had disabled the account. */
        .addColumn('site_enabled', 'integer', notNull)
        /** 1 = the site had deleted the account (only known where the source mirrors every site account). */
        .addColumn('site_deleted', 'integer', notNull)
        .addPrimaryKeyConstraint('month_end_accounts_pk', ['day', 'user_id'])
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('month_end_accounts').execute()
    },
  }
}
