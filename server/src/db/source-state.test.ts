import { afterEach, describe, expect, it } from 'vitest'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { migrateToLatest } from './migrate'
import { ensureSyncState } from './source-state'

const opened: TestDatabase[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.cleanup()
})

describe.each(openTestDatabases())('sync_state at start ($name)', (backend) => {
  it('names the source that runs now when it was switched, and has the next derivation judge everything', async () => {
    const test = await backend.open()
    opened.push(test)
    await migrateToLatest(test.database)
    const { db } = test.database
    const state = () =>
      db.selectFrom('sync_state').select(['source', 'derived_rules_version']).where('id', '=', 1).executeTakeFirstOrThrow()

    await ensureSyncState(db, 'nexusphp')
    await db.updateTable('sync_state').set({ derived_rules_version: 3 }).where('id', '=', 1).execute()
    await db.insertInto('site_users').values({ id: 1001, username: 'alice', enabled: 1, added: 0, last_access: null }).execute()
    expect(await siteAccountsMirrored(db)).toBe(true)

    // Restarted with the same source: nothing changes.
    await ensureSyncState(db, 'nexusphp')
    expect(await state()).toEqual({ source: 'nexusphp', derived_rules_version: 3 })

    // Restarted as a push-ingest site: a missing site account no longer means deleted, and everything is judged again.
    await ensureSyncState(db, 'ingest')
    expect(await state()).toEqual({ source: 'ingest', derived_rules_version: null })
    expect(await siteAccountsMirrored(db)).toBe(false)
  })
})
