/**
 * A month's per-torrent wage items as one row per member (`wage_item_sets`) instead of one row per
 * member × torrent (`wage_items`). At 2,000,000 records a month has ~800,000 items: writing and later
 * deleting them row by row (two b-trees each) was most of a compute's time, and the only reader is a
 * member's breakdown — always all of one member's items at once. `items` is a JSON array of
 * `[torrentId, size, seeders, seedHours, uploaded, keeperRank, value, qualified (0|1), reason|null]`,
 * in the breakdown's order (qualified first, then by value, then torrent id).
 * Existing items are carried over.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

type ItemTuple = [number, number, number, number, number, number, number, 0 | 1, string | null]

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('wage_item_sets')
        .addColumn('period', 'text', notNull)
        .addColumn('user_id', 'integer', notNull)
        .addColumn('items', 'text', notNull)
        .addPrimaryKeyConstraint('wage_item_sets_pk', ['period', 'user_id'])
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()

      // Carry the old rows over, one member-month at a time (a few hundred rows each).
      const sets = await sql<{ period: string; user_id: number }>`select distinct period, user_id from wage_items`.execute(db)
      for (const { period, user_id } of sets.rows) {
        const { rows } = await sql<
          Record<string, number | string | null>
        >`select torrent_id, size, seeders, seed_hours, uploaded, keeper_rank, value, qualified, reason
          from wage_items where period = ${period} and user_id = ${user_id}
          order by qualified desc, value desc, torrent_id`.execute(db)
        const items: ItemTuple[] = rows.map((r) => [
          Number(r.torrent_id),
          Number(r.size),
          Number(r.seeders),
          Number(r.seed_hours),
          Number(r.uploaded),
          Number(r.keeper_rank),
          Number(r.value),
          Number(r.qualified) === 1 ? 1 : 0,
          (r.reason as string | null) ?? null,
        ])
        await db
          .insertInto('wage_item_sets')
          .values({ period, user_id, items: JSON.stringify(items) })
          .execute()
      }
      await db.schema.dropTable('wage_items').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('wage_item_sets').execute()
    },
  }
}
