/**
 * SQLite: the mirror's peers, snatched and claims tables keyed by `integer primary key` — an alias of
 * the rowid — instead of `bigint primary key`. Only the exact words INTEGER PRIMARY KEY make a column
 * the rowid; with `bigint` each of these tables kept a hidden rowid and a second b-tree for `id`
 * (every insert wrote both; every lookup by id went through both; an index on (userid, …) could not
 * cover `id`). SQLite's integer is 64-bit, so nothing changes for the values. The tables are rebuilt
 * from their own definitions (only the key's type changes), their rows copied, their indexes put back.
 * PostgreSQL keeps bigint (nothing to do).
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

const tables = ['site_peers', 'site_snatched', 'site_claims']
const bigintKey = /"id" bigint primary key/i

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return
      for (const table of tables) {
        const { rows } = await sql<{
          type: string
          sql: string
        }>`select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db)
        const create = rows.find((r) => r.type === 'table')
        if (!create || !bigintKey.test(create.sql)) continue
        const rebuilt = `${table}_rowid_key`
        const definition = create.sql
          .replace(bigintKey, '"id" integer primary key')
          .replace(/^CREATE TABLE ("?)\w+\1/i, `create table "${rebuilt}"`)
        await sql.raw(definition).execute(db)
        await sql.raw(`insert into "${rebuilt}" select * from "${table}" order by id`).execute(db)
        await sql.raw(`drop table "${table}"`).execute(db)
        await sql.raw(`alter table "${rebuilt}" rename to "${table}"`).execute(db)
        for (const other of rows) if (other !== create) await sql.raw(other.sql).execute(db)
      }
    },
    async down() {
      // The rowid key is what `bigint primary key` always meant to be; nothing to undo.
    },
  }
}
