import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { migrateToLatest } from './migrate'
import { migrationsFor } from './migrations'

describe.each(openTestDatabases())('migrations on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  it('apply once, then find nothing to do', async () => {
    opened = await backend.open()
    const first = await migrateToLatest(opened.database)
    expect(first.applied).toEqual(Object.keys(migrationsFor(backend.name)))
    const second = await migrateToLatest(opened.database)
    expect(second.applied).toEqual([])
  })

  it('survive two runs at the same moment', async () => {
    opened = await backend.open()
    const outcomes = await Promise.all([migrateToLatest(opened.database), migrateToLatest(opened.database)])
    expect(outcomes.flatMap((o) => o.applied)).toEqual(Object.keys(migrationsFor(backend.name)))
  })

  it('store times as integers that come back as numbers, and enforce unique usernames regardless of case', async () => {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    const { db } = opened.database
    const at = Date.UTC(2030, 0, 1) // beyond 2^31 seconds: needs 64-bit columns
    const user = {
      password_hash: 'x',
      role: 'normal' as const,
      status: 2 as const,
      site_uid: null,
      created_at: at,
      admin_since: null,
      last_login_at: at,
      updated_at: at,
    }
    await db
      .insertInto('users')
      .values({ ...user, username: 'Alice', username_lower: 'alice' })
      .execute()
    const row = await db.selectFrom('users').selectAll().where('username_lower', '=', 'alice').executeTakeFirstOrThrow()
    expect(row.created_at).toBe(at)
    expect(typeof row.id).toBe('number')
    expect(row.remark).toBe('')
    await expect(
      db
        .insertInto('users')
        .values({ ...user, username: 'ALICE', username_lower: 'alice' })
        .execute(),
    ).rejects.toThrow()
    await expect(
      db
        .insertInto('users')
        .values({ ...user, username: 'bob', username_lower: 'bob', role: 'root' as never })
        .execute(),
    ).rejects.toThrow()
    const count = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
    const one = await sql<{ v: number }>`select cast(1 as bigint) as v`.execute(db)
    expect(one.rows[0].v).toBe(1)
  })

  it('0009 carries the per-row wage items over into one item set per member and month', async () => {
    opened = await backend.open()
    const { db } = opened.database
    const migrations = migrationsFor(backend.name)
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0008_site_user_search')).error).toBeUndefined()
    const item = (user: number, torrent: number, value: number, qualified: 0 | 1, reason: string | null) =>
      sql`insert into wage_items (period, user_id, torrent_id, size, seeders, seed_hours, uploaded, keeper_rank, value, qualified, reason)
        values ('2026-10', ${user}, ${torrent}, 1000, 3, 12.5, 2000, 1, ${value}, ${qualified}, ${reason})`.execute(db)
    await item(7, 1, 1.5, 1, null)
    await item(7, 2, 0, 0, '做种时长不足')
    await item(7, 3, 9.25, 1, null)
    await item(8, 1, 2, 1, null)
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const sets = await sql<{
      user_id: number
      items: string
    }>`select user_id, items from wage_item_sets where period = '2026-10' order by user_id`.execute(db)
    expect(sets.rows.map((r) => [Number(r.user_id), JSON.parse(r.items)])).toEqual([
      [
        7,
        [
          [3, 1000, 3, 12.5, 2000, 1, 9.25, 1, null],
          [1, 1000, 3, 12.5, 2000, 1, 1.5, 1, null],
          [2, 1000, 3, 12.5, 2000, 1, 0, 0, '做种时长不足'],
        ],
      ],
      [8, [[1, 1000, 3, 12.5, 2000, 1, 2, 1, null]]],
    ])
  })

  it("0011 keys the mirror's peers, snatched and claims by the rowid on SQLite, rows and indexes kept", async () => {
    opened = await backend.open()
    const { db } = opened.database
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(backend.name) } })
    expect((await migrator.migrateTo('0010_deferred_definitions')).error).toBeUndefined()
    const big = 2 ** 40 + 7 // beyond 32 bits: SQLite's integer key is 64-bit
    await sql`insert into site_peers (id, torrent, peer_id, started, last_action, prev_action, userid) values (${big}, 5, 'aa', 1, 2, 3, 1001)`.execute(
      db,
    )
    await sql`insert into site_snatched (id, torrentid, userid, last_action, startdat) values (9, 5, 1001, 2, 1)`.execute(db)
    await sql`insert into site_claims (id, uid, torrent_id, created_at, updated_at) values (4, 1001, 5, 1, 2)`.execute(db)
    const indexes = async () =>
      (backend.name === 'sqlite'
        ? await sql<{
            name: string
          }>`select name from sqlite_master where type = 'index' and sql is not null and tbl_name in ('site_peers', 'site_snatched', 'site_claims') order by name`.execute(
            db,
          )
        : await sql<{
            name: string
          }>`select indexname as name from pg_indexes where tablename in ('site_peers', 'site_snatched', 'site_claims') order by indexname`.execute(
            db,
          )
      ).rows.map((r) => r.name)
    const before = await indexes()
    expect((await migrator.migrateTo('0011_mirror_rowid_keys')).error).toBeUndefined()
    expect(await indexes()).toEqual(before)
    const peer = await db.selectFrom('site_peers').select(['id', 'torrent', 'peer_id', 'userid']).executeTakeFirstOrThrow()
    expect(peer).toEqual({ id: big, torrent: 5, peer_id: 'aa', userid: 1001 })
    expect(Number((await db.selectFrom('site_snatched').select('id').executeTakeFirstOrThrow()).id)).toBe(9)
    expect(Number((await db.selectFrom('site_claims').select('id').executeTakeFirstOrThrow()).id)).toBe(4)
    // The unique keys still hold.
    await expect(
      sql`insert into site_peers (id, torrent, peer_id, started, last_action, prev_action, userid) values (1, 5, 'aa', 1, 2, 3, 1002)`.execute(
        db,
      ),
    ).rejects.toThrow()
    if (backend.name === 'sqlite') {
      for (const table of ['site_peers', 'site_snatched', 'site_claims']) {
        // `id` is the rowid itself: no second b-tree for the key.
        const autoindex = await sql`select name from sqlite_master where tbl_name = ${table} and name like 'sqlite_autoindex%'`.execute(db)
        expect(autoindex.rows).toEqual([])
      }
      const plan = await sql<{
        detail: string
      }>`explain query plan select userid, count(*), sum(id) from site_peers group by userid`.execute(db)
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain('COVERING INDEX')
    }
  })
  it('0013 keys peers on (torrent, peer_id, userid): two members sharing a peer_id on one torrent are both kept', async () => {
    opened = await backend.open()
    const { db } = opened.database
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(backend.name) } })
    expect((await migrator.migrateTo('0012_torrent_name_trigger_when_changed')).error).toBeUndefined()
    const peer = (id: number, userid: number) =>
      sql`insert into site_peers (id, torrent, peer_id, started, last_action, prev_action, userid) values (${id}, 5, 'aa', 1, 2, 3, ${userid})`.execute(
        db,
      )
    await peer(1, 1001)
    await expect(peer(2, 1002)).rejects.toThrow()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    await peer(2, 1002)
    await expect(peer(3, 1002)).rejects.toThrow()
    const rows = await db.selectFrom('site_peers').select(['id', 'userid']).orderBy('id').execute()
    expect(rows.map((r) => [Number(r.id), r.userid])).toEqual([
      [1, 1001],
      [2, 1002],
    ])
  })
})
