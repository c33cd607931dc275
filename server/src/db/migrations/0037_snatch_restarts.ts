/**
 * A snatch the site re-created (its row deleted and written again by the next announce: counters from 0, a new
 * `startdat`) whose new counters outgrow the old ones within the month: the month's snapshots show counters that
 * only grew, so the wage counted the new snatch from the old one's counters (100 h old, 400 h new → 300 h).
 *
 * `snatch_restarts`: noted by the derivation when a record's counters go back (derive/snatch-restarts.ts), with the
 * new snatch's start — the wage reader counts a snatch that began inside the window from 0 (wages/window.ts), without
 * a lookup per record of the scan.
 *
 * Existing installs: nothing to fill in (restarts before this migration are found as before, by counters that went
 * back between the period's two snapshots).
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('snatch_restarts')
        .addColumn('record_id', 'bigint', notNull)
        /** The new snatch's `startdat` (epoch ms); the derivation's time where the site did not know it. */
        .addColumn('started_at', 'bigint', notNull)
        .addColumn('noted_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('snatch_restarts_pk', ['record_id', 'started_at'])
        .execute()
      await db.schema.createIndex('snatch_restarts_started_at').on('snatch_restarts').column('started_at').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('snatch_restarts').execute()
    },
  }
}
