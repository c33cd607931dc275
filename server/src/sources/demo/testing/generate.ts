/**
 * Tests: a demo community generated on a fresh test database the way a first start does it — the
 * schema, the initial admin, the seeding state, then the demo source's bootstrap.
 */
import type { AppDatabase } from '../../../db/database'
import { migrateToLatest } from '../../../db/migrate'
import { prepareSeedingState } from '../../../jobs/sync-state'
import { bootstrapDemo } from '../index'
import type { DemoScale } from '../scale'

export async function generateTestDemo(database: AppDatabase, options: { seed: string; scale: DemoScale; now: number }) {
  const { seed, scale, now } = options
  await migrateToLatest(database)
  await database.db
    .insertInto('users')
    .values({
      username: 'admin',
      username_lower: 'admin',
      password_hash: 'x',
      role: 'admin',
      status: 2,
      site_uid: null,
      created_at: now,
      admin_since: now,
      last_login_at: null,
      updated_at: now,
    })
    .execute()
  await prepareSeedingState(database.db, { source: 'demo', now })
  const outcome = await bootstrapDemo(database, { size: scale, seed, now, memberPasswordHash: 'hash', adminPasswordHashes: ['a1', 'a2'] })
  return outcome!
}
