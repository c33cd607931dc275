/**
 * Requests an outside attacker sent: every answer is the envelope with
 * a Chinese message, nothing reaches a 500, and a HEAD never runs a state-changing GET.
 */
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '@shared/messages'
import { buildTestApp, openTestDatabases, useTestApp, type TestBackend } from '../test/harness'
import { registerRoutes } from '../routes'
import { requestErrorMessages } from './errors'

const ADMIN_PASSWORD = 'Admin-pass-1'
const chinese = /[\u4e00-\u9fff]/

describe.each(openTestDatabases())('hostile requests on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('HEAD of a state-changing GET changes nothing (HEAD /config/add-admin)', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const created = await t.call<{ id: number }>('POST', '/user/create', {
      token: admin,
      body: { username: 'headtarget', password: 'Head-target-1' },
    })
    const id = created.body.data.id
    const res = await t.app.inject({ method: 'HEAD', url: `/api/v1/config/add-admin?userId=${id}`, headers: { 'access-token': admin } })
    expect(res.statusCode).toBe(404)
    const row = await t.db.database.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.role).toBe('normal')
  })

  it('a NUL character in a login, a filter or a body is a 400 with a Chinese message, never a 500', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const login = await t.call('POST', '/user/login', { body: { username: 'ad\u0000min', password: 'x\u0000' } })
    expect(login.status).toBe(400)
    expect(login.body).toEqual({ code: 400, msg: '用户名：不能包含空字符', data: null })
    const filter = await t.call('POST', '/torrent/page', { token: admin, body: { page: 1, pageSize: 10, name: 'a\u0000b' } })
    expect(filter.status).toBe(400)
    expect(filter.body.msg).toBe('名称：不能包含空字符')
    const query = await t.app.inject({ method: 'GET', url: '/api/v1/site/users?keyword=%00x', headers: { 'access-token': admin } })
    expect(query.statusCode).toBe(400)
    expect(query.json().msg).toBe('关键字：不能包含空字符')
    const remark = await t.call('POST', '/user/create', {
      token: admin,
      body: { username: 'nul-remark', password: 'Nul-remark-1', remark: 'x\u0000' },
    })
    expect(remark.status).toBe(400)
    expect(remark.body.msg).toBe('备注：不能包含空字符')
  })

  it('a NUL character in the User-Agent of a login does not fail it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { 'user-agent': 'probe\u0000agent' },
    })
    expect(res.statusCode).toBe(200)
  })

  it('bad URL encoding and over-long ids answer the envelope in Chinese', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const badUrl = await t.app.inject({ method: 'GET', url: '/api/v1/user/%E0%A4%A', headers: { 'access-token': admin } })
    expect(badUrl.statusCode).toBe(400)
    expect(badUrl.json()).toEqual({ code: 400, msg: requestErrorMessages.badUrl, data: null })
    const longId = await t.app.inject({ method: 'GET', url: `/api/v1/user/${'1'.repeat(500)}`, headers: { 'access-token': admin } })
    expect(longId.statusCode).toBe(400)
    expect(longId.json()).toEqual({ code: 400, msg: requestErrorMessages.paramTooLong, data: null })
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/%ZZ' })
    expect(unknown.json().msg).toMatch(chinese)
  })
})

