/**
 * A demo community on a test database for the wage worker tests: generated (with months of
 * counter snapshots) by the demo source, so a past month has real wages to preview and compute.
 */
import { migrateToLatest } from '../../db/migrate'
import { prepareSeedingState } from '../../jobs/sync-state'
import { bootstrapDemo } from '../../sources/demo'
import type { DemoScale } from '../../sources/demo/scale'
import type { TestBackend, TestDatabase } from '../../test/harness'

/** 2026-03-15 12:00 UTC: February 2026 is a whole past month with snapshots at both ends. */
export const DEMO_NOW = Date.UTC(2026, 2, 15, 12)
export const DEMO_PERIOD = '2026-02'

export async function openDemoMonth(backend: TestBackend, scale: DemoScale): Promise<TestDatabase> {
  const opened = await backend.open()
  const { database } = opened
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
      created_at: DEMO_NOW,
      admin_since: DEMO_NOW,
      last_login_at: null,
      updated_at: DEMO_NOW,
    })
    .execute()
  await prepareSeedingState(database.db, { source: 'demo', now: DEMO_NOW })
  await bootstrapDemo(database, {
    size: scale,
    seed: 'wage-worker',
    now: DEMO_NOW,
    memberPasswordHash: 'x',
    adminPasswordHashes: ['a1', 'a2'],
  })
  return opened
}
