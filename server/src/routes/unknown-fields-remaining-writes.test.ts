/**
 * Found by an outside tester (fixed since; the test keeps it so): three write calls took a body with fields they did
 * not know, dropped them and answered 200 — the slip unknown-fields-refused.test.ts fixed for the other writes:
 * - `POST /config/del-admin { userId: alice, userIds: [alice, bob] }` (and add-admin): the POST form's schema
 *   (routes/config.ts adminTargetBody) was a plain z.object, so `userIds` was dropped: alice demoted, bob still an
 *   admin, the caller told 200 「ok」.
 * - `POST /user/logout { allDevices: true }` (noInput, a plain z.object): only this session ended, answered 200.
 * Now 400 naming the unknown field (api.md: invalid input names the field, in Chinese), nothing changed, no log row.
 */
import { describe, expect, it } from 'vitest'
import type { User } from '@shared/entities'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
const PASSWORD = 'Member-pass-1'

describe.each(openTestDatabases())('unknown fields of the remaining write calls ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('POST /config/del-admin and add-admin refuse a field they do not know, and change nothing', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const ids: number[] = []
    for (const username of ['alice', 'bob']) {
      const created = await t.call<User>('POST', '/user/create', { token: admin, body: { username, password: PASSWORD } })
      expect(created.status, created.body.msg).toBe(200)
      ids.push(created.body.data.id)
      expect((await t.call('POST', '/config/add-admin', { token: admin, body: { userId: created.body.data.id } })).status).toBe(200)
    }
    const before = await snapshot(t)
    const del = await t.call('POST', '/config/del-admin', { token: admin, body: { userId: ids[0], userIds: ids } })
    // Today: 200, alice demoted, bob untouched
    expect(del.status, del.body.msg).toBe(400)
    expect(del.body.msg).toMatch(/userIds/)
    expect(await snapshot(t)).toEqual(before)

    const add = await t.call('POST', '/config/add-admin', { token: admin, body: { userId: ids[0], note: '临时' } })
    expect(add.status, add.body.msg).toBe(400)
    expect(add.body.msg).toMatch(/note/)
  })

  it('POST /user/logout refuses a field it does not know instead of ending only this session with 200', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/user/logout', { token, body: { allDevices: true } })
    // Today: 200
    expect(res.status, res.body.msg).toBe(400)
    expect(res.body.msg).toMatch(/allDevices/)
  })
})
