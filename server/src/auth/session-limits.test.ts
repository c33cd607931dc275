/**
 * Sessions cannot pile up: a user holds at most MAX_LIVE_SESSIONS live ones (the least recently
 * used end when a new one is made), and a running app deletes ended sessions every
 * SESSION_PRUNE_INTERVAL_MS, not only at start.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildTestApp, openTestDatabases, testClock, useTestApp } from '../test/harness'
import { ENDED_SESSION_KEEP_MS, MAX_LIVE_SESSIONS, SESSION_IDLE_MS, SESSION_PRUNE_INTERVAL_MS, SESSION_TOUCH_INTERVAL_MS } from './sessions'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'

describe.each(openTestDatabases())('session limits on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  afterEach(() => {
    vi.useRealTimers()
  })

  async function member(username: string): Promise<number> {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call<{ id: number }>('POST', '/user/create', { token: admin, body: { username, password: MEMBER_PASSWORD } })
    expect(res.status).toBe(200)
    return res.body.data.id
  }
  const infoStatus = async (token: string) => (await t.call('GET', '/user/login-info', { token })).status
  const liveSessions = async (userId: number) =>
    (
      await t.db.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', clock())
        .execute()
    ).length

  it(`keeps at most ${MAX_LIVE_SESSIONS} live sessions per user, ending the least recently used`, async () => {
    const id = await member('looper')
    const first = await t.login('looper', MEMBER_PASSWORD)
    clock.advance(SESSION_TOUCH_INTERVAL_MS)
    const later: string[] = []
    for (let i = 1; i < MAX_LIVE_SESSIONS; i++) later.push(await t.login('looper', MEMBER_PASSWORD))
    expect(await liveSessions(id)).toBe(MAX_LIVE_SESSIONS)
    // The first session is used again (its last use written), so it is not the least recently used any more.
    clock.advance(SESSION_TOUCH_INTERVAL_MS)
    expect(await infoStatus(first)).toBe(200)
    await vi.waitFor(async () => {
      const rows = await t.db.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', id)
        .where('last_seen_at', '=', clock())
        .execute()
      expect(rows).toHaveLength(1)
    })

    const newest = await t.login('looper', MEMBER_PASSWORD)
    expect(await infoStatus(later[0])).toBe(401)
    expect(await infoStatus(first)).toBe(200)
    expect(await infoStatus(later[1])).toBe(200)
    expect(await infoStatus(newest)).toBe(200)
    expect(await liveSessions(id)).toBe(MAX_LIVE_SESSIONS)

    // A login loop changes nothing about that.
    for (let i = 0; i < 30; i++) await t.login('looper', MEMBER_PASSWORD)
    expect(await liveSessions(id)).toBe(MAX_LIVE_SESSIONS)
  })

  it('deletes ended sessions every SESSION_PRUNE_INTERVAL_MS while running, and stops on close', async () => {
    // Its own app, built under fake intervals (timeouts stay real: the database and vi.waitFor use them).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const app = await buildTestApp({ database: t.db.database, config: t.db.config, adminPassword: ADMIN_PASSWORD, clock })
    try {
      const id = await member('sleeper')
      await t.login('sleeper', MEMBER_PASSWORD)
      const sessions = () => t.db.database.db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()
      expect(await sessions()).toHaveLength(1)
      // Idle for longer than the idle time plus the time an ended session is kept (to say why it ended).
      clock.advance(SESSION_IDLE_MS + ENDED_SESSION_KEEP_MS + 1)
      vi.advanceTimersByTime(SESSION_PRUNE_INTERVAL_MS)
      await vi.waitFor(async () => expect(await sessions()).toHaveLength(0))
    } finally {
      await app.close()
    }
    expect(vi.getTimerCount()).toBe(0)
  })
})
