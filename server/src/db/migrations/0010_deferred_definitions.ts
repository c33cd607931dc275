/**
 * Index and trigger definitions a bulk load has dropped (db/bulk.ts withDeferredIndexes), written in
 * the same transaction as the drop. A load cut short — the process killed in the middle of a first
 * import — used to lose them for good (slow queries, a torrent-name search that no longer followed
 * edits); at start the server puts back whatever this table still holds.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('deferred_definitions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', notNull)
        .addColumn('table_name', 'text', notNull)
        .addColumn('definition', 'text', notNull)
        // A unique index's columns (JSON array): rows a load left duplicated on them go before it is rebuilt.
        .addColumn('unique_columns', 'text')
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('deferred_definitions').execute()
    },
  }
}
