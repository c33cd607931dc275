import { sql } from 'kysely'
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
    const user = { password_hash: 'x', role: 'normal' as const, status: 2 as const, site_uid: null, created_at: at, admin_since: null, last_login_at: at, updated_at: at }
    await db.insertInto('users').values({ ...user, username: 'Alice', username_lower: 'alice' }).execute()
    const row = await db.selectFrom('users').selectAll().where('username_lower', '=', 'alice').executeTakeFirstOrThrow()
    expect(row.created_at).toBe(at)
    expect(typeof row.id).toBe('number')
    expect(row.remark).toBe('')
    await expect(db.insertInto('users').values({ ...user, username: 'ALICE', username_lower: 'alice' }).execute()).rejects.toThrow()
    await expect(db.insertInto('users').values({ ...user, username: 'bob', username_lower: 'bob', role: 'root' as never }).execute()).rejects.toThrow()
    const count = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
    const one = await sql<{ v: number }>`select cast(1 as bigint) as v`.execute(db)
    expect(one.rows[0].v).toBe(1)
  })
})
