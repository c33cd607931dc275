/**
 * `installation`: one row naming this console's database with a random id, made once. The payout's ledger key
 * carries it (payout/ledger.ts): wage record ids start at 1 in every database, so a console set up afresh (a new
 * SQLite file, a move to PostgreSQL) paying the same site would otherwise take the earlier database's bonus log
 * row for wage #N as proof that its own #N was paid — and mark it 已发放 with nothing credited.
 */
import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { notNull } from './helpers'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('installation')
        .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
        .addColumn('install_id', 'text', notNull)
        .execute()
      await db
        .insertInto('installation')
        .values({ id: 1, install_id: randomBytes(6).toString('hex') })
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('installation').execute()
    },
  }
}
