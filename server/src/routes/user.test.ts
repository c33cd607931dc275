import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import { loginInfoSchema } from '@shared/entities'
import { messages } from '@shared/messages'
import { hashPassword } from '../auth/password'
import { SESSION_CACHE_MS, SESSION_IDLE_MS, SESSION_TOUCH_INTERVAL_MS } from '../auth/sessions'
import { hinted, openTestDatabases, testClock, testScrypt, useTestApp, type TestAppHandle } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

async function addUser(
  t: TestAppHandle,
  username: string,
  password: string,
  extra: { status?: 0 | 1 | 2; role?: 'admin' | 'normal' } = {},
) {
  const now = Date.now()
  const row = await t.db.database.db
    .insertInto('users')
    .values({
      username,
      username_lower: username.toLowerCase(),
      password_hash: await hashPassword(password, testScrypt),
      role: extra.role ?? 'normal',
      status: extra.status ?? 2,
      site_uid: null,
      created_at: now,
      admin_since: null,
      last_login_at: null,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

describe.each(openTestDatabases())('user API on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })

  describe('login', () => {
    it('answers the token as data and in the Access-Token header', async () => {
      const res = await t.call<string>('POST', '/user/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
      expect(res.status).toBe(200)
      expect(res.body.code).toBe(200)
      expect(res.body.data).toMatch(/^[A-Za-z0-9_-]{43,}$/)
      expect(res.headers['access-token']).toBe(res.body.data)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    })

    it('matches usernames regardless of case and surrounding spaces', async () => {
      const token = await t.login('  ADMIN ', ADMIN_PASSWORD)
      const info = await t.call('GET', '/user/login-info', { token })
      expect(info.body.data).toMatchObject({ username: 'admin' })
    })

    it('says the same for a wrong password, an unknown and a deleted user', async () => {
      await addUser(t, 'gone', 'Gone-pass-1', { status: 1 })
      for (const body of [
        { username: 'admin', password: 'wrong-password' },
        { username: 'nobody-here', password: 'whatever-pass' },
        { username: 'gone', password: 'Gone-pass-1' },
      ]) {
        const res = await t.call('POST', '/user/login', { body, ip: '10.1.1.1' })
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ code: 401, msg: messages.wrongCredentials, data: null })
        expect(res.headers['access-token']).toBeUndefined()
      }
    })

    it('refuses a banned account with 403 (only with the right password)', async () => {
      await addUser(t, 'banned', 'Banned-pass-1', { status: 0 })
      const right = await t.call('POST', '/user/login', { body: { username: 'banned', password: 'Banned-pass-1' }, ip: '10.1.1.2' })
      expect(right.status).toBe(403)
      expect(right.body.msg).toBe(messages.accountBanned)
      const wrong = await t.call('POST', '/user/login', { body: { username: 'banned', password: 'nope-nope' }, ip: '10.1.1.2' })
      expect(wrong.status).toBe(401)
    })

    it('validates the payload with Chinese messages naming the field', async () => {
      const long = await t.call('POST', '/user/login', { body: { username: 'a'.repeat(10_000), password: 'x' } })
      expect(long.status).toBe(400)
      expect(long.body.code).toBe(400)
      expect(long.body.msg).toContain('用户名')
      expect(long.body.data).toBeNull()

      const noPassword = await t.call('POST', '/user/login', { body: { username: 'admin' } })
      expect(noPassword.status).toBe(400)
      expect(noPassword.body.msg).toBe('请输入密码')

      const noBody = await t.call('POST', '/user/login')
      expect(noBody.status).toBe(400)

      const wrongType = await t.call('POST', '/user/login', { body: { username: 123, password: 'x' } })
      expect(wrongType.status).toBe(400)
      expect(wrongType.body.msg).toContain('用户名')
    })

    it('refuses malformed JSON with 400 and a Chinese message', async () => {
      const res = await t.call('POST', '/user/login', { rawBody: '{"username": "admin", ' })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ code: 400, msg: messages.invalidJson, data: null })
    })

    it('refuses a body over 1 MiB with 400', async () => {
      const res = await t.call('POST', '/user/login', {
        rawBody: JSON.stringify({ username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) }),
      })
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(messages.bodyTooLarge)
    })

    it('rate-limits failures per username and IP with 429, even for the right password', async () => {
      await addUser(t, 'Target', 'Target-pass-1')
      const ip = '10.9.9.9'
      for (let i = 0; i < 5; i++) {
        const res = await t.call('POST', '/user/login', { body: { username: 'target', password: `guess-${i}` }, ip })
        expect(res.status).toBe(401)
      }
      const blocked = await t.call('POST', '/user/login', { body: { username: 'TARGET', password: 'Target-pass-1' }, ip })
      expect(blocked.status).toBe(429)
      expect(blocked.body).toEqual({ code: 429, msg: expect.stringMatching(hinted(messages.tooManyAttempts)), data: null })
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      // Another address is not affected; after the window the right password works again.
      expect(
        (await t.call('POST', '/user/login', { body: { username: 'target', password: 'Target-pass-1' }, ip: '10.9.9.8' })).status,
      ).toBe(200)
      clock.advance(15 * 60_000 + 1)
      expect((await t.call('POST', '/user/login', { body: { username: 'target', password: 'Target-pass-1' }, ip })).status).toBe(200)
    })

    it('records last_login_at', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      const info = await t.call<{ lastLoginAt: string }>('GET', '/user/login-info', { token })
      expect(info.body.data.lastLoginAt).toBe(new Date(clock()).toISOString())
    })
  })

  describe('login-info and tokens', () => {
    it('answers LoginInfo for a valid token', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      const res = await t.call('GET', '/user/login-info', { token })
      expect(res.status).toBe(200)
      expect(loginInfoSchema.parse(res.body.data)).toMatchObject({ username: 'admin', role: 'admin', status: 2, siteUid: null })
    })

    it.each([
      ['missing', undefined],
      ['garbage', 'not-a-token'],
      ['well-formed but unknown', 'A'.repeat(43)],
      ['oversized', 'A'.repeat(5000)],
    ])('answers 401 for a %s token', async (_label, token) => {
      const res = await t.call('GET', '/user/login-info', { token })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ code: 401, msg: messages.notLoggedIn, data: null })
    })

    it('checks the token before the payload (anonymous + bad JSON → 401)', async () => {
      const res = await t.call('POST', '/user/logout', { rawBody: '{oops' })
      expect(res.status).toBe(401)
      expect(res.body.msg).toBe(messages.notLoggedIn)
    })

    it('expires a session after 7 idle days', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      await t.db.database.db
        .updateTable('sessions')
        .set((eb) => ({ last_seen_at: eb('last_seen_at', '-', 8 * 24 * 3600_000) }))
        .where('revoked_at', 'is', null)
        .execute()
      const res = await t.call('GET', '/user/login-info', { token })
      expect(res.status).toBe(401)
      // Its holder is told why (the console shows it on the way to the login page).
      expect(res.body.msg).toBe(messages.sessionExpired)
    })

    it('keeps an active session alive, touching it at most once a minute', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      const lastSeen = async () =>
        (await t.db.database.db.selectFrom('sessions').select('last_seen_at').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow())
          .last_seen_at
      const start = await lastSeen()
      clock.advance(SESSION_TOUCH_INTERVAL_MS / 2)
      await t.call('GET', '/user/login-info', { token })
      expect(await lastSeen()).toBe(start)
      for (let day = 0; day < 10; day++) {
        clock.advance(SESSION_IDLE_MS / 2)
        expect((await t.call('GET', '/user/login-info', { token })).status).toBe(200)
      }
      // The touch is written after the answer: wait for it.
      await vi.waitFor(async () => expect(await lastSeen()).toBe(clock()))
    })

    it.runIf(backend.name === 'sqlite')('answers a request due for its touch while another connection holds the write lock', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      clock.advance(SESSION_TOUCH_INTERVAL_MS + SESSION_CACHE_MS)
      // As the sync thread holds it during a batch: before, the request waited for it (here: 5 s, then failed).
      const other = new SQLite(join(t.db.dataDir!, 'seeding.db'))
      other.exec('begin immediate')
      try {
        expect((await t.call('GET', '/user/login-info', { token })).status).toBe(200)
      } finally {
        other.exec('commit')
        other.close()
      }
      await vi.waitFor(async () =>
        expect(
          (await t.db.database.db.selectFrom('sessions').select('last_seen_at').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow())
            .last_seen_at,
        ).toBe(clock()),
      )
    })

    it('ends the session on logout, and writes one log row per login and logout', async () => {
      const db = t.db.database.db
      const logsBefore = await db.selectFrom('operation_log').selectAll().where('action', 'in', ['user.login', 'user.logout']).execute()
      const token = await t.login('admin', ADMIN_PASSWORD)
      const out = await t.call('POST', '/user/logout', { token })
      expect(out.status).toBe(200)
      expect(out.body).toEqual({ code: 200, msg: 'ok', data: null })
      expect((await t.call('GET', '/user/login-info', { token })).status).toBe(401)
      const after = await t.call('POST', '/user/logout', { token })
      expect([after.status, after.body.msg]).toEqual([401, messages.sessionEnded])

      const logs = await db
        .selectFrom('operation_log')
        .selectAll()
        .where('action', 'in', ['user.login', 'user.logout'])
        .orderBy('id')
        .execute()
      const fresh = logs.slice(logsBefore.length)
      expect(fresh.map((row) => row.action)).toEqual(['user.login', 'user.logout'])
      const admin = await db.selectFrom('users').select('id').where('username_lower', '=', 'admin').executeTakeFirstOrThrow()
      for (const row of fresh) {
        expect(row).toMatchObject({
          operator_id: admin.id,
          operator_name: 'admin',
          target_type: 'user',
          target_id: String(admin.id),
          ip: '127.0.0.1',
        })
        expect(typeof row.at).toBe('number')
      }
    })

    it('logs out with an empty JSON body as well as with {}', async () => {
      const a = await t.login('admin', ADMIN_PASSWORD)
      expect((await t.call('POST', '/user/logout', { token: a, rawBody: '' })).status).toBe(200)
      const b = await t.login('admin', ADMIN_PASSWORD)
      expect((await t.call('POST', '/user/logout', { token: b, body: {} })).status).toBe(200)
    })

    it("kills a banned user's sessions, and reads a role or status written by another process within SESSION_CACHE_MS", async () => {
      const id = await addUser(t, 'member1', 'Member-pass-1')
      const token = await t.login('member1', 'Member-pass-1')
      const info = await t.call('GET', '/user/login-info', { token })
      expect(info.body.data).toMatchObject({ id, role: 'normal' })

      // Written straight to the database, as another server process on it would.
      await t.db.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', id).execute()
      clock.advance(SESSION_CACHE_MS)
      expect((await t.call('GET', '/user/login-info', { token })).body.data).toMatchObject({ role: 'admin' })

      await t.db.database.db.updateTable('users').set({ status: 0 }).where('id', '=', id).execute()
      clock.advance(SESSION_CACHE_MS)
      const banned = await t.call('GET', '/user/login-info', { token })
      expect(banned.status).toBe(401)
      expect(banned.body.msg).toBe(messages.accountBanned)
    })

    it('stores only a hash of the token', async () => {
      const token = await t.login('admin', ADMIN_PASSWORD)
      const rows = await t.db.database.db.selectFrom('sessions').select('token_hash').execute()
      expect(rows.some((row) => row.token_hash.includes(token))).toBe(false)
      expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true)
    })
  })
})
