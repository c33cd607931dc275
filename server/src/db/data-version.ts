/**
 * The data version: `sync_state.data_version`, bumped by every derivation pass that commits. Caches
 * of derived figures (page totals, statistics, wage estimates) key on it; it sits beside the schema
 * so those readers and the jobs that bump it both import it from below.
 */
import type { Kysely } from 'kysely'
import type { DB } from './schema'

export async function dataVersion(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('sync_state').select('data_version').where('id', '=', 1).executeTakeFirst()
  return Number(row?.data_version ?? 0)
}
