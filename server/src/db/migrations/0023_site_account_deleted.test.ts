import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { addMember } from '../../sources/nexusphp/testing/member'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { migrateToLatest } from '../migrate'
import { migrationsFor } from './index'

const THEN = Date.UTC(2026, 5, 1)

describe.each(openTestDatabases())('migration 0023 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  async function migrated() {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    const { db } = opened.database
    const member = (username: string, siteUid: number) => addMember(opened!.database, username, siteUid)
    const siteUser = (id: number, enabled: 0 | 1 = 1) => ({ id, username: `u${id}`, enabled, added: THEN, last_access: null })
    /** Members queued (whole member), sorted; the queue emptied. */
    const queued = async () => {
      const rows = await db.selectFrom('derive_queue').select(['user_id', 'torrent_id']).execute()
      await db.deleteFrom('derive_queue').execute()
      expect(rows.every((r) => r.torrent_id === null)).toBe(true)
      return [...new Set(rows.map((r) => r.user_id))].sort((a, b) => Number(a) - Number(b))
    }
    return { db, member, siteUser, queued }
  }

  it('a site account row coming or going queues its members, whatever its `enabled`; first row in and last row out queue every member without one', async () => {
    const { db, member, siteUser, queued } = await migrated()
    const alice = await member('alice', 1001)
    const bob = await member('bob', 1002)
    const carol = await member('carol', 1003)

    // The first sync's first page: alice's and a non-member's rows. carol and bob have none yet: now "deleted".
    await db
      .insertInto('site_users')
      .values([siteUser(1001), siteUser(5000)])
      .execute()
    expect(await queued()).toEqual([bob, carol])
    // A later page brings bob's (enabled): he was judged deleted until now.
    await db
      .insertInto('site_users')
      .values([siteUser(1002), siteUser(5001)])
      .execute()
    expect(await queued()).toEqual([bob])
    // The sync's upsert of rows it already has (PostgreSQL: the statement trigger sees no arrival).
    await db
      .insertInto('site_users')
      .values([siteUser(1001), siteUser(1002)])
      .onConflict((oc) => oc.column('id').doUpdateSet({ username: sql`excluded.username` }))
      .execute()
    expect(await queued()).toEqual([])

    // The site deletes alice's (enabled) account; then a non-member's.
    await db.deleteFrom('site_users').where('id', '=', 1001).execute()
    expect(await queued()).toEqual([alice])
    await db.deleteFrom('site_users').where('id', '=', 5000).execute()
    expect(await queued()).toEqual([])

    // The last rows out: "no row" means nothing any more, for every member.
    await db.deleteFrom('site_users').execute()
    expect(await queued()).toEqual([alice, bob, carol])
  })

  it('the next derivation judges everything (members whose accounts the site deleted before the upgrade turn 无工资)', async () => {
    opened = await backend.open()
    const migrations = migrationsFor(backend.name)
    const before = Object.keys(migrations)
      .sort()
      .filter((name) => name < '0023')
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
