/**
 * The per-app session cache (sessions.ts): a logout, ban, password reset or role change made
 * through this process applies to the very next call even while the token's session is cached;
 * one written by another process on the database applies within SESSION_CACHE_MS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { openDatabase, type AppDatabase } from '../db/database'
import { buildTestApp, openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SESSION_CACHE_MS } from './sessions'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('session cache on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  // A second server on the same database, with its own connection and cache ("another process").
  let otherDb: AppDatabase
  let other: FastifyInstance
  beforeAll(async () => {
    otherDb = await openDatabase(t.db.config.database)
    other = await buildTestApp({ database: otherDb, config: t.db.config, adminPassword: ADMIN_PASSWORD, clock })
  })
  afterAll(async () => {
    await other?.close()
    await otherDb?.close()
  })

  const infoStatus = async (token: string) => (await t.call('GET', '/user/login-info', { token })).status
  const otherInfoStatus = async (token: string) =>
    (await other.inject({ method: 'GET', url: `${API_PREFIX}/user/login-info`, headers: { [TOKEN_HEADER]: token } })).statusCode

  let n = 0
  async function member(): Promise<{ id: number; token: string }> {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const username = `member${++n}`
    const created = await t.call<{ id: number }>('POST', '/user/create', { token: admin, body: { username, password: 'Member-pass-1' } })
    expect(created.status).toBe(200)
    const token = await t.login(username, 'Member-pass-1')
    // Read twice: the session is in both apps' caches now.
    for (let i = 0; i < 2; i++) {
      expect(await infoStatus(token)).toBe(200)
      expect(await otherInfoStatus(token)).toBe(200)
    }
    return { id: created.body.data.id, token }
  }

  it('a session ended by another process is refused within SESSION_CACHE_MS (answered from the cache until then)', async () => {
    const { id, token } = await member()
    await otherDb.db.updateTable('sessions').set({ revoked_at: clock() }).where('user_id', '=', id).execute()
    // The cached answer: this app did not read the session row again.
    expect(await infoStatus(token)).toBe(200)
    clock.advance(SESSION_CACHE_MS)
    expect(await infoStatus(token)).toBe(401)
  })

  it('logout applies at once, in this app and in the other', async () => {
    const { token } = await member()
    expect((await t.call('POST', '/user/logout', { token, body: {} })).status).toBe(200)
    expect(await infoStatus(token)).toBe(401)
    clock.advance(SESSION_CACHE_MS)
    expect(await otherInfoStatus(token)).toBe(401)
  })

  it('ban and password reset through the API apply at once', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const banned = await member()
    expect((await t.call('POST', '/user/set-status', { token: admin, body: { id: banned.id, status: 0 } })).status).toBe(200)
    expect(await infoStatus(banned.token)).toBe(401)

    const reset = await member()
    expect((await t.call('POST', '/user/reset-password', { token: admin, body: { id: reset.id, password: 'Other-pass-12' } })).status).toBe(
      200,
    )
    expect(await infoStatus(reset.token)).toBe(401)
    clock.advance(SESSION_CACHE_MS)
    expect(await otherInfoStatus(banned.token)).toBe(401)
    expect(await otherInfoStatus(reset.token)).toBe(401)
  })

  it('a role given through the API applies at once; one written by another process within SESSION_CACHE_MS', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const promoted = await member()
    expect((await t.call('GET', '/config/add-admin', { token: admin, query: { userId: String(promoted.id) } })).status).toBe(200)
    expect((await t.call<{ role: string }>('GET', '/user/login-info', { token: promoted.token })).body.data.role).toBe('admin')

    const elsewhere = await member()
    await otherDb.db.updateTable('users').set({ role: 'admin' }).where('id', '=', elsewhere.id).execute()
    clock.advance(SESSION_CACHE_MS)
    expect((await t.call<{ role: string }>('GET', '/user/login-info', { token: elsewhere.token })).body.data.role).toBe('admin')
  })
})
