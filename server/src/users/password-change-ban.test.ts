/**
 * A member changing their own password while an admin bans (or deletes) them: the member was
 * authenticated before the two slow hashes, so the ban can commit in between. The change must then
 * be refused — a banned account does not set its own password — and nothing of it written.
 */
import { describe, expect, it, vi } from 'vitest'
import { messages } from '@shared/messages'
import { verifyPassword } from '../auth/password'
import { openTestDatabases, useTestApp } from '../test/harness'

/** Holds the next hashPassword call (the new password's hash) until released. */
const gate = vi.hoisted(() => ({
  armed: false,
  reached: () => {},
  release: Promise.resolve() as Promise<void>,
}))
vi.mock(import('../auth/password'), async (importOriginal) => {
  const original = await importOriginal()
  return {
    ...original,
    hashPassword: async (...args: Parameters<typeof original.hashPassword>) => {
      if (gate.armed) {
        gate.armed = false
        gate.reached()
        await gate.release
      }
      return original.hashPassword(...args)
    },
  }
})

const ADMIN_PASSWORD = 'Admin-pass-1'
const OLD = 'Member-pass-1'
const NEW = 'Mine-now-1234'

describe.each(openTestDatabases())('own password change racing a ban ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })
  let seq = 0

  /** Starts the member's change, runs `meanwhile` while its new hash is being made, then lets it finish. */
  async function changeWhile(meanwhile: (admin: string, memberId: number) => Promise<unknown>) {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const username = `changer${++seq}`
    const created = await t.call<{ id: number }>('POST', '/user/create', { token: admin, body: { username, password: OLD } })
    const member = await t.login(username, OLD)
    let release!: () => void
    gate.release = new Promise<void>((resolve) => (release = resolve))
    const reached = new Promise<void>((resolve) => (gate.reached = resolve))
    gate.armed = true
    const change = t.call('POST', '/user/change-password', { token: member, body: { oldPassword: OLD, newPassword: NEW } })
    await reached
    await meanwhile(admin, created.body.data.id)
    release()
    const res = await change
    const { db } = t.db.database
    const row = await db
      .selectFrom('users')
      .select(['password_hash', 'status'])
      .where('id', '=', created.body.data.id)
      .executeTakeFirstOrThrow()
    const logged = await db
      .selectFrom('operation_log')
      .select('id')
      .where('action', '=', 'user.change-password')
      .where('operator_id', '=', created.body.data.id)
      .execute()
    return { res, row, logged: logged.length }
  }

  it('a ban that commits while the new password is hashed: the change is refused and writes nothing', async () => {
    const { res, row, logged } = await changeWhile(async (admin, id) => {
      const ban = await t.call('POST', '/user/set-status', { token: admin, body: { id, status: 0 } })
      expect(ban.status).toBe(200)
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: 401, msg: messages.notLoggedIn, data: null })
    expect(row.status).toBe(0)
    expect(await verifyPassword(OLD, row.password_hash)).toBe(true)
    expect(logged).toBe(0)
  })

  it('a delete that commits meanwhile: the same', async () => {
    const { res, row, logged } = await changeWhile((admin, id) =>
      t.call('POST', '/user/set-status', { token: admin, body: { id, status: 1 } }),
    )
    expect(res.status).toBe(401)
    expect(await verifyPassword(OLD, row.password_hash)).toBe(true)
    expect(logged).toBe(0)
  })

  it('nothing meanwhile: the change goes through', async () => {
    const { res, row, logged } = await changeWhile(async () => {})
    expect(res.status).toBe(200)
    expect(await verifyPassword(NEW, row.password_hash)).toBe(true)
    expect(logged).toBe(1)
  })
})
