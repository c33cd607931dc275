/**
 * Each torrent's number of seed records, kept by the derivation beside its keepers: the exact
 * total of a page-seed search by torrent name alone is then a sum over the matching torrents
 * (thousands of label rows) instead of a count over their records (tens of thousands of index
 * entries read at random).
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('torrent_labels')
        .addColumn('records', 'integer', (col) => col.notNull().defaultTo(0))
        .execute()
      await sql`update torrent_labels set records = (select count(*) from seed_records r where r.torrent_id = torrent_labels.torrent_id)`.execute(
        db,
      )
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('torrent_labels').dropColumn('records').execute()
    },
  }
}
