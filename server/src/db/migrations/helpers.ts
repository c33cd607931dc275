/** DDL pieces that differ between SQLite and PostgreSQL; everything else is written once. */
import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely'
import type { DialectName } from '../database'

/**
 * Adds the auto-numbered primary key `id`. SQLite: `integer primary key autoincrement` (an alias of
 * the rowid; `autoincrement` keeps ids of deleted rows from being reused). PostgreSQL: an identity
 * column; "by default" still allows explicit ids (imports, demo data).
 */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
  type: 'integer' | 'bigint' = 'integer',
): CreateTableBuilder<T, 'id'> {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', type, (col) => col.primaryKey().generatedByDefaultAsIdentity())
}

/**
 * Epoch milliseconds. `bigint` on both: SQLite gives any type containing "INT" integer affinity,
 * and PostgreSQL needs 64 bits for milliseconds.
 */
export const epochMs = 'bigint' as const

export const notNull = (col: ColumnDefinitionBuilder) => col.notNull()
