/**
 * Many idle connections from one address (slow-loris without sending anything slow: each one sends a
 * request every minute to stay under the keep-alive time-out) would use up the server's file
 * descriptors — often 1,024 for a service — and then nobody connects, and SQLite cannot open its
 * temporary files. One address holds at most MAX_CONNECTIONS_PER_IP; the rest are refused at once.
 */
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { buildTestApp, openTestDatabases } from '../test/harness'
import { connectionLimitMessage } from './connection-limit'

const sockets: Socket[] = []
afterEach(() => sockets.splice(0).forEach((socket) => socket.destroy()))

/** Opens a connection and sends one keep-alive GET /health; resolves with what came back first. */
function healthOver(port: number): Promise<{ socket: Socket; text: string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    sockets.push(socket)
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.once('error', reject)
    socket.once('data', (data) => resolve({ socket, text: data.toString('utf8'), closed }))
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  })
}

describe('connections per client address', () => {
  it('an address holding the most it may open gets the 429 envelope on the next one; once one closes, it connects again', async () => {
    const [sqlite] = openTestDatabases()
    const db = await sqlite.open()
    const app = await buildTestApp({ database: db.database, config: db.config, adminPassword: 'Limit-pass-1', maxConnectionsPerIp: 4 })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      const held = []
      for (let i = 0; i < 4; i++) {
        const answer = await healthOver(port)
        expect(answer.text).toMatch(/^HTTP\/1\.1 200/)
        held.push(answer)
      }
      const refused = await healthOver(port)
      expect(refused.text).toMatch(/^HTTP\/1\.1 429/)
      expect(JSON.parse(refused.text.slice(refused.text.indexOf('\r\n\r\n') + 4))).toEqual({
        code: 429,
        msg: connectionLimitMessage,
        data: null,
      })
      await refused.closed

      held[0]!.socket.destroy()
      await held[0]!.closed
      await expect.poll(async () => (await healthOver(port)).text.slice(0, 12)).toBe('HTTP/1.1 200')
    } finally {
      sockets.splice(0).forEach((socket) => socket.destroy())
      await app.close()
      await db.cleanup()
    }
  })

  it('a flood of connections over the limit is closed at once, not held open waiting for an answer', async () => {
    const [sqlite] = openTestDatabases()
    const db = await sqlite.open()
    // Refused connections that send nothing are held a minute here: only the flood's excess can close in this test.
    const app = await buildTestApp({
      database: db.database,
      config: db.config,
      adminPassword: 'Limit-pass-1',
      maxConnectionsPerIp: 2,
      refusedConnectionHoldMs: 60_000,
    })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      for (let i = 0; i < 2; i++) expect((await healthOver(port)).text).toMatch(/^HTTP\/1\.1 200/)
      // 40 more that send nothing: at most a few are kept for their 429; the rest close at once.
      const silent = Array.from({ length: 40 }, () => {
        const socket = connect(port, '127.0.0.1')
        sockets.push(socket)
        socket.on('error', () => {})
        return new Promise<void>((done) => socket.once('close', () => done()))
      })
      let closed = 0
      for (const done of silent) void done.then(() => closed++)
      await expect.poll(() => closed, { timeout: 30_000 }).toBe(40 - 8)
      const open = () => new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
      expect(await open()).toBe(2 + 8)
    } finally {
      sockets.splice(0).forEach((socket) => socket.destroy())
      await app.close()
      await db.cleanup()
    }
  })

  it('behind a trusted proxy (TRUST_PROXY) every client arrives from the proxy: no limit by socket address', async () => {
    const [sqlite] = openTestDatabases()
    const db = await sqlite.open()
    const config = { ...db.config, trustProxy: loadConfig({ DATA_DIR: db.config.dataDir, TRUST_PROXY: '127.0.0.1' }).trustProxy }
    const app = await buildTestApp({ database: db.database, config, adminPassword: 'Limit-pass-1', maxConnectionsPerIp: 2 })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      for (let i = 0; i < 4; i++) expect((await healthOver(port)).text).toMatch(/^HTTP\/1\.1 200/)
    } finally {
      sockets.splice(0).forEach((socket) => socket.destroy())
      await app.close()
      await db.cleanup()
    }
  })
})