describe('requests the HTTP parser refuses', () => {
  const [sqlite] = openTestDatabases()
  let app: FastifyInstance
  let close: () => Promise<void>
  let port: number

  beforeAll(async () => {
    const db = await sqlite.open()
    app = await buildTestApp({ database: db.database, config: db.config, adminPassword: ADMIN_PASSWORD, requestTimeoutMs: 400 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as AddressInfo).port
    close = async () => {
      await app.close()
      await db.cleanup()
    }
  })
  afterAll(async () => close?.())

  /** Writes `chunks` (the last one is left hanging when `hang`), and resolves with everything the server sent back. */
  function raw(chunks: string[]): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1')
      let text = ''
      socket.on('data', (data) => (text += data.toString('utf8')))
      socket.on('error', () => {})
      socket.on('close', () => {
        const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
        if (!match) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`))
        const body = text.slice(text.indexOf('\r\n\r\n') + 4)
        resolve({ status: Number(match[1]), body: JSON.parse(body) })
      })
      for (const chunk of chunks) socket.write(chunk)
    })
  }

  it('malformed HTTP: the envelope, in Chinese', async () => {
    const res = await raw(['NOT HTTP AT ALL\r\n\r\n'])
    expect(res).toEqual({ status: 400, body: { code: 400, msg: requestErrorMessages.malformed, data: null } })
  })

  it('HTTP/1.1 without Host: the envelope, in Chinese (HTTP/1.0 needs none)', async () => {
    const res = await raw(['GET /api/v1/health HTTP/1.1\r\n\r\n'])
    expect(res).toEqual({ status: 400, body: { code: 400, msg: requestErrorMessages.missingHost, data: null } })
    const old = await raw(['GET /api/v1/health HTTP/1.0\r\n\r\n'])
    expect(old.status).toBe(200)
  })

  it('huge headers: the envelope, in Chinese', async () => {
    const res = await raw([`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`])
    expect(res).toEqual({ status: 431, body: { code: 431, msg: requestErrorMessages.headersTooLarge, data: null } })
  })

  it('headers that never finish: the envelope, in Chinese, once the time-out passes', async () => {
    const res = await raw(['GET /api/v1/health HTTP/1.1\r\nHost: x\r\n'])
    expect(res).toEqual({ status: 408, body: { code: 408, msg: requestErrorMessages.timeout, data: null } })
  })

  it('an ordinary request still works on the same server', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
    expect(res.status).toBe(200)
    expect(messages.serverError).toMatch(chinese)
  })
})

describe('a request reaching a stopping server', () => {
  it('gets 503 in the envelope, in Chinese', async () => {
    const [sqlite] = openTestDatabases()
    const db = await sqlite.open()
    let entered!: () => void
    const slowEntered = new Promise<void>((resolve) => (entered = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let stopping!: () => void
    const closingStarted = new Promise<void>((resolve) => (stopping = resolve))
    const app = await buildTestApp({
      database: db.database,
      config: db.config,
      adminPassword: ADMIN_PASSWORD,
      routes: (instance) => {
        registerRoutes(instance)
        // Runs after the app's own preClose hook: the server counts as stopping from here on.
        instance.addHook('preClose', async () => stopping())
        instance.get('/slow', async () => {
          entered()
          await released
          return { code: 200, msg: 'ok', data: null }
        })
      },
    })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      // One connection keeps a request running (the server waits for it while it stops); another has
      // begun its request and finishes it once the server is stopping.
      const busy = connect(port, '127.0.0.1')
      busy.on('error', () => {})
      const busyAnswered = new Promise<void>((resolve) => busy.once('data', () => resolve()))
      busy.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
      await slowEntered
      const late = connect(port, '127.0.0.1')
      let text = ''
      late.on('data', (data) => (text += data.toString('utf8')))
      late.on('error', () => {})
      const ended = new Promise<void>((resolve) => late.on('close', () => resolve()))
      await new Promise<void>((resolve) => late.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n', () => resolve()))
      const closed = app.close()
      await closingStarted
      late.write('\r\n')
      await ended
      release()
      // The client of the running request hangs up once answered (else the server waits for its keep-alive).
      await busyAnswered
      busy.destroy()
      await closed
      expect(text).toMatch(/^HTTP\/1\.1 503/)
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ code: 503, msg: requestErrorMessages.closing, data: null })
    } finally {
      release()
      await app.close()
      await db.cleanup()
    }
  })
})

/** A listening app on `backend`, the admin's token, and `exchange`: writes raw bytes (ended when `end`), resolves with all the server sent once it closed. */
async function withListeningApp(
  backend: TestBackend,
  run: (token: string, exchange: (bytes: string, end: boolean) => Promise<string>) => Promise<void>,
): Promise<void> {
  const db = await backend.open()
  const app = await buildTestApp({ database: db.database, config: db.config, adminPassword: ADMIN_PASSWORD })
  try {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const token = (
      await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'admin', password: ADMIN_PASSWORD } })
    ).json().data as string
    const exchange = (bytes: string, end: boolean) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1')
        let text = ''
        socket.on('data', (data) => (text += data.toString('utf8')))
        socket.on('error', () => {})
        socket.on('close', () => resolve(text))
        if (end) socket.end(bytes)
        else socket.write(bytes)
      })
    await run(token, exchange)
    while (app.services.sync.busy) await new Promise((resolve) => setTimeout(resolve, 10))
  } finally {
    await app.close()
    await db.cleanup()
  }
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown
const syncRun = (token: string) =>
  `POST /api/v1/sync/run HTTP/1.1\r\nHost: x\r\nAccess-Token: ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`

describe.each(openTestDatabases())('a client that half-closes after sending its request, on $name', (backend) => {
  it('still gets the answer (立即同步: the request ran, so its answer must arrive)', async () => {
    await withListeningApp(backend, async (token, exchange) => {
      // The request, then FIN at once (socket.end), as some HTTP clients and scripts do. Node's default
      // ends the connection on that FIN, and an answer that waits on the database (PostgreSQL) was lost.
      const text = await exchange(syncRun(token), true)
      expect(text).toMatch(/^HTTP\/1\.1 200/)
      expect(bodyOf(text)).toMatchObject({ code: 200, msg: 'ok', data: { running: true } })
    })
  })
})

describe.each(openTestDatabases())('a request followed by bytes that are not a request, on $name', (backend) => {
  it('gets its own answer first, then the 400 envelope for the bytes (立即同步 ran: its answer must arrive)', async () => {
    await withListeningApp(backend, async (token, exchange) => {
      // A body longer than its Content-Length: the rest is parsed as a second request, and refused.
      // The first answer waits on the database; the refusal used to be written over it and the connection closed.
      const text = await exchange(`${syncRun(token)}garbage that is not HTTP\r\n\r\n`, false)
      const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/)
      expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400'])
      expect(bodyOf(answers[0]!)).toMatchObject({ code: 200, data: { running: true } })
      expect(bodyOf(answers[1]!)).toEqual({ code: 400, msg: requestErrorMessages.malformed, data: null })
    })
  })
})
