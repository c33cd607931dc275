/** The API client against the real server (started in this process) and against hostile ones. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/src/server'
import { DEVICE_KEY_HEADER, deviceKeyPattern } from '@shared/endpoints'
import { createApiClient, DOWNLOAD_BUSY_MESSAGE, MAX_ANSWER_BYTES } from './api-client'
import { memoryDeviceKeys, memoryTokens } from './test/token-memory'

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

  it('shows 请求出错 for an error whose message is only spaces (found by an outside tester: a blank toast)', async () => {
    answer = (res) =>
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 500, msg: ' \n\u3000', data: null }))
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

/** A throw-away HTTP server on a port of its own (another port is another origin). */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ base: string; close: () => void }> {
  const http = createServer(handler)
  await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok))
  return {
    base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => {
      http.closeAllConnections()
      http.close()
    },
  }
}

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body))
const healthy = { code: 200, msg: 'ok', data: { status: 'ok', db: 'ok', version: '1.0.0' } }

describe('API client against hostile servers', () => {
  it('never follows a redirect: neither the token nor the password reaches another host', async () => {
    const seen: string[] = []
    const evil = await listen((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        seen.push(`${req.headers['access-token'] ?? ''} ${body}`)
        json(res, { code: 200, msg: 'ok', data: 'evil-token' })
      })
    })
    const redirecting = await listen((req, res) => res.writeHead(307, { Location: `${evil.base}${req.url}` }).end())
    try {
      const tokens = memoryTokens('secret-token')
      const api = createApiClient({ baseUrl: () => `${redirecting.base}/api/v1`, tokens })
      const stats = await api.call('statistics.all')
      expect(stats).toMatchObject({ ok: false, code: 502 })
      if (!stats.ok) expect(stats.msg).toContain('跳转')
      expect(tokens.token).toBe('secret-token')
      const loggedOut = memoryTokens()
      const login = await createApiClient({ baseUrl: () => `${redirecting.base}/api/v1`, tokens: loggedOut }).call('user.login', {
        username: 'admin',
        password: 'the-password',
      })
      expect(login).toMatchObject({ ok: false, code: 502 })
      expect(loggedOut.token).toBeNull()
      expect(seen).toEqual([])
    } finally {
      evil.close()
      redirecting.close()
    }
  })

  it('gives up on an answer whose body never ends, within the time-out', { timeout: 5000 }, async () => {
    const stalling = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"code":200,') // …and nothing more
    })
    try {
      const api = createApiClient({ baseUrl: () => `${stalling.base}/api/v1`, tokens: memoryTokens(), timeoutMs: 300 })
      const answer = await Promise.race([api.call('health'), new Promise((ok) => setTimeout(() => ok('still waiting'), 2500))])
      expect(answer).toEqual({ ok: false, code: 408, msg: '请求超时，请稍后再试' })
    } finally {
      stalling.close()
    }
  })

  it('refuses an answer larger than the limit instead of filling memory', async () => {
    const padding = ' '.repeat(MAX_ANSWER_BYTES + 1024)
    const huge = await listen((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`${JSON.stringify(healthy).slice(0, -1)}${padding}}`),
    )
    try {
      const api = createApiClient({ baseUrl: () => `${huge.base}/api/v1`, tokens: memoryTokens() })
      expect(await api.call('health')).toEqual({ ok: false, code: 502, msg: '服务器返回的数据过大' })
    } finally {
      huge.close()
    }
  })

  it('refuses a login token that cannot travel as a header, and never logs it', async () => {
    const odd = await listen((_req, res) => json(res, { code: 200, msg: 'ok', data: 'issued-secret\nsecond-line' }))
    try {
      const logs: string[] = []
      const tokens = memoryTokens()
      const api = createApiClient({ baseUrl: () => `${odd.base}/api/v1`, tokens, log: (m) => logs.push(m) })
      expect(await api.call('user.login', { username: 'admin', password: 'pw' })).toEqual({
        ok: false,
        code: 502,
        msg: '服务器返回的数据格式不正确',
      })
      expect(tokens.token).toBeNull()
      await api.call('user.loginInfo')
      expect(logs.join('\n')).not.toContain('issued-secret')
    } finally {
      odd.close()
    }
  })

  it('never keeps a token of the previous server when the address changes mid-call, nor lets its 401 end the new session', async () => {
    const oldServerSaw: string[] = []
    let oldAnswer: (res: ServerResponse) => void = () => {}
    const previous = await listen((req, res) => {
      oldServerSaw.push(`${req.url} ${req.headers['access-token'] ?? ''}`)
      if (req.url?.endsWith('/user/logout')) return json(res, { code: 200, msg: 'ok', data: null })
      setTimeout(() => oldAnswer(res), 200)
    })
    const nextServerSaw: string[] = []
    const next = await listen((req, res) => {
      nextServerSaw.push(`${req.headers['access-token'] ?? ''}`)
      json(res, { code: 401, msg: '请先登录', data: null })
    })
    try {
      let base = `${previous.base}/api/v1`
      const tokens = memoryTokens()
      const api = createApiClient({ baseUrl: () => base, tokens })

      oldAnswer = (res) => json(res, { code: 200, msg: 'ok', data: 'token-of-previous' })
      const login = api.call('user.login', { username: 'admin', password: 'pw' })
      await new Promise((ok) => setTimeout(ok, 50))
      base = `${next.base}/api/v1` // 设置 → 服务器地址, while the login is under way
      expect(await login).toMatchObject({ ok: false, code: 409 })
      expect(tokens.token).toBeNull()
      expect(await api.call('user.loginInfo')).toEqual({ ok: false, code: 401, msg: '请先登录' })
      expect(nextServerSaw).toEqual([])
      // The token it issued is ended where it was issued.
      await expect.poll(() => oldServerSaw).toContain('/api/v1/user/logout token-of-previous')

      // A 401 of the previous server arriving late must not end the session on the new one.
      base = `${previous.base}/api/v1`
      tokens.token = 'token-for-previous'
      oldAnswer = (res) => json(res, { code: 401, msg: '请先登录', data: null })
      const late = api.call('user.loginInfo')
      await new Promise((ok) => setTimeout(ok, 50))
      base = `${next.base}/api/v1`
      tokens.token = 'token-of-next'
      await late
      expect(tokens.token).toBe('token-of-next')
    } finally {
      previous.close()
      next.close()
    }
  })
})

