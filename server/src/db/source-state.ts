/** The one `sync_state` row and the source's own state in it (the lease: lease.ts; the data version: data-version.ts). */
import type { Kysely } from 'kysely'
import type { DB } from './schema'

/**
 * The row, saying which source runs now. A source switched since the last start (demo → nexusphp, or
 * to ingest) is written down — what a missing site account means depends on it (domain/site-accounts.ts)
 * — and the next derivation judges everything by it.
 */
export async function ensureSyncState(db: Kysely<DB>, source: string): Promise<void> {
  await db
    .insertInto('sync_state')
    .values({ id: 1, source })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  await db
    .updateTable('sync_state')
    .set({ source, derived_rules_version: null })
    .where('id', '=', 1)
    .where('source', '<>', source)
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
