/** A migrated test database with the seeding state prepared, shared by the tests of one file. */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { prepareSeedingState } from '../jobs/sync-state'
import type { TestBackend, TestDatabase } from './harness'
import { clearSeedingData, SeedingWorld } from './seeding-world'

export interface SeedingDbHandle {
  readonly db: TestDatabase
  /** A fresh world for the current test (tables cleared before each test). */
  readonly world: SeedingWorld
}

export function useSeedingDb(backend: TestBackend): SeedingDbHandle {
  let db: TestDatabase | undefined
  let world: SeedingWorld | undefined
  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
    await prepareSeedingState(db.database.db, { source: 'demo', now: Date.UTC(2025, 0, 1) })
  })
  beforeEach(async () => {
    await clearSeedingData(db!.database.db)
    world = new SeedingWorld(db!.database.db)
  })
  afterAll(async () => {
    await db?.cleanup()
  })
  return {
    get db() {
      if (!db) throw new Error('not open yet')
      return db
    },
    get world() {
      if (!world) throw new Error('no world yet')
      return world
    },
  }
}
