/** SQL pieces that differ between SQLite and PostgreSQL, and small helpers for raw `sql` queries. */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectName } from './database'

/**
 * An integer parameter typed for PostgreSQL, which types a bare parameter in a select list as text
 * (`insert … select $1` would fail). Harmless on SQLite.
 */
export function int(value: number): RawBuilder<number> {
  if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`)
  return sql<number>`cast(${value} as bigint)`
}

/** The larger of two values (SQLite's two-argument max() is PostgreSQL's greatest()). */
export function greatest(dialect: DialectName, a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`
}

/** Text folded to lower case in every script (SQLite's own lower() folds ASCII only: database.ts withTextFunctions). */
export function foldCase(dialect: DialectName, expr: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`lower(${expr})` : sql<string>`unicode_lower(${expr})`
}

/** `expr in (v1, v2, …)` over integers, or a false condition for an empty list (SQL has no `in ()`). */
export function inIntegers(expr: RawBuilder<unknown>, values: readonly number[]): RawBuilder<boolean> {
  if (values.length === 0) return sql<boolean>`1 = 0`
  return sql<boolean>`${expr} in (${sql.join(values.map((v) => sql.lit(Math.trunc(v))))})`
}

/** `column in (ids)` with the list as one parameter (SQLite: a JSON array; PostgreSQL: an int array), so the
 * statement's text is the same for every list (one prepared statement, not one per list). */
export function inIdList(dialect: DialectName, column: RawBuilder<unknown>, ids: readonly number[]): RawBuilder<boolean> {
  if (ids.length === 0) return sql<boolean>`1 = 0`
  return dialect === 'postgres'
    ? sql<boolean>`${column} = any(cast(${`{${ids.join(',')}}`} as integer[]))`
    : sql<boolean>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
}

/** The dialect a Kysely (or one of its transactions) speaks, told by its placeholders: SQLite's `?`, PostgreSQL's `$n`. */
export function dialectOf<T>(db: Kysely<T>): DialectName {
  return sql`${0}`.compile(db).sql === '?' ? 'sqlite' : 'postgres'
}

/** Byte-order comparison of text, so that name sorts agree on both databases. */
export function binaryOrder(dialect: DialectName, expr: RawBuilder<unknown>): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`${expr} collate "C"` : expr
}

/** `a_b%c` → `a\_b\%c`: the text matched literally by `like … escape '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** A `like … escape '\'` pattern for "contains `text`". */
export function likeContains(text: string): string {
  return `%${escapeLike(text)}%`
}

/** Lets queued I/O and requests run between the batches of a long job (better-sqlite3 is synchronous). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** Splits keys with weights (ordered by key) into inclusive ranges of about `target` weight each. */
export function rangesByWeight(rows: readonly { key: number; n: number }[], target: number): [number, number][] {
  const ranges: [number, number][] = []
  let start: number | null = null
  let sum = 0
  for (const { key, n } of rows) {
    if (start === null) start = key
    sum += Math.max(1, n)
    if (sum >= target) {
      ranges.push([start, key])
      start = null
      sum = 0
    }
  }
  if (start !== null) ranges.push([start, rows[rows.length - 1].key])
  return ranges
}
