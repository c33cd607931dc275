/**
 * The migrations created the mirror's tables and stay as written; the column list in columns.ts is
 * what the code uses. This checks, on each database, that the migrated tables have exactly those
 * columns: names in order, SQL types, NULL allowed or not, defaults.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../db/database'
import { migrateToLatest } from '../../db/migrate'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { type MirrorColumn, mirrorColumnsOf, mirrorSchema, mirrorTables, type MirrorTable, mirrorUniqueKey } from './columns'

interface Described {
  name: string
  sql: string
  nullable: boolean
  default: number | string | null
}

/** A default as the catalog gives it (`0`, `'confirmed'`, PostgreSQL's `''::text`) → its value. */
function defaultValue(text: string | null): number | string | null {
  if (text === null) return null
  const bare = text.replace(/::[a-z ]+$/i, '')
  return /^'.*'$/s.test(bare) ? bare.slice(1, -1).replace(/''/g, "'") : Number(bare)
}

async function describeTable(database: AppDatabase, table: MirrorTable): Promise<Described[]> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string
      type: string
      notnull: number
      dflt_value: string | null
      pk: number
    }>`select name, type, "notnull", dflt_value, pk from pragma_table_info(${table}) order by cid`.execute(database.db)
    return rows.map((r) => ({
      name: r.name,
      sql: r.type.toLowerCase(),
      // SQLite's `integer primary key` is the rowid: never NULL, whatever the catalog says.
      nullable: r.notnull === 0 && r.pk === 0,
      default: defaultValue(r.dflt_value),
    }))
  }
  const { rows } = await sql<{
    column_name: string
    data_type: string
    is_nullable: 'YES' | 'NO'
    column_default: string | null
  }>`select column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(database.db)
  return rows.map((r) => ({
    name: r.column_name,
    sql: r.data_type,
    nullable: r.is_nullable === 'YES',
    default: defaultValue(r.column_default),
  }))
}

function expected(database: AppDatabase, column: MirrorColumn): Described {
  // On SQLite the bigint ids of peers, snatched and claims became `integer primary key` (migration
  // 0011): only those exact words make the id the rowid, and SQLite's integer is 64-bit anyway.
  const rowid = database.dialect === 'sqlite' && column.name === 'id'
  return {
    name: column.name,
    sql: rowid ? 'integer' : column.sql,
    nullable: column.nullable === true,
    default: column.default ?? null,
  }
}

describe.each(openTestDatabases())('mirror columns on $name', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
  })
  afterAll(async () => {
    await db.cleanup()
  })

  it('lists every mirror table', () => {
    expect(mirrorTables).toEqual(Object.keys(mirrorSchema))
    expect(mirrorTables).toHaveLength(9)
  })

  it.each(mirrorTables)('%s has the columns of the one list', async (table) => {
    const actual = await describeTable(db.database, table)
    expect(actual).toEqual(mirrorColumnsOf(table).map((column) => expected(db.database, column)))
  })

  it.each(mirrorTables)('%s has its unique key', async (table) => {
    const key = mirrorUniqueKey(table)
    const keys =
      db.database.dialect === 'sqlite'
        ? (
            await sql<{
              name: string
            }>`select il.name from pragma_index_list(${table}) il where il."unique" = 1 and il.origin = 'c'`.execute(db.database.db)
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select indexname as name from pg_indexes
              where schemaname = current_schema() and tablename = ${table} and indexdef like 'CREATE UNIQUE INDEX%' and indexname <> ${`${table}_pkey`}`.execute(
              db.database.db,
            )
          ).rows.map((r) => r.name)
    const columnsOf = async (index: string) =>
      db.database.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from pragma_index_info(${index}) order by seqno`.execute(db.database.db)).rows.map(
            (r) => r.name,
          )
        : (
            await sql<{ name: string }>`select a.attname as name from pg_index i
              join pg_class c on c.oid = i.indexrelid join unnest(i.indkey) with ordinality k(attnum, n) on true
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where c.relname = ${index} and c.relnamespace = current_schema()::regnamespace order by k.n`.execute(db.database.db)
          ).rows.map((r) => r.name)
    const found = await Promise.all(keys.map(columnsOf))
    expect(found).toEqual(key ? [[...key]] : [])
  })
})
