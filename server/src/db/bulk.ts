/**
 * Bulk loads (demo and benchmark data, later the first import of a connector): many rows in few
 * round trips, and secondary indexes built once after the load instead of maintained per row
 * (measured on the 2-core development machine: ~85k rows/s without indexes, ~28k/s with them).
 */
import { type Kysely, type Selectable, sql } from 'kysely'
import type { AppDatabase } from './database'
import type { DB, DeferredDefinitionsTable } from './schema'
import { yieldToEventLoop } from './sql-fragments'

/** Column types (PostgreSQL array casts); `float8` for the REAL/double precision columns. */
export type BulkType = 'integer' | 'bigint' | 'smallint' | 'text' | 'float8'
export type BulkColumns = readonly (readonly [name: string, type: BulkType])[]
export type BulkRow = readonly (string | number | null)[]

const PG_ROWS_PER_STATEMENT = 10_000
const SQLITE_ROWS_PER_TRANSACTION = 50_000

/**
 * Inserts rows (arrays in `columns` order). SQLite: one prepared statement; PostgreSQL: `unnest` of
 * arrays. `within`: a transaction of `database` to write in (else each chunk commits on its own).
 * `replace`: a row that meets an existing one takes its place — SQLite: `insert or replace`, on the
 * primary key or a unique key (delete triggers do not fire); PostgreSQL: `on conflict ("id") do update`
 * (tables keyed by `id`; no id twice in one call, and rows holding a unique key under another id are
 * the caller's to remove first). `checked`: the caller has already
 * refused non-integers in the integer columns (the mirror writer, sources/mirror/, checks every row), so they are not checked again.
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
  if (database.dialect === 'sqlite') {
    const raw = database.sqlite!
    const insert = async () => {
      const verb = options.replace ? 'insert or replace' : 'insert'
      const statement = raw.prepare(`${verb} into "${table}" (${names}) values (${columns.map(() => '?').join(', ')})`)
      // Inside an open transaction better-sqlite3 makes this a savepoint.
      const insertMany = raw.transaction((chunk: readonly BulkRow[]) => {
        for (const row of chunk) statement.run(row as unknown[])
      })
      for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_TRANSACTION) {
        // Synchronous: a request waits for each chunk, not for the whole load (or a caller's many small loads).
        await yieldToEventLoop()
        insertMany(rows.slice(i, i + SQLITE_ROWS_PER_TRANSACTION))
      }
    }
    // A transaction already holds the one connection (and its BEGIN is on this same handle).
    if (within) await insert()
    else await database.withWriter(insert)
    return
  }
  const replaceById = options.replace
    ? sql.raw(
        `on conflict ("id") do update set ${columns
          .filter(([name]) => name !== 'id')
          .map(([name]) => `"${name}" = excluded."${name}"`)
          .join(', ')}`,
      )
    : sql``
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT)
    const params = columns.map(([, type], i) => sql`${sql.val(chunk.map((row) => row[i]))}::${sql.raw(type)}[]`)
    await sql`insert into ${sql.table(table)} (${sql.raw(names)}) select * from unnest(${sql.join(params)}) ${replaceById}`.execute(
      within ?? database.db,
    )
  }
}

/** SQLite would silently store 1.5 in an integer column; PostgreSQL refuses it. Refuse it on both. (Sums of bytes may pass 2^53: integral but rounded, fine for aggregates.) */
function checkIntegers(table: string, columns: BulkColumns, rows: readonly BulkRow[]): void {
  const integral = columns.flatMap(([name, type], i) => (type === 'text' || type === 'float8' ? [] : [[name, i] as const]))
  for (const row of rows) {
    for (const [name, i] of integral) {
      const value = row[i]
      if (value !== null && !Number.isInteger(value))
        throw new Error(`bulk insert into ${table}: ${name} is not an integer: ${String(value)}`)
    }
  }
}

type Definition = Selectable<DeferredDefinitionsTable>

