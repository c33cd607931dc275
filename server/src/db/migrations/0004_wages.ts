/**
 * Wages (domain.md §4, src/wages): one wage record per member and month with the rule version it
 * used, its per-torrent items, and the running month's estimates the dashboard and status 5 read.
 *
 * - `wage_records`: unique (period, user_id). `payment` 0 未发放 → 1 已发放, exactly once (a
 *   conditional update); a paid record is never rewritten by a recompute.
 * - `wage_items`: keyed (period, torrent_id, user_id) rather than by the record id, so a compute can
 *   stream items out while it reads torrent by torrent, before the member totals (and so the record
 *   rows) exist. Torrent names are not copied: they are read from the torrent labels when shown.
 * - `wage_estimates`: the running month so far, one row per member, refreshed by the estimates (the
 *   statistics cache's cadence); `below_minimum` = 1 makes the member's claimed seeding records show
 *   status 5 (无工资) in the derivation.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  const clustered = <T extends { modifyEnd(s: ReturnType<typeof sql>): T }>(builder: T): T =>
    pg ? builder : builder.modifyEnd(sql`without rowid`)
  const real = pg ? 'double precision' : 'real'

  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('wage_records'), dialect)
        .addColumn('user_id', 'integer', notNull)
        /** YYYY-MM */
        .addColumn('period', 'text', notNull)
        .addColumn('amount', real, notNull)
        .addColumn('torrent_count', 'integer', notNull)
        .addColumn('total_size', 'bigint', notNull)
        .addColumn('seed_hours', real, notNull)
        .addColumn('sum_value', real, notNull)
        .addColumn('below_minimum', 'smallint', notNull)
        .addColumn('payment', 'smallint', (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`payment in (0, 1)`),
        )
        .addColumn('paid_at', epochMs)
        .addColumn('paid_by_id', 'integer')
        .addColumn('paid_by_name', 'text')
        .addColumn('computed_at', epochMs, notNull)
        .addColumn('rule_version', 'integer', notNull)
        .execute()
      await db.schema.createIndex('wage_records_period_user_key').on('wage_records').columns(['period', 'user_id']).unique().execute()
      await db.schema.createIndex('wage_records_user_period_idx').on('wage_records').columns(['user_id', 'period']).execute()

      await clustered(
        db.schema
          .createTable('wage_items')
          .addColumn('period', 'text', notNull)
          .addColumn('user_id', 'integer', notNull)
          .addColumn('torrent_id', 'integer', notNull)
          .addColumn('size', 'bigint', notNull)
          .addColumn('seeders', 'integer', notNull)
          .addColumn('seed_hours', real, notNull)
          .addColumn('uploaded', 'bigint', notNull)
          .addColumn('keeper_rank', 'integer', notNull)
          .addColumn('value', real, notNull)
          .addColumn('qualified', 'smallint', notNull)
          .addColumn('reason', 'text')
          // Clustered in the order a compute writes them (torrent by torrent): appends, not random inserts.
          .addPrimaryKeyConstraint('wage_items_pk', ['period', 'torrent_id', 'user_id']),
      ).execute()
      // One member's breakdown (the detail drawer).
      await db.schema.createIndex('wage_items_member_idx').on('wage_items').columns(['period', 'user_id']).execute()

      await db.schema
        .createTable('wage_estimates')
        .addColumn('user_id', 'integer', (col) => col.primaryKey())
        .addColumn('period', 'text', notNull)
        .addColumn('amount', real, notNull)
        .addColumn('torrent_count', 'integer', notNull)
        .addColumn('total_size', 'bigint', notNull)
        .addColumn('below_minimum', 'smallint', notNull)
        /** 1-based by amount desc, username; null when the amount is 0. */
        .addColumn('rank', 'integer')
        .execute()
      await db.schema.createIndex('wage_estimates_rank_idx').on('wage_estimates').column('rank').execute()
    },
    async down(db: Kysely<any>) {
      for (const table of ['wage_estimates', 'wage_items', 'wage_records']) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
