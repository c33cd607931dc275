/** What the seeding side needs before its first sync: rule version 1 and the sync_state row. */
import type { Kysely } from 'kysely'
import { ensureSyncState } from '../db/source-state'
import type { DB } from '../db/schema'
import { ensureInitialRules } from '../rules/rules'

export async function prepareSeedingState(db: Kysely<DB>, options: { source: string; now: number }): Promise<void> {
  await ensureInitialRules(db, options.now)
  await ensureSyncState(db, options.source)
}