/** The tables' secondary indexes (except `keep`) and, on SQLite, their triggers, as the database reports them. */
async function secondaryDefinitions(database: AppDatabase, tables: readonly string[], keep: readonly string[]): Promise<Definition[]> {
  const { db } = database
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{
      type: 'index' | 'trigger'
      name: string
      tbl_name: string
      sql: string
      is_unique: number | null
      columns: string | null
    }>`
      select m.type, m.name, m.tbl_name, m.sql, l."unique" as is_unique,
        (select json_group_array(i.name) from (select name from pragma_index_info(m.name) order by seqno) i) as columns
      from sqlite_master m left join pragma_index_list(m.tbl_name) l on l.name = m.name
      where m.type in ('index', 'trigger') and m.sql is not null and m.tbl_name in (${sql.join(tables)})`.execute(db)
    return rows
      .filter((r) => r.type === 'trigger' || !keep.includes(r.name))
      .map((r) => ({
        name: r.name,
        kind: r.type,
        table_name: r.tbl_name,
        definition: r.sql,
        unique_columns: r.type === 'index' && r.is_unique ? r.columns : null,
      }))
  }
  const { rows } = await sql<{ name: string; tablename: string; sql: string; is_unique: boolean; columns: string[] | null }>`
    select x.indexname as name, x.tablename, x.indexdef as sql, i.indisunique as is_unique,
      (select json_agg(a.attname order by k.ord) from unnest(i.indkey) with ordinality k(attnum, ord)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
    from pg_indexes x join pg_class c on c.relname = x.indexname and c.relnamespace = current_schema()::regnamespace
      join pg_index i on i.indexrelid = c.oid
    where x.schemaname = current_schema() and x.tablename in (${sql.join(tables)})
      and x.indexname not in (select conname from pg_constraint)`.execute(db)
  return rows
    .filter((r) => !keep.includes(r.name))
    .map((r) => ({
      name: r.name,
      kind: 'index',
      table_name: r.tablename,
      definition: r.sql,
      unique_columns: r.is_unique && r.columns ? JSON.stringify(r.columns) : null,
    }))
}

/**
 * Runs `load` with the tables' secondary indexes (and, on SQLite, their triggers) dropped, then
 * recreates them from the definitions the database itself reported — so the migration stays the
 * one place that defines them. `keep` names indexes the load needs (e.g. an upsert's unique key).
 */
export async function withDeferredIndexes<T>(
  database: AppDatabase,
  tables: readonly string[],
  keep: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
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
      for (const row of rows) {
        if (row.kind !== kind) continue
        if (row.unique_columns) await rebuildUnique(trx, row.definition, row.table_name, JSON.parse(row.unique_columns) as string[])
        else await sql.raw(row.definition).execute(trx)
      }
    }
    await trx
      .deleteFrom('deferred_definitions')
      .where(
        'name',
        'in',
        rows.map((r) => r.name),
      )
      .execute()
    return rows.map((r) => r.name)
  })
}

/**
 * A unique index comes back even when the load left rows that share its key (a load that does not
 * keep the key cannot refuse or replace them: a row the source re-created under a new id while the
 * load ran): of each such group the row with the highest `id` — the newest — stays.
 */
async function rebuildUnique(trx: Kysely<DB>, definition: string, table: string, columns: readonly string[]): Promise<void> {
  await sql`savepoint rebuild_unique`.execute(trx)
  try {
    await sql.raw(definition).execute(trx)
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== '23505') throw error
    await sql`rollback to savepoint rebuild_unique`.execute(trx)
    await sql`delete from ${sql.table(table)} where id in (select id from (
        select id, row_number() over (partition by ${sql.join(columns.map((c) => sql.ref(c)))} order by id desc) as n from ${sql.table(table)}
      ) ranked where n > 1)`.execute(trx)
    await sql.raw(definition).execute(trx)
  }
  await sql`release savepoint rebuild_unique`.execute(trx)
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
