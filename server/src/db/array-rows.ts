/**
 * Rows as arrays of their column values, in the order the query selects them, for the few scans
 * that read hundreds of thousands of rows (the wage reader). No object is built per row: on SQLite
 * (better-sqlite3's raw mode) with 16 columns an object per row cost more than the statement itself
 * (2 M records, 829,646 rows: 3.9 s with objects, 2.0 s as arrays; BENCHMARKS.md「Wages」); on
 * PostgreSQL (node-postgres' `rowMode: 'array'`) the same rows arrived in 2.3 s as objects, 2.0 s as
 * arrays, with less for the collector to clear after them.
 */
import { type Kysely, PostgresAdapter, type RawBuilder } from 'kysely'
import type pg from 'pg'
import type { DB } from './schema'
import { ARRAY_ROWS } from './sqlite-routing'

/** The mark arrayRows puts before a PostgreSQL statement: Kysely hands the client only the text and parameters. */
const POSTGRES_MARK = '/* array rows */ '

export async function arrayRows<Row extends unknown[]>(db: Kysely<DB>, query: RawBuilder<unknown>): Promise<Row[]> {
  const compiled = query.compile(db)
  // Kysely hands the compiled query to the connection as it is (sqlite-routing.ts reads the symbol,
  // the PostgreSQL clients of answerArrayRows the text's mark).
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  const marked = { ...compiled, sql: postgres ? POSTGRES_MARK + compiled.sql : compiled.sql, [ARRAY_ROWS]: true }
  const { rows } = await db.executeQuery<unknown>(marked as typeof compiled)
  return rows as Row[]
}

/** Makes a pooled PostgreSQL client answer arrayRows' statements as arrays (database.ts, on each new connection). */
export function answerArrayRows(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((...args: unknown[]) => {
    const [text, values, ...rest] = args
    if (typeof text === 'string' && text.startsWith(POSTGRES_MARK)) return query({ text, values, rowMode: 'array' }, ...rest)
    return query(...args)
  }) as typeof client.query
}
