/**
 * Bulk loads (demo and benchmark data, later the first import of a connector): many rows in few
 * round trips, and secondary indexes built once after the load instead of maintained per row
 * (engineering.md §5: ~85k rows/s without indexes, ~28k/s with them).
 */
import { type Kysely, type Selectable, sql } from 'kysely'
import type { AppDatabase } from './database'
import type { DB, DeferredDefinitionsTable } from './schema'

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

type Definition = Selectable<DeferredDefinitionsTable>

/** The tables' secondary indexes (except `keep`) and, on SQLite, their triggers, as the database reports them. */
async function secondaryDefinitions(database: AppDatabase, tables: readonly string[], keep: readonly string[]): Promise<Definition[]> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ type: 'index' | 'trigger'; name: string; tbl_name: string; sql: string }>`select type, name, tbl_name, sql from sqlite_master
      where type in ('index', 'trigger') and sql is not null and tbl_name in (${sql.join(tables)})`.execute(database.db)
    return rows
      .filter((r) => r.type === 'trigger' || !keep.includes(r.name))
      .map((r) => ({ name: r.name, kind: r.type, table_name: r.tbl_name, definition: r.sql }))
  }
  const { rows } = await sql<{ name: string; tablename: string; sql: string }>`select indexname as name, tablename, indexdef as sql from pg_indexes
    where schemaname = current_schema() and tablename in (${sql.join(tables)})
      and indexname not in (select conname from pg_constraint)`.execute(database.db)
  return rows.filter((r) => !keep.includes(r.name)).map((r) => ({ name: r.name, kind: 'index', table_name: r.tablename, definition: r.sql }))
}

/**
 * Runs `load` with the tables' secondary indexes (and, on SQLite, their triggers) dropped, then
 * recreates them from the definitions the database itself reported — so the migration stays the
 * one place that defines them. `keep` names indexes the load needs (e.g. an upsert's unique key).
 */
export async function withDeferredIndexes<T>(database: AppDatabase, tables: readonly string[], keep: readonly string[], load: () => Promise<T>): Promise<T> {
  const names = await deferIndexes(database, tables, keep)
  try {
    return await load()
  } finally {
    await restoreDeferredDefinitions(database, names)
  }
}

/**
 * Drops the tables' secondary indexes and triggers; answers their names. The definitions are
 * recorded in the same transaction as the drop (deferred_definitions): a process that dies before
 * putting them back gets them back at its next start (migrateToLatest → restoreDeferredDefinitions).
 */
export async function deferIndexes(database: AppDatabase, tables: readonly string[], keep: readonly string[]): Promise<string[]> {
  const definitions = await secondaryDefinitions(database, tables, keep)
  if (!definitions.length) return []
  await database.db.transaction().execute(async (trx) => {
    await trx.insertInto('deferred_definitions').values(definitions).execute()
    for (const d of definitions) await sql`drop ${sql.raw(d.kind)} ${sql.ref(d.name)}`.execute(trx)
  })
  return definitions.map((d) => d.name)
}

/**
 * Puts back dropped indexes and triggers (`names`, or all that a load cut short left recorded), in
 * one transaction; answers their names. SQLite: the torrent-name FTS missed every write while its
 * triggers were gone, so it is rebuilt first.
 */
export async function restoreDeferredDefinitions(database: AppDatabase, names?: readonly string[]): Promise<string[]> {
  if (names?.length === 0) return []
  return database.db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('deferred_definitions').selectAll()
    if (names) query = query.where('name', 'in', names)
    const rows = await query.execute()
    if (!rows.length) return []
    if (database.dialect === 'sqlite' && rows.some((r) => r.kind === 'trigger' && r.table_name === 'site_torrents')) {
      await sql`insert into site_torrents_name_fts(site_torrents_name_fts) values ('rebuild')`.execute(trx)
    }
    for (const kind of ['trigger', 'index'] as const) {
      for (const row of rows) if (row.kind === kind) await sql.raw(row.definition).execute(trx)
    }
    await trx.deleteFrom('deferred_definitions').where('name', 'in', rows.map((r) => r.name)).execute()
    return rows.map((r) => r.name)
  })
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
