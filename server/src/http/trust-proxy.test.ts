/**
 * Behind a load balancer every request comes from the balancer's address. TRUST_PROXY names the
 * balancers whose X-Forwarded-For is believed, so the per-address login limit (and the logged IP)
 * is the client's; without it, or from any other address, the header is ignored — a client cannot
 * pick its own address by sending one.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '@shared/endpoints'
import { buildTestApp, openTestDatabases, type TestDatabase } from '../test/harness'

const ADMIN_PASSWORD = 'Proxy-admin-1'
const opened: { app: FastifyInstance; db: TestDatabase }[] = []
afterAll(async () => {
  for (const { app, db } of opened) {
    await app.close()
    await db.cleanup()
  }
})

async function appWith(trustProxy: string[]): Promise<FastifyInstance> {
  const [sqlite] = openTestDatabases()
  const db = await sqlite.open()
  const app = await buildTestApp({ database: db.database, config: { ...db.config, trustProxy }, adminPassword: ADMIN_PASSWORD })
  opened.push({ app, db })
  return app
}

function login(app: FastifyInstance, password: string, from: { socket: string; forwardedFor?: string }) {
  return app.inject({
    method: 'POST',
    url: `${API_PREFIX}/user/login`,
    remoteAddress: from.socket,
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    payload: { username: 'admin', password },
  })
}

/** Five wrong passwords for admin from one client: the sixth try from that client is refused even when right. */
async function exhaust(app: FastifyInstance, from: { socket: string; forwardedFor?: string }) {
  for (let i = 0; i < 5; i++) expect((await login(app, `wrong-${i}`, from)).statusCode).toBe(401)
  expect((await login(app, ADMIN_PASSWORD, from)).statusCode).toBe(429)
}

describe('TRUST_PROXY', () => {
  it('set to the balancer: the limit is per client behind it', async () => {
    const app = await appWith(['127.0.0.1'])
    await exhaust(app, { socket: '127.0.0.1', forwardedFor: '203.0.113.7' })
    const other = await login(app, ADMIN_PASSWORD, { socket: '127.0.0.1', forwardedFor: '203.0.113.8' })
    expect(other.statusCode).toBe(200)
  })

  it('set, but the request comes from elsewhere: its header is not believed', async () => {
    const app = await appWith(['127.0.0.1'])
    await exhaust(app, { socket: '198.51.100.20', forwardedFor: '203.0.113.7' })
    const spoofed = await login(app, ADMIN_PASSWORD, { socket: '198.51.100.20', forwardedFor: '203.0.113.9' })
    expect(spoofed.statusCode).toBe(429)
  })

  it('unset: every request is the address it came from', async () => {
    const app = await appWith([])
    await exhaust(app, { socket: '127.0.0.1', forwardedFor: '203.0.113.7' })
    const other = await login(app, ADMIN_PASSWORD, { socket: '127.0.0.1', forwardedFor: '203.0.113.8' })
    expect(other.statusCode).toBe(429)
  })
})
