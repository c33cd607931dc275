/**
 * The 401's reason (checkSession): read from the session row, kept by the hourly prune long enough to tell a user
 * back after days idle or a banned one days later; a well-formed token that is none of ours costs one read; a
 * session ended by the live-session cap is not said to be ended by a password change.
 */
import type { FastifyRequest } from 'fastify'
import type { KyselyPlugin } from 'kysely'
import { describe, expect, it } from 'vitest'
import { TOKEN_HEADER } from '@shared/endpoints'
import { AccountStatus } from '@shared/enums'
import { messages } from '@shared/messages'
import { accessCheck } from '../http/endpoint'
import type { AppServices } from '../services'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { MAX_LIVE_SESSIONS, pruneSessions, revokeUserSessions, SessionCache } from './sessions'

const ADMIN_PASSWORD = 'Admin-pass-1'
const DAY = 24 * 3600_000

describe.each(openTestDatabases())('why a session was refused ($name)', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })

  it('a session idle for 10 days says 登录已过期 after the hourly prune too', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD)
    clock.advance(10 * DAY)
    await pruneSessions(t.db.database.db, clock())
    const res = await t.call('GET', '/user/login-info', { token })
    expect(res.status).toBe(401)
    expect(res.body.msg).toBe(messages.sessionExpired)
  })

  it('a banned account says 账号已被封禁 days after the ban too', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD)
    const db = t.db.database.db
    const { id } = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    await db.updateTable('users').set({ status: AccountStatus.Banned }).where('id', '=', id).execute()
    await revokeUserSessions(db, id, clock())
    expect((await t.call('GET', '/user/login-info', { token })).body.msg).toBe(messages.accountBanned)
    clock.advance(10 * DAY)
    await pruneSessions(db, clock())
    expect((await t.call('GET', '/user/login-info', { token })).body.msg).toBe(messages.accountBanned)
    await db.updateTable('users').set({ status: AccountStatus.Normal }).where('id', '=', id).execute()
  })

  it('a session ended by the live-session cap (21st login) is not said to be ended by a password change', async () => {
    const first = await t.login('admin', ADMIN_PASSWORD)
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('GET', '/user/login-info', { token: first })
    expect(res.status).toBe(401)
    expect(res.body.msg).toBe(messages.sessionEnded)
    expect(res.body.msg).not.toContain('密码')
  })

  it('a well-formed token that is none of ours costs one database read, as before', async () => {
    let queries = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries++
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    const services = {
      database: { db: t.db.database.db.withPlugin(counting) },
      clock,
      sessions: new SessionCache(),
    } as unknown as AppServices
    const check = accessCheck(services, 'member')
    const request = { headers: { [TOKEN_HEADER.toLowerCase()]: 'B'.repeat(43) } } as unknown as FastifyRequest
    await expect(check(request)).rejects.toMatchObject({ message: messages.notLoggedIn })
    expect(queries).toBe(1)
  })
})
