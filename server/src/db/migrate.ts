/** Brings the schema up to date at start. Safe to run on every start and from several processes. */
import { type Kysely, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import type { AppDatabase } from './database'
import { migrationsFor } from './migrations'

export interface MigrationOutcome {
  /** Names of the migrations this call applied (empty when the schema was current). */
  applied: string[]
}

export async function migrateToLatest({ db, dialect }: AppDatabase): Promise<MigrationOutcome> {
  const migrations = migrationsFor(dialect)
  const run = async (target: Kysely<any>) => {
    const migrator = new Migrator({ db: target, provider: { getMigrations: async () => migrations } })
    const { error, results = [] } = await migrator.migrateToLatest()
    if (error) {
      const failed = results.find((r) => r.status === 'Error')
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`数据库迁移失败${failed ? `（${failed.migrationName}）` : ''}: ${reason}`, { cause: error })
    }
    return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) }
  }
  if (dialect === 'postgres') return run(db) // Kysely takes an advisory lock and a transaction itself.

  // Kysely runs SQLite migrations without a transaction (and without a lock). One IMMEDIATE
  // transaction around the whole run makes a failed migration leave nothing behind and makes a
  // second process starting at the same moment wait, then find the schema current.
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn)
    try {
      const outcome = await run(conn)
      await sql`commit`.execute(conn)
      return outcome
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {})
      throw error
    }
  })
}