describe('download file names', () => {
  it('drop control and bidi characters and what Windows refuses', async () => {
    const { fileNameOf } = await import('./api-client')
    expect(fileNameOf(`attachment; filename*=UTF-8''wages%0Aforged%20line%00.csv`)).toBe('wagesforged line.csv')
    expect(fileNameOf(`attachment; filename*=UTF-8''%E2%80%AEvsc.exe`)).toBe('vsc.exe')
    expect(fileNameOf(`attachment; filename*=UTF-8''wages.csv%3Astream`)).toBe('wages.csv_stream')
    expect(fileNameOf(`attachment; filename*=UTF-8''..%00`)).toBeNull()
  })
})

describe('downloads from the server', () => {
  it('hand the bytes and a clean file name to the save dialog, and refuse a redirect of the download', async () => {
    const csv = 'period,amount\n2026-10,12\n'.repeat(1000)
    const files = await listen((req, res) =>
      req.url?.includes('format=csv')
        ? res
            .writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename*=UTF-8''wages%0A-2026-10.csv` })
            .end(csv)
        : res.writeHead(302, { Location: 'http://127.0.0.1:9/x' }).end(),
    )
    try {
      const saved: { name: string; text: string }[] = []
      const api = createApiClient({
        baseUrl: () => `${files.base}/api/v1`,
        tokens: memoryTokens('t'),
        saveFile: async (name, bytes) => saved.push({ name, text: new TextDecoder().decode(bytes) }) > 0,
      })
      expect(await api.call('wages.export', { period: '2026-10', format: 'csv' })).toEqual({
        ok: true,
        data: { saved: true, fileName: 'wages-2026-10.csv' },
      })
      expect(saved).toEqual([{ name: 'wages-2026-10.csv', text: csv }])
      expect(await api.call('wages.export', { period: '2026-10', format: 'xlsx' })).toMatchObject({ ok: false, code: 502 })
      expect(saved).toHaveLength(1)
    } finally {
      files.close()
    }
  })
})

describe('two downloads at once', () => {
  it('the second is refused while the first waits in its save dialog; afterwards exporting works again', async () => {
    let requests = 0
    const files = await listen((_req, res) => {
      requests++
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="wages.csv"' }).end('a,b\n')
    })
    // The save dialog stays open until the test closes it.
    const dialogs: (() => void)[] = []
    const api = createApiClient({
      baseUrl: () => `${files.base}/api/v1`,
      tokens: memoryTokens('t'),
      saveFile: () => new Promise<boolean>((resolve) => dialogs.push(() => resolve(true))),
    })
    const dialogOpened = (n: number) =>
      new Promise<void>((resolve) => {
        const wait = () => (dialogs.length >= n ? resolve() : setImmediate(wait))
        wait()
      })
    const exportCsv = () => api.call('wages.export', { period: '2026-10', format: 'csv' })
    try {
      const first = exportCsv()
      await dialogOpened(1)
      expect(await exportCsv()).toEqual({ ok: false, code: 409, msg: DOWNLOAD_BUSY_MESSAGE })
      expect(requests).toBe(1)
      dialogs[0]!()
      expect(await first).toEqual({ ok: true, data: { saved: true, fileName: 'wages.csv' } })
      const again = exportCsv()
      await dialogOpened(2)
      dialogs[1]!()
      expect(await again).toMatchObject({ ok: true })
      expect(requests).toBe(2)
    } finally {
      files.close()
    }
  })
})

describe('a download that cannot be saved', () => {
  it('tells the user why (disk full) instead of a bare 保存文件失败', async () => {
    const files = await listen((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="wages.csv"' }).end('a,b\n'),
    )
    try {
      const api = createApiClient({
        baseUrl: () => `${files.base}/api/v1`,
        tokens: memoryTokens('t'),
        saveFile: async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
        },
      })
      expect(await api.call('wages.export', { period: '2026-10', format: 'csv' })).toEqual({
        ok: false,
        code: 500,
        msg: '磁盘空间不足，文件未保存',
      })
    } finally {
      files.close()
    }
  })
})

describe('answers that keep to the contract but would swamp the page', () => {
  it('shortens an error message of megabytes to what a toast can show', async () => {
    const chatty = await listen((_req, res) =>
      res
        .writeHead(500, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ code: 500, msg: `出错了${'x'.repeat(5_000_000)}`, data: null })),
    )
    try {
      const answer = await createApiClient({ baseUrl: () => `${chatty.base}/api/v1`, tokens: memoryTokens() }).call('health')
      expect(answer).toMatchObject({ ok: false, code: 500 })
      if (!answer.ok) {
        expect(answer.msg.startsWith('出错了')).toBe(true)
        expect(answer.msg.length).toBeLessThanOrEqual(500)
      }
    } finally {
      chatty.close()
    }
  })

  it('refuses a page holding more rows than were asked for', async () => {
    const entry = (rank: number) => ({
      rank,
      userId: rank,
      username: `u${rank}`,
      period: '2026-10',
      amount: 1,
      torrentCount: 1,
      totalSize: 1,
    })
    let rows = 20
    const flooding = await listen((_req, res) =>
      json(res, { code: 200, msg: 'ok', data: { list: Array.from({ length: rows }, (_, i) => entry(i + 1)), total: rows } }),
    )
    try {
      const api = createApiClient({ baseUrl: () => `${flooding.base}/api/v1`, tokens: memoryTokens('t') })
      expect(await api.call('wages.rank', { page: 1, pageSize: 20 })).toMatchObject({ ok: true, data: { total: 20 } })
      rows = 20_000 // one "page" the table would try to draw at once
      expect(await api.call('wages.rank', { page: 1, pageSize: 20 })).toEqual({ ok: false, code: 502, msg: '服务器返回的数据格式不正确' })
    } finally {
      flooding.close()
    }
  })
})

describe('a stored token that cannot travel as a header', () => {
  it('is dropped instead of failing every call, the login included, with the token in the log', async () => {
    const logs: string[] = []
    const tokens = memoryTokens('stored-secret\nfrom-an-old-file')
    const api = createApiClient({ baseUrl: () => server.apiBase, tokens, log: (m) => logs.push(m) })
    expect(await api.call('user.loginInfo')).toEqual({ ok: false, code: 401, msg: '请先登录' })
    expect(tokens.token).toBeNull()
    tokens.token = 'stored-secret\u00e9' // not Latin-1 safe either
    expect(await api.call('user.login', { username: 'admin', password })).toEqual({ ok: true, data: null })
    expect(tokens.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(logs.join('\n')).not.toContain('stored-secret')
  })
})

const info = { id: 1, username: 'a', role: 'admin', status: 2, siteUid: null, lastLoginAt: null }

describe('sessions that end while calls are under way', () => {
  it('ends the local session at once on logout, without waiting for a slow or dead server', { timeout: 5000 }, async () => {
    const seen: string[] = []
    const silent = await listen((req) => seen.push(`${req.url} ${req.headers['access-token'] ?? ''}`)) // never answers
    try {
      const tokens = memoryTokens('admin-token')
      const api = createApiClient({ baseUrl: () => `${silent.base}/api/v1`, tokens })
      const logout = api.call('user.logout')
      // The user may close the app right after 退出登录: the token must already be gone from the store.
      await expect.poll(() => seen, { timeout: 1000 }).toEqual(['/api/v1/user/logout admin-token'])
      expect(tokens.token).toBeNull()
      silent.close()
      expect((await logout).ok).toBe(false)
      expect(tokens.token).toBeNull()
    } finally {
      silent.close()
    }
  })

  it('never lets a late answer of an ended session revive it, nor end the session that followed', { timeout: 5000 }, async () => {
    let slow: (res: ServerResponse) => void = () => {}
    const api500 = await listen((req, res) => {
      if (req.url?.endsWith('/user/logout')) return json(res, { code: 200, msg: 'ok', data: null })
      setTimeout(() => slow(res), 200)
    })
    try {
      const tokens = memoryTokens('old-session')
      const api = createApiClient({ baseUrl: () => `${api500.base}/api/v1`, tokens })

      // 退出登录 while a slow call is under way; its answer carries a renewed token.
      slow = (res) => json(res, { code: 200, msg: 'ok', data: info }, { 'Access-Token': 'renewed-old-session' })
      const late = api.call('user.loginInfo')
      await new Promise((ok) => setTimeout(ok, 50))
      expect(await api.call('user.logout')).toEqual({ ok: true, data: null })
      await late
      expect(tokens.token).toBeNull()

      // Another user logs in while a call of the previous session is under way; it ends in 401.
      tokens.token = 'old-session'
      slow = (res) => json(res, { code: 401, msg: '请先登录', data: null })
      const late401 = api.call('user.loginInfo')
      await new Promise((ok) => setTimeout(ok, 50))
      tokens.token = 'next-user-session'
      expect(await late401).toMatchObject({ ok: false, code: 401 })
      expect(tokens.token).toBe('next-user-session')

      // A renewed token never starts a session where there was none.
      tokens.token = null
      slow = (res) => json(res, { code: 200, msg: 'ok', data: { status: 'ok', db: 'ok', version: '1' } }, { 'Access-Token': 'gift' })
      expect((await api.call('health')).ok).toBe(true)
      expect(tokens.token).toBeNull()
    } finally {
      api500.close()
    }
  })
})

describe('a hostile server naming the export', () => {
  it('cannot make the user save a program or a hidden dot-file: the name always ends in the format asked for', async () => {
    const names = ['setup.exe', '工资-2026-10.xlsx.lnk', '.bashrc', 'evil.desktop', 'wages-2026-10.XLSX', 'wages-2026-10.xlsx']
    let next = 0
    const files = await listen((_req, res) =>
      res
        .writeHead(200, {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(names[next++]!)}`,
        })
        .end('PK'),
    )
    try {
      const saved: string[] = []
      const api = createApiClient({
        baseUrl: () => `${files.base}/api/v1`,
        tokens: memoryTokens('t'),
        saveFile: async (name) => saved.push(name) > 0,
      })
      for (let i = 0; i < names.length; i++) {
        expect(await api.call('wages.export', { period: '2026-10', format: 'xlsx' })).toMatchObject({ ok: true })
      }
      expect(saved).toEqual([
        'setup.exe.xlsx',
        '工资-2026-10.xlsx.lnk.xlsx',
        'bashrc.xlsx',
        'evil.desktop.xlsx',
        'wages-2026-10.XLSX',
        'wages-2026-10.xlsx',
      ])
    } finally {
      files.close()
    }
  })
})

