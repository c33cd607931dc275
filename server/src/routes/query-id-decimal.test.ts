/**
 * Found by an outside tester (fixed since; the test keeps it so): ids that arrive as text (path segments and query
 * strings) were read with JavaScript's Number() (z.coerce.number in shared/endpoints.ts), so text that is not a decimal
 * id named a user anyway: `/user/0x2`, `/user/+2` and `/user/2.0` were user 2, `/user/1e0` and `/user/%201` user 1, and
 * the state-changing GET `/config/add-admin?userId=0b11` made user 3 an admin. api.md: "400 invalid input (msg names the
 * field and the rule, in Chinese)". Whole numbers in text are now decimal digits only (endpoints.ts queryInt).
 */
import { describe, expect, it } from 'vitest'
import type { User } from '@shared/entities'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('ids written as text that is not a decimal id ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('are refused with 400, not read as hexadecimal, binary, exponent or padded numbers', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    for (const username of ['alice', 'bob']) {
      const created = await t.call<User>('POST', '/user/create', { token: admin, body: { username, password: 'Member-pass-1' } })
      expect(created.status, created.body.msg).toBe(200)
    }
    // control: the decimal id is a user
    expect((await t.call('GET', '/user/2', { token: admin })).status).toBe(200)

    const answered: Record<string, number> = {}
    for (const path of ['/user/0x2', '/user/+2', '/user/2.0', '/user/1e0', '/user/%201']) {
      answered[path] = (await t.call('GET', path, { token: admin })).status
    }
    // Today every one of them is 200 (a user's detail)
    expect(answered).toEqual({ '/user/0x2': 400, '/user/+2': 400, '/user/2.0': 400, '/user/1e0': 400, '/user/%201': 400 })

    const before = await snapshot(t)
    const promoted = await t.call('GET', '/config/add-admin', { token: admin, query: { userId: '0b11' } })
    // Today: 200, bob (id 3) made an admin
    expect(promoted.status, promoted.body.msg).toBe(400)
    expect(promoted.body.code).toBe(400)
    expect(await snapshot(t)).toEqual(before)
  })
})
