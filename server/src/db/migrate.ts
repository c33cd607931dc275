/** Brings the schema up to date at start. Safe to run on every start and from several processes. */
import { type Kysely, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { restoreDeferredDefinitions } from './bulk'
import type { AppDatabase } from './database'
import { migrationsFor } from './migrations'

export interface MigrationOutcome {
  /** Names of the migrations this call applied (empty when the schema was current). */
  applied: string[]
  /** Indexes and triggers a bulk load cut short had left dropped, put back (db/bulk.ts). */
  restored: string[]
}

export async function migrateToLatest(database: AppDatabase): Promise<MigrationOutcome> {
  // First what a bulk load cut short left dropped: the schema is whole before any migration touches it.
  const restored = (await tableExists(database, 'deferred_definitions')) ? await restoreDeferredDefinitions(database) : []
  return { ...(await migrate(database)), restored }
}

async function tableExists({ db, dialect }: AppDatabase, table: string): Promise<boolean> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql`select 1 from sqlite_master where type = 'table' and name = ${table}`.execute(db)
      : await sql`select 1 where to_regclass(${table}) is not null`.execute(db)
  return rows.length > 0
}

async function migrate({ db, dialect }: AppDatabase): Promise<Omit<MigrationOutcome, 'restored'>> {
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
