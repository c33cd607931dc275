/**
 * The fourth outside attack: an admin who expects to be removed keeps requests "pre-armed" — headers
 * sent (the access check passes), body held back — and completes them once banned or demoted. The
 * role and the session are checked again once the body has arrived, so such a request acts for
 * nobody. Real HTTP over a socket (app.inject cannot hold a body back).
 */
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import type { Rules, User } from '@shared/entities'
import { messages } from '@shared/messages'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
const ROGUE_PASSWORD = 'Rogue-pass-12'

/** Sockets of armed requests, destroyed after each test (one left open would hold app.close()). */
const sockets = new Set<Socket>()

/** A POST whose headers (and the first bytes of the body) are sent now, the rest when `finish()` is called. */
async function armedPost(port: number, path: string, token: string, body: unknown) {
  const text = JSON.stringify(body)
  const socket: Socket = connect(port, '127.0.0.1')
  sockets.add(socket)
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let received = ''
  socket.on('data', (chunk) => (received += chunk.toString('utf8')))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.write(
    `POST ${API_PREFIX}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${TOKEN_HEADER}: ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text.slice(0, 1)}`,
  )
  // Long enough for the server to have run the request's onRequest hooks (the access check).
  await new Promise((resolve) => setTimeout(resolve, 150))
  return {
    async finish(): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }> {
      socket.end(text.slice(1))
      await closed
      const [head, payload] = received.split('\r\n\r\n')
      return { status: Number(head.split(' ')[1]), body: JSON.parse(payload) }
    },
  }
}

describe.each(openTestDatabases())('outside attack, fourth round ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })
  let port = 0
  let admin = ''

  afterEach(() => {
    for (const socket of sockets) socket.destroy()
    sockets.clear()
  })

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  async function rogueAdmin(username: string): Promise<{ id: number; token: string }> {
    const created = await t.call<User>('POST', '/user/create', { token: admin, body: { username, password: ROGUE_PASSWORD } })
    expect(created.status, created.body.msg).toBe(200)
    const id = created.body.data.id
    expect((await t.call('POST', '/config/add-admin', { token: admin, body: { userId: id } })).status).toBe(200)
    return { id, token: await t.login(username, ROGUE_PASSWORD) }
  }

  async function rulesBody(): Promise<Omit<Rules, 'version'>> {
    const { version: _version, ...rules } = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    return rules
  }

  it('a request armed before its admin was banned is refused (401) when its body arrives, and changes nothing', async () => {
    const rogue = await rogueAdmin('rogue_banned')
    const rules = await rulesBody()
    const versionBefore = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data.version
    const armed = await armedPost(port, '/config/rules', rogue.token, { ...rules, targetKeepers: rules.targetKeepers + 7 })

    const banned = await t.call('POST', '/user/set-status', { token: admin, body: { id: rogue.id, status: 0 } })
    expect(banned.status, banned.body.msg).toBe(200)

    const res = await armed.finish()
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: 401, msg: messages.accountBanned, data: null })
    const after = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    expect(after.version).toBe(versionBefore)
    expect(after.targetKeepers).toBe(rules.targetKeepers)
  })

  it('a request armed before its admin was demoted is refused (403) when its body arrives, and changes nothing', async () => {
    const rogue = await rogueAdmin('rogue_demoted')
    const rules = await rulesBody()
    const versionBefore = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data.version
    const armedRules = await armedPost(port, '/config/rules', rogue.token, { ...rules, targetKeepers: rules.targetKeepers + 5 })
    const armedCreate = await armedPost(port, '/user/create', rogue.token, { username: 'rogue_accomplice', password: ROGUE_PASSWORD })

    const demoted = await t.call('POST', '/config/del-admin', { token: admin, body: { userId: rogue.id } })
    expect(demoted.status, demoted.body.msg).toBe(200)

    for (const armed of [armedRules, armedCreate]) {
      const res = await armed.finish()
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ code: 403, msg: messages.forbidden, data: null })
    }
    expect((await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data.version).toBe(versionBefore)
    const accomplice = await t.db.database.db.selectFrom('users').select('id').where('username', '=', 'rogue_accomplice').executeTakeFirst()
    expect(accomplice).toBeUndefined()
  })

  it('a request armed before its session was ended by a password reset is refused (401) when its body arrives', async () => {
    const rogue = await rogueAdmin('rogue_reset')
    const armed = await armedPost(port, '/task/auto-assign', rogue.token, { preview: false })
    const reset = await t.call('POST', '/user/reset-password', { token: admin, body: { id: rogue.id, password: 'Fresh-pass-123' } })
    expect(reset.status, reset.body.msg).toBe(200)
    const res = await armed.finish()
    expect(res.status).toBe(401)
    expect(res.body.msg).toBe(messages.sessionEnded)
  })

  it('the login limit cannot be dodged by changing address within one IPv6 /64 (one subscriber), nor by IPv4 written as IPv6', async () => {
    const guess = (ip: string) =>
      t.call('POST', '/user/login', { body: { username: 'admin', password: 'Wrong-guess-1' }, ip }).then((res) => res.status)
    // Five wrong guesses, each from another address of 2001:db8:1:2::/64: the sixth is refused, from any address of it.
    const sameNet = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:0db8:0001:0002:aaaa::9',
      '2001:db8:1:2:ffff:ffff:ffff:fffe',
      '2001:db8:1:2:1:2:3:4',
    ]
    for (const ip of sameNet) expect(await guess(ip)).toBe(401)
    expect(await guess('2001:db8:1:2:dead:beef:0:1')).toBe(429)
    expect(await guess('2001:db8:1:2::1%eth0')).toBe(429)
    // Another /64 is another subscriber.
    expect(await guess('2001:db8:1:3::1')).toBe(401)
    // 10.20.30.40 and ::ffff:10.20.30.40 (a dual-stack listener) are one address.
    for (let i = 0; i < 5; i++) expect(await guess(i % 2 ? '::ffff:10.20.30.40' : '10.20.30.40')).toBe(401)
    expect(await guess('::ffff:10.20.30.40')).toBe(429)
    expect(await guess('10.20.30.40')).toBe(429)
    // The owner, from elsewhere, still logs in.
    expect((await t.call('POST', '/user/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, ip: '192.0.2.7' })).status).toBe(
      200,
    )
  })
})
