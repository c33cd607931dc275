/**
 * Seed records of a torrent in activity order: `(torrent_id, last_action, status)` replaces
 * `(torrent_id, status)`. A search by torrent name that matches a few hundred torrents reads their
 * records through this index and sorts them by last activity (page-seed's default order): with
 * last_action in the index that is a walk over dense index pages instead of one random table read
 * per record (measured at 2M records: 3,500 records, ~200 ms cold → a few ms). Keeper counts
 * (status 3/4 per torrent) are still answered from the index alone.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('seed_records_torrent_status_idx').execute()
      await db.schema
        .createIndex('seed_records_torrent_activity_idx')
        .on('seed_records')
        .columns(['torrent_id', 'last_action', 'status'])
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('seed_records_torrent_activity_idx').execute()
      await db.schema.createIndex('seed_records_torrent_status_idx').on('seed_records').columns(['torrent_id', 'status']).execute()
    },
  }
}
