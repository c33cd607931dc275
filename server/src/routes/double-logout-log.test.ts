/**
 * One session ended twice is logged once. Found by an outside tester: two (or more) `POST /user/logout` with the same
 * token at once (a double click, the app's logout racing its own retry) both passed the access check, both answered
 * 200, and each wrote a `user.logout` row — the second ended nothing, yet 操作日志 showed two logouts. Every other call
 * writes its row only for a change it made (a pay of paid records, an unchanged status, rules saved unchanged: no row).
 *
 * Expected: one session, one logout row (the second call: 401 登录已失效, or 200 without a row).
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a double logout ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('ends the session once and writes one operation-log row', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const created = await t.call<{ id: number }>('POST', '/user/create', {
      token: admin,
      body: { username: 'carol', password: 'Member-pass-1' },
    })
    expect(created.status).toBe(200)
    const carol = await t.login('carol', 'Member-pass-1')

    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => t.call('POST', '/user/logout', { token: carol })))
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1)
    // the token is dead either way
    expect((await t.call('GET', '/user/login-info', { token: carol })).status).toBe(401)

    const log = await t.call<{ list: { operatorId: number; action: string }[]; total: number }>('POST', '/operation-log/page', {
      token: admin,
      body: { page: 1, pageSize: 50, operatorId: created.body.data.id, action: 'user.logout' },
    })
    expect(log.status).toBe(200)
    expect(log.body.data.total).toBe(1)
  })
})
