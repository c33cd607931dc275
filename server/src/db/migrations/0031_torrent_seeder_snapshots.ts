/**
 * `torrent_seeder_snapshots`: each torrent's seeders at a month's first snapshot (domain.md §4, `N` of the
 * formula: "seeders as the site reports them at period end"). A closed month's wage read the seeders of the
 * day it was computed, so computing March on April 3rd paid differently from April 1st, and from NexusPHP's
 * own settlement (its cron on the 1st uses the seeders of that moment).
 *
 * Written by the sync's snapshot step (snapshots/write.ts) only on the first snapshot day of a month — the
 * day the wage reads as the previous month's end counters — and only for torrents that have seed records:
 * at 200,000 torrents at most that many rows a month, never a copy per day. Pruned with the counter snapshots.
 *
 * Existing installs: nothing to fill in (the mirror keeps no history of seeders); a month whose end snapshot
 * was taken before this migration reads the current seeders, as before.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('torrent_seeder_snapshots')
        /** The counter snapshot's day (yyyymmdd in the rules' time zone). */
        .addColumn('day', 'integer', notNull)
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('seeders', 'integer', notNull)
        .addPrimaryKeyConstraint('torrent_seeder_snapshots_pk', ['day', 'torrent_id'])
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('torrent_seeder_snapshots').execute()
    },
  }
}
