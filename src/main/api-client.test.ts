/** The API client against the real server (started in this process) and against hostile ones. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/src/server'
import { createApiClient } from './api-client'
import { memoryTokens } from './test/token-memory'

const password = 'Client-test-pass-1'
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ port: 0, adminPassword: password, scrypt: { N: 1024, r: 8, p: 1 } })
})
afterAll(() => server?.close())

/** A client whose requests are counted, to prove which calls never leave the machine. */
function client(tokens = memoryTokens(), baseUrl = () => server.apiBase, timeoutMs?: number) {
  const sent: string[] = []
  const counting: typeof fetch = (input, init) => {
    sent.push(`${(input as Request).method ?? init?.method} ${(input as Request).url ?? input}`)
    return fetch(input, init)
  }
  return { tokens, sent, api: createApiClient({ baseUrl, tokens, fetch: counting, timeoutMs }) }
}

describe('API client against the real server', () => {
  it('logs in, keeps the token to itself (the caller gets null) and sends it on the next call', async () => {
    const { api, tokens } = client()
    const login = await api.call('user.login', { username: 'admin', password })
    // Only main holds the token: what goes back over IPC to the renderer must not carry it.
    expect(login).toEqual({ ok: true, data: null })
    expect(tokens.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.stringify(login)).not.toContain(tokens.token)
    const info = await api.call('user.loginInfo')
    expect(info).toMatchObject({ ok: true, data: { username: 'admin', role: 'admin', status: 2 } })
  })

  it("returns the server's message for a wrong password and stores nothing", async () => {
    const { api, tokens } = client()
    expect(await api.call('user.login', { username: 'admin', password: 'wrong' })).toEqual({
      ok: false,
      code: 401,
      msg: '用户名或密码错误',
    })
    expect(tokens.token).toBeNull()
  })

  it('answers 请先登录 itself when there is no token, without sending anything', async () => {
    const { api, sent } = client()
    expect(await api.call('user.loginInfo')).toEqual({ ok: false, code: 401, msg: '请先登录' })
    expect(sent).toEqual([])
  })

  it('validates the input before sending', async () => {
    const { api, sent } = client()
    expect(await api.call('user.login', { username: 'admin' })).toEqual({ ok: false, code: 400, msg: '请输入密码' })
    expect(sent).toEqual([])
  })

  it('forgets a token the server no longer accepts', async () => {
    const { api, tokens } = client(memoryTokens('garbage-token'))
    expect(await api.call('user.loginInfo')).toEqual({ ok: false, code: 401, msg: '请先登录' })
    expect(tokens.token).toBeNull()
  })

  it('clears the token on logout, and the server refuses it afterwards', async () => {
    const { api, tokens } = client()
    await api.call('user.login', { username: 'admin', password })
    const old = tokens.token
    expect(await api.call('user.logout')).toEqual({ ok: true, data: null })
    expect(tokens.token).toBeNull()
    const again = client(memoryTokens(old))
    expect((await again.api.call('user.loginInfo')).ok).toBe(false)
  })

  it('sends GET calls with a query string', async () => {
    const { api, sent } = client()
    expect(await api.call('health')).toMatchObject({ ok: true, data: { status: 'ok', db: 'ok' } })
    expect(sent[0]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/health$/)
  })
})

describe('API client against failing servers', () => {
  let hostile: Server
  let hostileBase = ''
  let answer: (res: import('node:http').ServerResponse) => void = () => {}

  beforeAll(async () => {
    hostile = createServer((_req, res) => answer(res))
    await new Promise<void>((ok) => hostile.listen(0, '127.0.0.1', ok))
    hostileBase = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/api/v1`
  })
  afterAll(() => {
    hostile.closeAllConnections()
    hostile.close()
  })

  it('turns a refused connection into a Chinese message', async () => {
    const { api } = client(memoryTokens(), () => 'http://127.0.0.1:9/api/v1')
    expect(await api.call('health')).toEqual({ ok: false, code: 0, msg: '无法连接服务器，请检查服务器地址和网络' })
  })

  it('gives up after the time-out', async () => {
    answer = () => {} // never answers
    const { api } = client(memoryTokens(), () => hostileBase, 200)
    expect(await api.call('health')).toEqual({ ok: false, code: 408, msg: '请求超时，请稍后再试' })
  })

  it('refuses an answer that is not JSON', async () => {
    answer = (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>proxy login</html>')
    const { api } = client(memoryTokens(), () => hostileBase)
    expect(await api.call('health')).toEqual({ ok: false, code: 502, msg: '服务器返回的数据格式不正确' })
  })

  it('refuses data that does not match the contract', async () => {
    answer = (res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 200, msg: 'ok', data: { status: 'down' } }))
    const { api } = client(memoryTokens(), () => hostileBase)
    expect(await api.call('health')).toEqual({ ok: false, code: 502, msg: '服务器返回的数据格式不正确' })
  })

  it('shows 请求出错 for an error without a message', async () => {
    answer = (res) => res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 500, msg: '', data: null }))
    const { api } = client(memoryTokens(), () => hostileBase)
    expect(await api.call('health')).toEqual({ ok: false, code: 500, msg: '请求出错' })
  })

  it('stores a renewed token sent in any answer', async () => {
    answer = (res) =>
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Token': 'renewed-token' }).end(
        JSON.stringify({
          code: 200,
          msg: 'ok',
          data: { id: 1, username: 'a', role: 'admin', status: 2, siteUid: null, lastLoginAt: null },
        }),
      )
    const tokens = memoryTokens('old-token')
    const { api } = client(tokens, () => hostileBase)
    expect((await api.call('user.loginInfo')).ok).toBe(true)
    expect(tokens.token).toBe('renewed-token')
  })

  it('ends the local session on logout even when the server is unreachable', async () => {
    const tokens = memoryTokens('some-token')
    const { api } = client(tokens, () => 'http://127.0.0.1:9/api/v1')
    expect((await api.call('user.logout')).ok).toBe(false)
    expect(tokens.token).toBeNull()
  })
})

describe('downloads', () => {
  it('reads file names from Content-Disposition and keeps them out of folders', async () => {
    const { fileNameOf } = await import('./api-client')
    expect(fileNameOf(`attachment; filename="wages-2026-10.csv"; filename*=UTF-8''%E5%B7%A5%E8%B5%84-2026-10.csv`)).toBe('工资-2026-10.csv')
    expect(fileNameOf('attachment; filename="wages.xlsx"')).toBe('wages.xlsx')
    expect(fileNameOf('attachment; filename="../../etc/cron.d/x"')).toBe('x')
    expect(fileNameOf(`attachment; filename*=UTF-8''..%2F..%2Fevil.sh`)).toBe('evil.sh')
    expect(fileNameOf('attachment; filename=".."')).toBeNull()
    expect(fileNameOf(null)).toBeNull()
  })
})
