/**
 * Device keys through the API (auth/device-keys.ts): the owner's app, which keeps the key of its last
 * login, gets past the account-wide lock from an address it never used (a new PPPoE address or IPv6
 * prefix), while a keyless client there waits; a replaced, expired, foreign or ended key helps no more,
 * and a stolen key buys no more guesses than one address.
 */
import { deviceKeyPattern, DEVICE_KEY_HEADER } from '@shared/endpoints'
import { AccountStatus } from '@shared/enums'
import { describe, expect, it } from 'vitest'
import { hinted, openTestDatabases, testClock, useTestApp } from '../test/harness'
import { DEVICE_KEY_IDLE_MS, MAX_DEVICE_KEYS } from './device-keys'
import { accountLimitMessages } from './login-limiter'
import { hashToken } from './sessions'

const ADMIN_PASSWORD = 'Admin-pass-1'
const WINDOW_MS = 15 * 60_000

describe.each(openTestDatabases())('device keys on $name', (backend) => {
  const clock = testClock()
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const login = (username: string, password: string, ip: string, deviceKey?: string) =>
    t.call<string>('POST', '/user/login', {
      body: { username, password },
      ip,
      headers: deviceKey === undefined ? {} : { [DEVICE_KEY_HEADER]: deviceKey },
    })
  const keyOf = (res: { headers: Record<string, unknown> }) => {
    const key = res.headers[DEVICE_KEY_HEADER.toLowerCase()]
    expect(key).toMatch(deviceKeyPattern)
    return key as string
  }
  /** A member of its own per test, so the tests' counts never meet. */
  const member = async (username: string, password: string) => {
    const res = await t.call<{ id: number }>('POST', '/user/create', {
      token: await t.login('admin', ADMIN_PASSWORD),
      body: { username, password },
    })
    expect(res.status).toBe(200)
    return res.body.data.id
  }
  /** 20 wrong passwords from 20 /64s of the /48 `2001:db8:<net>::/48`: the account is locked for unknown clients. */
  const lockAccount = async (username: string, net: number) => {
    for (let n = 0; n < 20; n++) expect((await login(username, `wrong-${n}`, `2001:db8:${net}:${n}::1`)).status).toBe(401)
    expect((await login(username, 'wrong-20', `2001:db8:${net}:20::1`)).body.msg).toMatch(hinted(accountLimitMessages.login))
  }

  it('lets a valid key through the account-wide lock from a new address; without it 429; a replaced key is dead', async () => {
    await member('alice', 'Alice-pass-1')
    const first = await login('alice', 'Alice-pass-1', '198.51.100.1')
    expect(first.status).toBe(200)
    const key = keyOf(first)
    await lockAccount('alice', 0xa1)

    const keyless = await login('alice', 'Alice-pass-1', '203.0.113.7')
    expect(keyless.status).toBe(429)
    expect(keyless.body).toEqual({ code: 429, msg: expect.stringMatching(hinted(accountLimitMessages.login)), data: null })
    expect(keyless.headers[DEVICE_KEY_HEADER.toLowerCase()]).toBeUndefined()

    // The same person the next day: a new address, the key of the last login.
    const withKey = await login('alice', 'Alice-pass-1', '203.0.113.8', key)
    expect(withKey.status).toBe(200)
    const replacement = keyOf(withKey)
    expect(replacement).not.toBe(key)
    // The key it came with was replaced: a copy of it is worth nothing; the new one works.
    expect((await login('alice', 'Alice-pass-1', '2001:db8:a2::1', key)).status).toBe(429)
    expect((await login('alice', 'Alice-pass-1', '2001:db8:a3::1', replacement)).status).toBe(200)
    // Only the hash is stored.
    const stored = await t.db.database.db.selectFrom('device_keys').select('key_hash').execute()
    expect(stored.map((row) => row.key_hash)).not.toContain(replacement)
  })

  it('does not let an expired, foreign or malformed key through', async () => {
    await member('bob', 'Bob-pass-1')
    await member('carol', 'Carol-pass-1')
    const bobKey = keyOf(await login('bob', 'Bob-pass-1', '198.51.100.2'))
    const carolKey = keyOf(await login('carol', 'Carol-pass-1', '198.51.100.3'))

    // Carol's own key would do; Bob's, a made-up one and garbage do not (nor do they fail the login otherwise).
    await lockAccount('carol', 0xb1)
    expect((await login('carol', 'Carol-pass-1', '203.0.113.20', bobKey)).status).toBe(429)
    expect((await login('carol', 'Carol-pass-1', '203.0.113.21', 'A'.repeat(43))).status).toBe(429)
    expect((await login('carol', 'Carol-pass-1', '203.0.113.22', 'not a key')).status).toBe(429)
    expect((await login('carol', 'Carol-pass-1', '203.0.113.23', carolKey)).status).toBe(200)

    // Unused for 30 days, Bob's key is gone (so is his address's standing).
    clock.advance(DEVICE_KEY_IDLE_MS)
    await lockAccount('bob', 0xb2)
    expect((await login('bob', 'Bob-pass-1', '203.0.113.24', bobKey)).status).toBe(429)
  })

  it('gives a stolen key no more guesses than one address', async () => {
    await member('dave', 'Dave-pass-1')
    const key = keyOf(await login('dave', 'Dave-pass-1', '198.51.100.4'))
    await lockAccount('dave', 0xc1)
    // The thief, with the key, from ever new /64s: 5 judged guesses, then the key exempts nothing.
    const statuses: number[] = []
    for (let n = 0; n < 10; n++) statuses.push((await login('dave', `guess-${n}`, `2001:db8:c2:${n}::1`, key)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429])
    expect((await login('dave', 'Dave-pass-1', '2001:db8:c2:ff::1', key)).status).toBe(429)
    clock.advance(WINDOW_MS)
    expect((await login('dave', 'Dave-pass-1', '2001:db8:c2:ff::1', key)).status).toBe(200)
  })

  it('ends the keys of a password change, a password reset and a delete', async () => {
    // Change: the owner's own keys (the one of the changing session's device included).
    await member('erin', 'Erin-pass-1')
    const erinLogin = await login('erin', 'Erin-pass-1', '198.51.100.5')
    const erinKey = keyOf(erinLogin)
    const changed = await t.call('POST', '/user/change-password', {
      token: erinLogin.body.data,
      body: { oldPassword: 'Erin-pass-1', newPassword: 'Erin-pass-2' },
      ip: '198.51.100.5',
    })
    expect(changed.status).toBe(200)
    await lockAccount('erin', 0xd1)
    expect((await login('erin', 'Erin-pass-2', '203.0.113.30', erinKey)).status).toBe(429)

    // Reset by an admin.
    const frankId = await member('frank', 'Frank-pass-1')
    const frankKey = keyOf(await login('frank', 'Frank-pass-1', '198.51.100.6'))
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const reset = await t.call('POST', '/user/reset-password', { token: admin, body: { id: frankId, password: 'Frank-pass-2' } })
    expect(reset.status).toBe(200)
    await lockAccount('frank', 0xd2)
    expect((await login('frank', 'Frank-pass-2', '203.0.113.31', frankKey)).status).toBe(429)

    // Delete (status 已删除): the account's keys are gone with its sessions.
    const graceId = await member('grace', 'Grace-pass-1')
    keyOf(await login('grace', 'Grace-pass-1', '198.51.100.7'))
    const keysOfGrace = () => t.db.database.db.selectFrom('device_keys').select('id').where('user_id', '=', graceId).execute()
    expect(await keysOfGrace()).toHaveLength(1)
    const deleted = await t.call('POST', '/user/set-status', { token: admin, body: { id: graceId, status: AccountStatus.Deleted } })
    expect(deleted.status).toBe(200)
    expect(await keysOfGrace()).toHaveLength(0)
  })

  it('keeps at most 20 keys per user: a login beyond that ends the least recently used one', async () => {
    const henryId = await member('henry', 'Henry-pass-1')
    const hashes = async () =>
      (await t.db.database.db.selectFrom('device_keys').select('key_hash').where('user_id', '=', henryId).execute()).map(
        (row) => row.key_hash,
      )
    const oldest = keyOf(await login('henry', 'Henry-pass-1', '198.51.100.8'))
    for (let i = 0; i < MAX_DEVICE_KEYS; i++) {
      clock.advance(1000)
      keyOf(await login('henry', 'Henry-pass-1', '198.51.100.8'))
    }
    const kept = await hashes()
    expect(kept).toHaveLength(MAX_DEVICE_KEYS)
    expect(kept).not.toContain(hashToken(oldest))
  })
})
