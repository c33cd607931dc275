import { afterEach, describe, expect, it } from 'vitest'
import { verifyPassword } from '../auth/password'
import { buildTestApp, openTestDatabases, testScrypt, type TestDatabase } from '../test/harness'
import { ensureInitialAdmin } from './initial-admin'
import { migrateToLatest } from '../db/migrate'

describe.each(openTestDatabases())('first-start admin on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  async function admins(database: TestDatabase['database']) {
    return database.db.selectFrom('users').selectAll().execute()
  }

  it('creates admin with a random password printed once, and not again on the next start', async () => {
    opened = await backend.open()
    const printed: string[] = []
    const print = (line: string) => printed.push(line)

    const first = await buildTestApp({ database: opened.database, config: opened.config, print })
    await first.close()
    expect(printed).toHaveLength(1)
    const match = /^初始管理员 admin 的密码：(\S{16}) \(initial admin password\)$/.exec(printed[0])
    expect(match).not.toBeNull()

    const users = await admins(opened.database)
    expect(users).toHaveLength(1)
    expect(users[0]).toMatchObject({ username: 'admin', role: 'admin', status: 2 })
    expect(users[0].admin_since).toBe(users[0].created_at)
    expect(await verifyPassword(match![1], users[0].password_hash)).toBe(true)
    expect(users[0].password_hash).not.toContain(match![1])

    const log = await opened.database.db.selectFrom('operation_log').selectAll().execute()
    expect(log).toMatchObject([
      { action: 'user.create-initial-admin', operator_id: null, operator_name: 'system', target_id: String(users[0].id) },
    ])

    const second = await buildTestApp({ database: opened.database, config: opened.config, print, adminPassword: 'Another-pass-1' })
    await second.close()
    expect(printed).toHaveLength(1)
    expect(await admins(opened.database)).toHaveLength(1)
    expect(await verifyPassword('Another-pass-1', (await admins(opened.database))[0].password_hash)).toBe(false)
  })

  it('uses ADMIN_PASSWORD when set and prints nothing', async () => {
    opened = await backend.open()
    const printed: string[] = []
    const app = await buildTestApp({
      database: opened.database,
      config: opened.config,
      adminPassword: 'Given-pass-1',
      print: (line) => printed.push(line),
    })
    try {
      expect(printed).toEqual([])
      const res = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'admin', password: 'Given-pass-1' } })
      expect(res.statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('creates one admin when two starts race', async () => {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    const results = await Promise.all(
      [1, 2, 3].map(() => ensureInitialAdmin(opened!.database, { password: 'Race-pass-1', scrypt: testScrypt, now: Date.now() })),
    )
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(await admins(opened.database)).toHaveLength(1)
  })
})
