/**
 * Bulk loads (demo and benchmark data, later the first import of a connector): many rows in few
 * round trips, and secondary indexes built once after the load instead of maintained per row
 * (engineering.md §5: ~85k rows/s without indexes, ~28k/s with them).
 */
import { type Kysely, sql } from 'kysely'
import type { AppDatabase } from './database'
import type { DB } from './schema'

/** Column types (PostgreSQL array casts); `float8` for the REAL/double precision columns. */
export type BulkType = 'integer' | 'bigint' | 'smallint' | 'text' | 'float8'
export type BulkColumns = readonly (readonly [name: string, type: BulkType])[]
export type BulkRow = readonly (string | number | null)[]

const PG_ROWS_PER_STATEMENT = 10_000
const SQLITE_ROWS_PER_TRANSACTION = 50_000

/**
 * Inserts rows (arrays in `columns` order). SQLite: one prepared statement; PostgreSQL: `unnest` of
 * arrays. `within`: a transaction of `database` to write in (else each chunk commits on its own).
 * `replace` (SQLite only): `insert or replace` — a row that meets an existing one on the primary key
 * or a unique key takes its place (delete triggers do not fire). `checked`: the caller has already
 * refused non-integers in the integer columns (mirror.ts checks every row), so they are not checked again.
 */
export async function bulkInsert(
  database: AppDatabase,
  table: string,
  columns: BulkColumns,
  rows: readonly BulkRow[],
  within?: Kysely<DB>,
  options: { replace?: boolean; checked?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return
  if (!options.checked) checkIntegers(table, columns, rows)
  const names = columns.map(([name]) => `"${name}"`).join(', ')
  if (options.replace && database.dialect !== 'sqlite') throw new Error('bulkInsert: replace is SQLite only')
  if (database.dialect === 'sqlite') {
    const raw = database.sqlite!
    const insert = () => {
      const verb = options.replace ? 'insert or replace' : 'insert'
      const statement = raw.prepare(`${verb} into "${table}" (${names}) values (${columns.map(() => '?').join(', ')})`)
      // Inside an open transaction better-sqlite3 makes this a savepoint.
      const insertMany = raw.transaction((chunk: readonly BulkRow[]) => {
        for (const row of chunk) statement.run(row as unknown[])
      })
      for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_TRANSACTION) insertMany(rows.slice(i, i + SQLITE_ROWS_PER_TRANSACTION))
    }
    // A transaction already holds the one connection (and its BEGIN is on this same handle).
    if (within) insert()
    else await database.db.connection().execute(async () => insert())
    return
  }
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT)
    const params = columns.map(([, type], i) => sql`${sql.val(chunk.map((row) => row[i]))}::${sql.raw(type)}[]`)
    await sql`insert into ${sql.table(table)} (${sql.raw(names)}) select * from unnest(${sql.join(params)})`.execute(within ?? database.db)
  }
}

/** SQLite would silently store 1.5 in an integer column; PostgreSQL refuses it. Refuse it on both. (Sums of bytes may pass 2^53: integral but rounded, fine for aggregates.) */
function checkIntegers(table: string, columns: BulkColumns, rows: readonly BulkRow[]): void {
  const integral = columns.flatMap(([name, type], i) => (type === 'text' || type === 'float8' ? [] : [[name, i] as const]))
  for (const row of rows) {
    for (const [name, i] of integral) {
      const value = row[i]
      if (value !== null && !Number.isInteger(value)) throw new Error(`bulk insert into ${table}: ${name} is not an integer: ${String(value)}`)
    }
  }
}

interface SavedDefinition {
  name: string
  sql: string
}

/**
 * Runs `load` with the tables' secondary indexes (and, on SQLite, their triggers) dropped, then
 * recreates them from the definitions the database itself reported — so the migration stays the
 * one place that defines them. `keep` names indexes the load needs (e.g. an upsert's unique key).
 * `afterLoad` runs before the indexes come back (SQLite: the torrent-name FTS is rebuilt here).
 */
export async function withDeferredIndexes<T>(database: AppDatabase, tables: readonly string[], keep: readonly string[], load: () => Promise<T>): Promise<T> {
  const { db, dialect } = database
  let indexes: SavedDefinition[]
  let triggers: SavedDefinition[] = []
  if (dialect === 'sqlite') {
    const rows = await sql<{ type: string; name: string; sql: string }>`select type, name, sql from sqlite_master
      where type in ('index', 'trigger') and sql is not null and tbl_name in (${sql.join(tables)})`.execute(db)
    indexes = rows.rows.filter((r) => r.type === 'index' && !keep.includes(r.name))
    triggers = rows.rows.filter((r) => r.type === 'trigger')
  } else {
    const rows = await sql<{ name: string; sql: string }>`select indexname as name, indexdef as sql from pg_indexes
      where schemaname = current_schema() and tablename in (${sql.join(tables)})
        and indexname not in (select conname from pg_constraint)`.execute(db)
    indexes = rows.rows.filter((r) => !keep.includes(r.name))
  }
  for (const index of indexes) await sql`drop index ${sql.ref(index.name)}`.execute(db)
  for (const trigger of triggers) await sql`drop trigger ${sql.ref(trigger.name)}`.execute(db)
  try {
    return await load()
  } finally {
    if (dialect === 'sqlite' && tables.includes('site_torrents')) {
      await sql`insert into site_torrents_name_fts(site_torrents_name_fts) values ('rebuild')`.execute(db)
    }
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(db)
    for (const index of indexes) await sql.raw(index.sql).execute(db)
  }
}

/** Fresh planner statistics after a bulk change (and on PostgreSQL a visibility map, for index-only scans). */
export async function refreshPlannerStats(database: AppDatabase, tables: readonly string[]): Promise<void> {
  if (database.dialect === 'sqlite') {
    // A bounded sample per index: a few ms per table instead of a full scan.
    await sql`pragma analysis_limit = 2000`.execute(database.db)
    for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(database.db)
    return
  }
  for (const table of tables) await sql`vacuum (analyze) ${sql.table(table)}`.execute(database.db)
}
