/**
 * Rows as arrays of their column values, in the order the query selects them, for the few scans
 * that read hundreds of thousands of rows (the wage reader). On SQLite better-sqlite3 then builds
 * no object per row: with 16 columns an object per row cost more than the statement itself
 * (2 M records, 829,646 rows: 3.9 s with objects, 2.0 s as arrays; BENCHMARKS.md「Wages」).
 * PostgreSQL's rows arrive as objects and are turned into arrays here — so the select list must name
 * each column once, and not with an integer (an object puts integer keys first).
 */
import type { Kysely, RawBuilder } from 'kysely'
import type { DB } from './schema'
import { ARRAY_ROWS } from './sqlite-routing'

export async function arrayRows<Row extends unknown[]>(db: Kysely<DB>, query: RawBuilder<unknown>): Promise<Row[]> {
  const compiled = query.compile(db)
  // Kysely hands the compiled query to the connection as it is (sqlite-routing.ts reads the mark).
  const { rows } = await db.executeQuery<unknown>({ ...compiled, [ARRAY_ROWS]: true } as typeof compiled)
  return rows.map((row) => (Array.isArray(row) ? row : Object.values(row as object))) as Row[]
}
