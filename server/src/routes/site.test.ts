/**
 * Lookups into the site mirror: site users by name or uid (member form) and the site's
 * team and tag names (rules form). Admin only; case-insensitive; LIKE wildcards typed by the admin
 * are plain text; the name prefix is an index range scan.
 */
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SiteOptions, SiteUserOption } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { escapeLike } from '../db/sql-fragments'
import { prefixMatches } from '../users/site-user-search'

const ADMIN_PASSWORD = 'Admin-pass-1'
const PASSWORD = 'Member-pass-1'

describe('escapeLike', () => {
  it('makes %, _ and \\ literal', () => {
    expect(escapeLike('a_b%c\\d')).toBe('a\\_b\\%c\\\\d')
    expect(escapeLike('张三')).toBe('张三')
  })
})

describe.each(openTestDatabases())('site lookups on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const tokens = { admin: '', member: '' }
  const ids = { alice: 0, deleted: 0 }

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    const hash = await hashPassword(PASSWORD, testScrypt)
    // SeedingWorld.member also writes the site user (uid → name).
    ids.alice = await w.member('Alice', 101, { passwordHash: hash })
    ids.deleted = await w.member('malice', 103, { status: 1 })
    const added = Date.UTC(2024, 0, 1)
    const siteUsers: [number, string][] = [
      [102, 'alice2'],
      [104, 'Bob_x'],
      [105, 'bobby'],
      [106, '张三'],
      [107, 'b%b'],
      ...Array.from({ length: 30 }, (_, i): [number, string] => [200 + i, `filler${String(i).padStart(2, '0')}`]),
    ]
    await db
      .insertInto('site_users')
      .values(siteUsers.map(([id, username]) => ({ id, username, added })))
      .execute()
    for (const [id, name, sort] of [
      [1, 'FRDS', 2],
      [2, 'CHD', 1],
      [3, 'CHD', 5],
      [4, '  ', 0],
      [5, 'Audies', 1],
    ] as const)
      await db.insertInto('site_teams').values({ id, name, sort_index: sort }).execute()
    for (const [id, name, sort] of [
      [1, '官方', 0],
      [2, '禁转', 0],
      [3, '中字', 0],
      [4, '官方', 0],
    ] as const)
      await db.insertInto('site_tags').values({ id, name, sort_index: sort }).execute()
    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.member = await t.login('Alice', PASSWORD)
  })

  const users = async (keyword: string) => {
    const res = await t.call<SiteUserOption[]>('GET', '/site/users', { token: tokens.admin, query: { keyword } })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data
  }

  it('is for admins only', async () => {
    for (const [path, query] of [
      ['/site/users', { keyword: 'a' }],
      ['/site/options', undefined],
    ] as const) {
      expect((await t.call('GET', path, { query })).status).toBe(401)
      const res = await t.call('GET', path, { token: tokens.member, query })
      expect(res.status).toBe(403)
      expect(res.body.data).toBeNull()
    }
  })

  it('finds site users by name: prefix matches first (in name order), then names containing it, any case', async () => {
    expect(await users('ali')).toEqual([
      { uid: 101, username: 'Alice', memberId: ids.alice, memberRole: 'normal', memberStatus: 2 },
      { uid: 102, username: 'alice2', memberId: null, memberRole: null, memberStatus: null },
      // A deleted member still holds the uid: the server would refuse it, so it is shown as taken, and by whom.
      { uid: 103, username: 'malice', memberId: ids.deleted, memberRole: 'normal', memberStatus: 1 },
    ])
    expect(await users('ALI')).toEqual(await users('ali'))
    expect((await users('张')).map((u) => u.username)).toEqual(['张三'])
    expect(await users('nobody-has-this')).toEqual([])
  })

  it('finds a site user by uid first, then names containing the digits', async () => {
    expect(await users('104')).toEqual([{ uid: 104, username: 'Bob_x', memberId: null, memberRole: null, memberStatus: null }])
    expect((await users('filler0')).map((u) => u.uid)).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 208, 209])
    expect((await users(' 101 ')).map((u) => u.username)).toEqual(['Alice'])
    // Not a uid (too large for one): only a name search.
    expect(await users('99999999999')).toEqual([])
  })

  it('names the role of the account holding a uid: an admin’s uid is not said to be a member’s', async () => {
    const { db } = t.db.database
    await db
      .insertInto('site_users')
      .values({ id: 108, username: 'chief', added: Date.UTC(2024, 0, 1) })
      .execute()
    await db.updateTable('users').set({ site_uid: 108 }).where('username', '=', 'admin').execute()
    try {
      const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
      expect(await users('108')).toEqual([{ uid: 108, username: 'chief', memberId: admin.id, memberRole: 'admin', memberStatus: 2 }])
    } finally {
      await db.updateTable('users').set({ site_uid: null }).where('username', '=', 'admin').execute()
    }
  })

  it('treats % and _ as plain text', async () => {
    expect((await users('_')).map((u) => u.username)).toEqual(['Bob_x'])
    expect((await users('%')).map((u) => u.username)).toEqual(['b%b'])
    expect((await users('b%')).map((u) => u.username)).toEqual(['b%b'])
  })

  it('answers at most 20', async () => {
    const found = await users('filler')
    expect(found).toHaveLength(20)
    expect(found[0].username).toBe('filler00')
    expect(found.at(-1)?.username).toBe('filler19')
  })

  it('refuses a missing, blank or over-long keyword with a Chinese message', async () => {
    for (const query of [undefined, { keyword: '   ' }, { keyword: 'x'.repeat(65) }]) {
      const res = await t.call('GET', '/site/users', { token: tokens.admin, query })
      expect(res.status).toBe(400)
      expect(res.body.msg).toMatch(/关键字/)
    }
  })

  it('reads name prefixes through the username index', async () => {
    const { db } = t.db.database
    const compiled = prefixMatches(db, backend.name, 'fil', 20).compile()
    const plan = await db.connection().execute(async (conn) => {
      if (backend.name === 'postgres') {
        // A handful of rows would be scanned whatever the indexes: ask what the index can do.
        await sql`set enable_seqscan = off`.execute(conn)
        try {
          const { rows } = await conn.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` })
          return rows.map((r) => r['QUERY PLAN']).join('\n')
        } finally {
          await sql`reset enable_seqscan`.execute(conn)
        }
      }
      const { rows } = await conn.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` })
      return rows.map((r) => r.detail).join('\n')
    })
    expect(plan).toContain('site_users_username_prefix_idx')
    if (backend.name === 'sqlite') expect(plan).not.toMatch(/TEMP B-TREE/) // name order comes from the index
  })

  it('lists the site’s team and tag names: distinct, by sort index then name, blanks left out', async () => {
    const res = await t.call<SiteOptions>('GET', '/site/options', { token: tokens.admin })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ teams: ['Audies', 'CHD', 'FRDS'], tags: ['中字', '官方', '禁转'] })
  })
})