describe('device keys', () => {
  it('sends the key of its server and username at login, and keeps the one the server issues in its place', async () => {
    const origin = new URL(server.apiBase).origin
    // A key of another server (another port is another origin) stays there.
    const keys = memoryDeviceKeys({ [`http://127.0.0.1:9 admin`]: 'K'.repeat(43) })
    const sent: (string | null)[] = []
    const watching: typeof fetch = (input, init) => {
      sent.push(input instanceof Request ? input.headers.get(DEVICE_KEY_HEADER) : new Headers(init?.headers).get(DEVICE_KEY_HEADER))
      return fetch(input, init)
    }
    const tokens = memoryTokens()
    const api = createApiClient({ baseUrl: () => server.apiBase, tokens, deviceKeys: keys, fetch: watching })

    const first = await api.call('user.login', { username: 'admin', password })
    expect(first).toEqual({ ok: true, data: null })
    expect(sent).toEqual([null])
    const issued = keys.getDeviceKey(origin, 'admin')
    expect(issued).toMatch(deviceKeyPattern)
    expect(JSON.stringify(first)).not.toContain(issued)

    // The same account typed otherwise: its key goes along, and the server's new one takes its place.
    expect(await api.call('user.login', { username: ' ADMIN ', password })).toEqual({ ok: true, data: null })
    expect(sent[1]).toBe(issued)
    const replaced = keys.getDeviceKey(origin, 'admin')
    expect(replaced).toMatch(deviceKeyPattern)
    expect(replaced).not.toBe(issued)
    expect([...keys.keys.keys()].sort()).toEqual([`${origin} admin`, 'http://127.0.0.1:9 admin'])

    // Never with another username's login, nor with any other call.
    await api.call('user.login', { username: 'someone-else', password: 'wrong-password' })
    await api.call('user.loginInfo')
    expect(sent.slice(2)).toEqual([null, null])
  })

  it('keeps only a key of the shape the server issues (never logging it), and sends no damaged stored one', async () => {
    const good = 'G'.repeat(43)
    let offered = ''
    const seen: string[] = []
    const issuing = await listen((req, res) => {
      seen.push(String(req.headers['device-key'] ?? ''))
      json(res, { code: 200, msg: 'ok', data: 'issued-token' }, { [DEVICE_KEY_HEADER]: offered })
    })
    try {
      const logs: string[] = []
      const keys = memoryDeviceKeys()
      const api = createApiClient({
        baseUrl: () => `${issuing.base}/api/v1`,
        tokens: memoryTokens(),
        deviceKeys: keys,
        log: (m) => logs.push(m),
      })
      const login = () => api.call('user.login', { username: 'admin', password: 'pw' })
      offered = good
      expect(await login()).toEqual({ ok: true, data: null })
      expect(keys.getDeviceKey(issuing.base, 'admin')).toBe(good)
      for (const bad of ['', 'short-key', 'L'.repeat(44), `${'B'.repeat(42)}!`, `${'B'.repeat(42)}=`, 'x'.repeat(4000)]) {
        offered = bad
        // The login itself works (the key is optional); the key it kept stays.
        expect(await login()).toEqual({ ok: true, data: null })
        expect(keys.getDeviceKey(issuing.base, 'admin')).toBe(good)
      }
      expect(logs.filter((line) => line.includes('device key'))).toHaveLength(6)
      expect(logs.join('\n')).not.toContain('short-key')
      expect(seen.slice(1).every((sent) => sent === good)).toBe(true)

      // A store file damaged or edited by hand: what is not a key is not sent (fetch would refuse a line break).
      keys.setDeviceKey(issuing.base, 'admin', 'damaged\nkey')
      offered = good
      expect(await login()).toEqual({ ok: true, data: null })
      expect(seen.at(-1)).toBe('')
      expect(keys.getDeviceKey(issuing.base, 'admin')).toBe(good)
    } finally {
      issuing.close()
    }
  })
})
