/**
 * What a closed month's wage is paid by, kept at its end (domain.md §4: the month is settled at its end, as NexusPHP's
 * cron settles claims at 00:00 on the 1st). A closed month read the ties (claims, assignments) and the torrents
 * (official or not, name, size, age, banned) of the day it was computed: a claim given up, or a torrent the site
 * deleted, between the 1st and 生成工资 took that torrent's whole month out of the wage.
 *
 * - `month_end_ties`: each claimed or assigned record at a month's first snapshot, with its member, torrent, seed type,
 *   the moments its claim and assignment began and the begins the site noted with the claim (a claim given up later
 *   takes them from the mirror). A record the derivation deletes later is still here.
 * - `torrent_seeder_snapshots` (migration 0031) also keeps each torrent's name, size, age, seed type and ban then.
 *
 * Written by the sync's snapshot step on a month's first snapshot day only (snapshots/write.ts). Existing installs:
 * nothing to fill in (no history of ties is kept); a month whose end snapshot was taken before this migration reads
 * the current ties and torrents, as before (wages/reader.ts).
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

const torrentColumns = [
  ['name', 'text'],
  ['size', 'bigint'],
  ['added', 'bigint'],
  ['seed_type', 'integer'],
  ['banned', 'integer'],
] as const

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('month_end_ties')
        /** The counter snapshot's day (yyyymmdd in the rules' time zone): a month's first. */
        .addColumn('day', 'integer', notNull)
        .addColumn('record_id', 'bigint', notNull)
        .addColumn('user_id', 'integer', notNull)
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('seed_type', 'integer', notNull)
        /** 1 = claimed; its time (epoch ms; 0 where the site did not say) and the begins NexusPHP noted with it. */
        .addColumn('claimed', 'integer', notNull)
        .addColumn('claimed_at', 'bigint', notNull)
        .addColumn('claim_seed_time_begin', 'bigint')
        .addColumn('claim_uploaded_begin', 'bigint')
        /** 1 = assigned, and since when (epoch ms). */
        .addColumn('assigned', 'integer', notNull)
        .addColumn('assigned_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('month_end_ties_pk', ['day', 'record_id'])
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()
      // Null in rows written before this migration (their torrents are read as they are now).
      for (const [name, type] of torrentColumns) await db.schema.alterTable('torrent_seeder_snapshots').addColumn(name, type).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('month_end_ties').execute()
      for (const [name] of torrentColumns) await db.schema.alterTable('torrent_seeder_snapshots').dropColumn(name).execute()
    },
  }
}
