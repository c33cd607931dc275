/**
 * A member's 站点 UID changed mid-month (an admin correcting a wrong UID, or filling in one left empty): the member's
 * records then hold the new account's counters, while the month's start snapshot holds the old account's (or the
 * zeros of assigned torrents) — the wage counted the new account's whole history as the month's seeding
 * (domain.md §4: a record first seen after the window start counts from its first observation, never its history).
 *
 * - `site_uid_changes`: a change not yet observed: written with the change (users/member-accounts.ts), taken by the
 *   first sync after the member's records were derived from the new account (snapshots/baselines.ts).
 * - `record_rebases`: each record's counters at that sync, dated by the change: the record's baseline for a window
 *   that began before it (wages/window.ts), as a first observation (部分月份).
 *
 * Existing installs: nothing to fill in (changes before this migration are not known).
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('site_uid_changes')
        .addColumn('user_id', 'integer', notNull)
        .addColumn('changed_at', 'bigint', notNull)
        /** The UID before the change (null: none): a member changed back to it before any sync kept one account. */
        .addColumn('from_uid', 'integer')
        .addPrimaryKeyConstraint('site_uid_changes_pk', ['user_id', 'changed_at'])
        .execute()
      await db.schema
        .createTable('record_rebases')
        .addColumn('record_id', 'bigint', notNull)
        /** When the member's site UID changed (epoch ms). */
        .addColumn('rebased_at', 'bigint', notNull)
        .addColumn('seed_time_sec', 'bigint', notNull)
        .addColumn('uploaded', 'bigint', notNull)
        /**
         * The last snapshot day taken when the counters were noted (0: none): a change made after a month's end but
         * noted before that month's end snapshot was taken left the new account's counters in it — the closing
         * month counts from the change too.
         */
        .addColumn('noted_before_day', 'integer', notNull)
        .addPrimaryKeyConstraint('record_rebases_pk', ['record_id', 'rebased_at'])
        .execute()
      await db.schema.createIndex('record_rebases_rebased_at').on('record_rebases').column('rebased_at').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('record_rebases').execute()
      await db.schema.dropTable('site_uid_changes').execute()
    },
  }
}
