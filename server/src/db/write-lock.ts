/**
 * The admin write lock: serialises admin actions that check-then-write (the last-admin guard,
 * unique site uids, rule version numbers, assignments, manual seed types). SQLite needs nothing:
 * the app has one connection and Kysely runs one transaction on it at a time. PostgreSQL takes a
 * transaction-scoped advisory lock, so a second writer waits until the first commits and then
 * sees its result.
 */
import { type Kysely, sql } from 'kysely'
import type { DialectName } from './database'
import type { DB } from './schema'

export const AdminLock = {
  /** Every change of a users row (create, update, status, role, password). */
  users: 4_040_001,
  rules: 4_040_002,
  assignments: 4_040_003,
  seedTypes: 4_040_004,
  /** An ingest push's age check and write of one entity (sources/ingest/older.ts): pushes in flight see each other's rows. */
  ingest: 4_040_005,
} as const

export async function lockFor(trx: Kysely<DB>, dialect: DialectName, key: (typeof AdminLock)[keyof typeof AdminLock]): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(key)})`.execute(trx)
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
