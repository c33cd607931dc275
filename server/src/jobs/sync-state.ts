/** The one `sync_state` row: source and its state (the lease: db/lease.ts; the data version: db/data-version.ts). */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

export async function ensureSyncState(db: Kysely<DB>, source: string): Promise<void> {
  await db
    .insertInto('sync_state')
    .values({ id: 1, source })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

export async function readSourceState<T extends object>(db: Kysely<DB>): Promise<Partial<T>> {
  const row = await db.selectFrom('sync_state').select('source_state').where('id', '=', 1).executeTakeFirst()
  return row ? (JSON.parse(row.source_state) as Partial<T>) : {}
}

export async function writeSourceState(db: Kysely<DB>, state: object): Promise<void> {
  await db
    .updateTable('sync_state')
    .set({ source_state: JSON.stringify(state) })
    .where('id', '=', 1)
    .execute()
}

/** What the seeding side needs before its first sync: rule version 1 and the sync_state row. */
export async function prepareSeedingState(db: Kysely<DB>, options: { source: string; now: number }): Promise<void> {
  const { ensureInitialRules } = await import('../rules/rules')
  await ensureInitialRules(db, options.now)
  await ensureSyncState(db, options.source)
}
