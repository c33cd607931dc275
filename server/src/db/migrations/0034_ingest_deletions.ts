/**
 * `ingest_deletions`: the peers and claims a push deleted, kept for a week (sources/ingest/deletions.ts). A retried
 * or late push holding one of them — sent before the delete — wrote it back: an un-claim undone for good, a stopped
 * client seeding again until it aged out. Nothing to fill in: deletions before this migration are not known.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ingest_deletions')
        .addColumn('table_name', 'text', notNull)
        .addColumn('row_id', 'bigint', notNull)
        /** The deleted row's own time (a peer's last_action, a claim's updated_at; epoch ms), else the deletion's. */
        .addColumn('stamp', 'bigint', notNull)
        .addColumn('deleted_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('ingest_deletions_pk', ['table_name', 'row_id'])
        .execute()
      await db.schema.createIndex('ingest_deletions_deleted_at').on('ingest_deletions').column('deleted_at').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('ingest_deletions').execute()
    },
  }
}
