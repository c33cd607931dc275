/** The one `sync_state` row and the source's own state in it (the lease: lease.ts; the data version: data-version.ts). */
import type { Kysely } from 'kysely'
import type { DB } from './schema'

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
