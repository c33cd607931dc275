/**
 * Logins sent in parallel, and logins racing an admin's password reset:
 * a guesser must not get more judged attempts by sending them at once, from one server process
 * or two, and a session must never outlive the reset that should have ended it.
 */
import { describe, expect, it } from 'vitest'
import { messages } from '@shared/messages'
import { openDatabase } from '../db/database'
import { buildTestApp, hinted, openTestDatabases, testClock, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('login races on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let seq = 0
  // One admin session for the file: logging in anew for every member would, past MAX_LIVE_SESSIONS
  // logins at the test clock's one instant, end the session a test holds (auth/sessions.ts).
  let adminToken: string | undefined
  const adminSession = async () => (adminToken ??= await t.login('admin', ADMIN_PASSWORD))

  async function newMember(password: string): Promise<{ id: number; username: string }> {
    const admin = await adminSession()
    const username = `racer${++seq}`
    const res = await t.call<{ id: number }>('POST', '/user/create', { token: admin, body: { username, password } })
    expect(res.status).toBe(200)
    return { id: res.body.data.id, username }
  }

  const attempt = (username: string, password: string, ip: string) =>
    t.call<string>('POST', '/user/login', { body: { username, password }, ip })

  it('judges at most 5 of 40 wrong passwords sent at once', async () => {
    const { username } = await newMember('Right-pass-1')
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(username, `wrong-${i}`, '10.2.0.1')))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(35)
    for (const r of results.filter((x) => x.status === 429))
      expect(r.body).toEqual({ code: 429, msg: expect.stringMatching(hinted(messages.tooManyAttempts)), data: null })
  })

  it('39 wrong passwords and the right one in parallel: once the limit is taken, the right one is refused', async () => {
    const { username } = await newMember('Right-pass-2')
    const ip = '10.2.0.2'
    const wrong = Array.from({ length: 39 }, (_, i) => attempt(username, `wrong-${i}`, ip))
    // Wait until the limit is taken by the wrong guesses still in flight, then send the right one.
    const { db } = t.db.database
    for (;;) {
      const taken = await db
        .selectFrom('login_attempts')
        .select('id')
        .where('scope', '=', JSON.stringify(['u', ip, username]))
        .execute()
      if (taken.length >= 5) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    const right = await attempt(username, 'Right-pass-2', ip)
    expect(right.status).toBe(429)
    const statuses = (await Promise.all(wrong)).map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
  })

  it("a stranger's failures from one IP do not lock the admin out from another, and only slow that IP", async () => {
    const stranger = '10.2.0.3'
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt('admin', `guess-${i}`, stranger)))
    expect(results.filter((r) => r.status === 401)).toHaveLength(5)
    expect((await attempt('admin', ADMIN_PASSWORD, '10.2.0.4')).status).toBe(200)
    // Sprayed over many usernames, the IP is slowed down (a short Retry-After), not locked for the window.
    const spray = []
    for (let i = 0; i < 25; i++) spray.push(await attempt(`nobody${i}`, 'x-password', stranger))
    const refused = spray.find((r) => r.status === 429)
    expect(refused).toBeDefined()
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60)
  })

  it('holds across two server processes on one database', async () => {
    const { username } = await newMember('Right-pass-3')
    // Its own connection(s) to the same database, as a second process has.
    const otherDatabase = await openDatabase(t.db.config.database)
    const other = await buildTestApp({ database: otherDatabase, config: t.db.config, clock, adminPassword: ADMIN_PASSWORD })
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? t.app : other).inject({
            method: 'POST',
            url: '/api/v1/user/login',
            payload: { username, password: `wrong-${i}` },
            remoteAddress: '10.2.0.5',
          }),
        ),
      )
      expect(results.filter((r) => r.statusCode === 401)).toHaveLength(5)
    } finally {
      await other.close()
      await otherDatabase.close()
    }
  })

  it('a login racing a password reset never keeps a working session (20 tries)', async () => {
    const admin = await adminSession()
    for (let i = 0; i < 20; i++) {
      const { id, username } = await newMember('Before-reset-1')
      const [login, reset] = await Promise.all([
        attempt(username, 'Before-reset-1', `10.3.0.${i}`),
        t.call('POST', '/user/reset-password', { token: admin, body: { id, password: 'After-reset-1' } }),
      ])
      expect(reset.status).toBe(200)
      if (login.status === 200) {
        const info = await t.call('GET', '/user/login-info', { token: login.body.data })
        expect(info.status, `try ${i}: the session of a login racing the reset still works`).toBe(401)
      } else expect(login.status).toBe(401)
      expect((await attempt(username, 'After-reset-1', `10.3.1.${i}`)).status).toBe(200)
    }
  })
})
