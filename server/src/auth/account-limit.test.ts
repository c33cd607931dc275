/**
 * The account-wide login limit through the API (auth/login-limiter.ts): a guesser with many
 * addresses — here 40 IPv6 /64s of one /48 — gets 20 judged guesses at an account per window, not
 * 5 per address; the owner still logs in from where they logged in before.
 */
import { describe, expect, it } from 'vitest'
import { messages } from '@shared/messages'
import { hinted, openTestDatabases, testClock, useTestApp, withoutHint } from '../test/harness'
import { accountLimitMessages } from './login-limiter'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('account-wide login limit on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const login = (username: string, password: string, ip: string) =>
    t.call<string>('POST', '/user/login', { body: { username, password }, ip })

  it('judges 20 wrong passwords from 40 /64s, not 200; the owner gets in from a known address, others after the window', async () => {
    // The admin's usual address (a known client: it logged in there before the guessing).
    expect((await login('admin', ADMIN_PASSWORD, '2001:db8:9:ffff::1')).status).toBe(200)
    const statuses: number[] = []
    const refusals = new Set<string>()
    for (let n = 0; n < 40; n++)
      for (let i = 1; i <= 6; i++) {
        const res = await login('admin', `wrong-${n}-${i}`, `2001:db8:1:${n}::${i}`)
        statuses.push(res.status)
        if (res.status === 429) {
          refusals.add(res.body.msg)
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        }
      }
    expect(statuses.filter((s) => s === 401)).toHaveLength(20)
    expect(statuses.filter((s) => s === 429)).toHaveLength(220)
    // The first /64s hit their own limit (the old text); after 20 the account's (its own text).
    expect([...refusals].map(withoutHint).sort()).toEqual([accountLimitMessages.login, messages.tooManyAttempts].sort())

    // The right password from a new place waits too; from the known /64 (another address of it) it works.
    const elsewhere = await login('admin', ADMIN_PASSWORD, '2001:db8:1:ff::1')
    expect(elsewhere.status).toBe(429)
    expect(elsewhere.body).toEqual({ code: 429, msg: expect.stringMatching(hinted(accountLimitMessages.login)), data: null })
    expect((await login('admin', ADMIN_PASSWORD, '2001:db8:9:ffff::2')).status).toBe(200)
    clock.advance(15 * 60_000)
    expect((await login('admin', ADMIN_PASSWORD, '2001:db8:1:ff::1')).status).toBe(200)
  })

  it("counts change-password's old-password check towards the same account-wide limit", async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    expect((await t.call('POST', '/user/create', { token: admin, body: { username: 'victim', password: 'Victim-pass-1' } })).status).toBe(
      200,
    )
    // A token stolen from the member's home, used from elsewhere.
    const stolen = (await login('victim', 'Victim-pass-1', '192.0.2.1')).body.data
    const guess = (oldPassword: string, ip: string) =>
      t.call('POST', '/user/change-password', { token: stolen, body: { oldPassword, newPassword: 'Taken-over-1' }, ip })
    for (let n = 0; n < 20; n++) expect((await guess(`wrong-${n}`, `198.51.100.${n}`)).status).toBe(400)
    const refused = await guess('Victim-pass-1', '198.51.100.99')
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ code: 429, msg: accountLimitMessages.changePassword, data: null })
    // The owner, at home, is not locked out.
    expect((await login('victim', 'Victim-pass-1', '192.0.2.1')).status).toBe(200)
  })
})
