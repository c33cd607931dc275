import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { currentRules, defaultRuleBody, ensureInitialRules } from '../../rules/rules'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { migrateToLatest } from '../migrate'
import { migrationsFor } from './index'

const THEN = Date.UTC(2026, 5, 1)

describe.each(openTestDatabases())('migration 0017 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  /** A database as the previous release left it (every migration before 0017 applied). */
  async function previousRelease() {
    opened = await backend.open()
    const migrations = migrationsFor(backend.name)
    const before = Object.keys(migrations)
      .sort()
      .filter((name) => name < '0017')
      .at(-1)!
    const migrator = new Migrator({ db: opened.database.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    await opened.database.db
      .insertInto('sync_state')
      .values({ id: 1, source: 'nexusphp', derived_at: THEN, derived_rules_version: 2 })
      .execute()
    return opened.database.db
  }

  const version = (v: number, body: object) => ({ version: v, rules: JSON.stringify(body), created_at: THEN, created_by: null })
  const oldDefaults = { ...defaultRuleBody, activeWindowMinutes: 60 }

  it('a site still on the shipped 60-minute window gets a rule version with 80, logged as the system’s change, and a full re-derivation', async () => {
    const db = await previousRelease()
    await db
      .insertInto('rule_versions')
      .values([version(1, oldDefaults), version(2, { ...oldDefaults, officialTeams: ['CedarHD'], targetKeepers: 4 })])
      .execute()
    await migrateToLatest(opened!.database)

    expect(await currentRules(db)).toEqual({
      version: 3,
      ...oldDefaults,
      officialTeams: ['CedarHD'],
      targetKeepers: 4,
      activeWindowMinutes: 80,
    })
    const log = await db.selectFrom('operation_log').selectAll().execute()
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({
      operator_id: null,
      operator_name: 'system',
      action: 'config.rules',
      target_type: 'rules',
      target_id: '3',
    })
    expect(log[0].detail).toMatch(/^版本 2 → 3：活跃判定窗口（分钟）：60 → 80（系统升级/)
    // The status rules changed as well: the next pass judges everything.
    expect(await db.selectFrom('sync_state').select('derived_rules_version').executeTakeFirstOrThrow()).toEqual({
      derived_rules_version: null,
    })
  })

  it('a window an admin ever chose is left alone, even when it is back at 60', async () => {
    const db = await previousRelease()
    await db
      .insertInto('rule_versions')
      .values([version(1, oldDefaults), version(2, { ...oldDefaults, activeWindowMinutes: 90 }), version(3, oldDefaults)])
      .execute()
    await migrateToLatest(opened!.database)
    expect(await currentRules(db)).toMatchObject({ version: 3, activeWindowMinutes: 60 })
    expect(await db.selectFrom('operation_log').selectAll().execute()).toEqual([])
  })

  it('a new install starts with 80', async () => {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    await ensureInitialRules(opened.database.db, THEN)
    expect(await currentRules(opened.database.db)).toMatchObject({ version: 1, activeWindowMinutes: 80 })
  })

  it('a site account whose `enabled` changes queues its member for the derivation, whoever writes the mirror', async () => {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    const { db } = opened.database
    const member = await db
      .insertInto('users')
      .values({
        username: 'alice',
        username_lower: 'alice',
        password_hash: 'x',
        role: 'normal',
        status: 2,
        site_uid: 1001,
        created_at: THEN,
        admin_since: null,
        last_login_at: null,
        updated_at: THEN,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const queued = async () =>
      (await db.selectFrom('derive_queue').select(['user_id', 'torrent_id']).orderBy('id').execute()).map((r) => [r.user_id, r.torrent_id])

    // An enabled account arriving, a non-member's account, a rename: nothing to re-judge.
    await db
      .insertInto('site_users')
      .values([
        { id: 1001, username: 'alice', enabled: 1, added: THEN, last_access: null },
        { id: 2002, username: 'zed', enabled: 0, added: THEN, last_access: null },
      ])
      .execute()
    await db.updateTable('site_users').set({ username: 'alice2' }).where('id', '=', 1001).execute()
    await sql`update site_users set enabled = enabled where id = 1001`.execute(db)
    expect(await queued()).toEqual([])

    await db.updateTable('site_users').set({ enabled: 0 }).where('id', '=', 1001).execute()
    expect(await queued()).toEqual([[member.id, null]])
    await db.updateTable('site_users').set({ enabled: 1 }).where('id', '=', 1001).execute()
    expect(await queued()).toEqual([
      [member.id, null],
      [member.id, null],
    ])
  })
})
