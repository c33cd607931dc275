import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { migrateToLatest } from '../migrate'
import { migrationsFor } from './index'

const THEN = Date.UTC(2026, 10, 1)

// Migrations that change how records are judged, and leave the next derivation to judge every one again.
describe.each(openTestDatabases())('migrations 0033 and 0039 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  it.each([
    ['0033', 'stored keepers are recounted with seeding uploaders among them'],
    ['0039', 'members who left the team and keep seeding are judged 无工资 and keep nothing'],
  ])('%s: the next derivation judges everything (%s)', async (migration) => {
    opened = await backend.open()
    const migrations = migrationsFor(backend.name)
    const before = Object.keys(migrations)
      .sort()
      .filter((name) => name < migration)
      .at(-1)!
    const migrator = new Migrator({ db: opened.database.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    const { db } = opened.database
    await db.insertInto('sync_state').values({ id: 1, source: 'nexusphp', derived_at: THEN, derived_rules_version: 2 }).execute()
    await migrateToLatest(opened.database)
    expect(await db.selectFrom('sync_state').select('derived_rules_version').executeTakeFirstOrThrow()).toEqual({
      derived_rules_version: null,
    })
  })
})
