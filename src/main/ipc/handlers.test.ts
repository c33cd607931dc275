/** The IPC handlers as the renderer meets them: payloads validated, contract endpoints only. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { electronMock } from '../test/electron-seam'
import { startServer, type RunningServer } from '../../../server/src/server'

vi.mock('electron', () => electronMock())

const { default: Store } = await import('electron-store')
const { createApiClient } = await import('../api-client')
const { createSettingsStore } = await import('../settings-store')
const { createIpcHandlers } = await import('./handlers')
const { deviceKeyPattern } = await import('@shared/endpoints')

const password = 'Handlers-test-pass-1'
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ port: 0, adminPassword: password, scrypt: { N: 1024, r: 8, p: 1 } })
})
afterAll(() => server?.close())

function makeHandlers(name: string) {
  const settings = createSettingsStore({
    backend: new Store({ name }),
    sealer: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    defaultServerAddress: server.apiBase,
  })
  const client = createApiClient({ baseUrl: settings.apiBase, tokens: settings, deviceKeys: settings })
  return { settings, handlers: createIpcHandlers({ client, settings }) }
}

describe('IPC handlers', () => {
  it('log in through api:call and keep the token in main only', async () => {
    const { handlers, settings } = makeHandlers('handlers-login')
    const login = await handlers['api:call']({ endpoint: 'user.login', input: { username: 'admin', password } })
    // What goes back to the renderer says the login worked, and carries no token.
    expect(login).toEqual({ ok: true, data: null })
    expect(settings.getToken()).toBeTruthy()
    expect(await handlers['api:call']({ endpoint: 'user.loginInfo' })).toMatchObject({ ok: true, data: { username: 'admin' } })
    // The settings the renderer can read hold no token.
    expect(JSON.stringify(await handlers['settings:get']())).not.toContain(settings.getToken()!)
  })

  it('log in through api:call and keep the device key in main only', async () => {
    const { handlers, settings } = makeHandlers('handlers-device-key')
    const origin = new URL(server.apiBase).origin
    const login = await handlers['api:call']({ endpoint: 'user.login', input: { username: 'admin', password } })
    expect(login).toEqual({ ok: true, data: null })
    const key = settings.getDeviceKey(origin, 'admin')
    expect(key).toMatch(deviceKeyPattern)
    // Nothing the renderer can ask for carries it: the login's answer, the settings, other calls.
    const answers = [
      login,
      await handlers['settings:get'](),
      await handlers['api:call']({ endpoint: 'user.loginInfo' }),
      await handlers['settings:set']({ navTheme: 'light' }),
      await handlers['api:call']({ endpoint: 'user.login', input: { username: 'admin', password } }),
    ]
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(key)
    // The second login sent it and got a new one in its place, which stays in main too.
    const next = settings.getDeviceKey(origin, 'admin')
    expect(next).toMatch(deviceKeyPattern)
    expect(next).not.toBe(key)
    expect(JSON.stringify(answers.at(-1))).not.toContain(next)
  })

  it.each([
    [null, '请求'],
    [{}, '请输入接口'],
    [{ endpoint: 'user.delete-everything' }, '接口'],
    [{ endpoint: '__proto__' }, '接口'],
    [{ endpoint: 42 }, '接口'],
  ])('refuse the payload %j with 400', async (payload, text) => {
    const { handlers } = makeHandlers('handlers-bad')
    const result = await handlers['api:call'](payload as never)
    expect(result).toMatchObject({ ok: false, code: 400 })
    if (!result.ok) expect(result.msg).toContain(text)
  })

  it('refuse bad input of a contract endpoint without calling the server', async () => {
    const { handlers } = makeHandlers('handlers-input')
    expect(await handlers['api:call']({ endpoint: 'user.login', input: { username: 'x'.repeat(10_000), password: 'p' } })).toMatchObject({
      ok: false,
      code: 400,
      msg: expect.stringMatching(/^用户名：/),
    })
  })

  it('change settings and report bad ones in Chinese', async () => {
    const { handlers } = makeHandlers('handlers-settings')
    expect(await handlers['settings:set']({ navTheme: 'light' })).toMatchObject({ ok: true, data: { navTheme: 'light' } })
    expect(await handlers['settings:get']()).toMatchObject({ navTheme: 'light', serverAddress: server.apiBase })
    expect(await handlers['settings:set']({ serverAddress: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
      code: 400,
      msg: expect.stringContaining('服务器地址'),
    })
  })
})

describe('switching servers', () => {
  it('ends the session on the previous server, not only locally', async () => {
    const { handlers, settings } = makeHandlers('handlers-switch')
    await handlers['api:call']({ endpoint: 'user.login', input: { username: 'admin', password } })
    const oldToken = settings.getToken()!
    expect(await handlers['settings:set']({ serverAddress: 'http://127.0.0.1:9' })).toMatchObject({ ok: true })
    expect(settings.getToken()).toBeNull()
    // The old server refuses the old token once the revocation has landed.
    const probe = createApiClient({
      baseUrl: () => server.apiBase,
      tokens: { getToken: () => oldToken, setToken: () => {}, clearToken: () => {} },
    })
    await expect.poll(async () => (await probe.call('user.loginInfo')).ok).toBe(false)
  })

  it('keeps the session when the address is refused', async () => {
    const { handlers, settings } = makeHandlers('handlers-switch-bad')
    await handlers['api:call']({ endpoint: 'user.login', input: { username: 'admin', password } })
    const token = settings.getToken()
    expect((await handlers['settings:set']({ serverAddress: 'ftp://x' })).ok).toBe(false)
    expect(settings.getToken()).toBe(token)
    expect((await handlers['api:call']({ endpoint: 'user.loginInfo' })).ok).toBe(true)
  })
})

describe('the update feed (a compromised page must not choose what gets installed)', () => {
  let clock = Date.UTC(2026, 10, 26)
  function withConfirm(name: string, confirmUpdateUrl?: (url: string) => Promise<boolean>) {
    const settings = createSettingsStore({
      backend: new Store({ name }),
      sealer: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
      defaultServerAddress: server.apiBase,
    })
    const client = createApiClient({ baseUrl: settings.apiBase, tokens: settings })
    return { settings, handlers: createIpcHandlers({ client, settings, confirmUpdateUrl, now: () => clock }) }
  }

  it('a new feed from the renderer is refused unless the user confirms it in a dialog of main', async () => {
    const asked: string[] = []
    let answer = false
    const { handlers, settings } = withConfirm('handlers-feed', async (url) => {
      asked.push(url)
      return answer
    })
    const refused = await handlers['settings:set']({ updateUrl: ' https://evil.example/feed/ ', navTheme: 'light' })
    expect(refused).toMatchObject({ ok: false, code: 403, msg: expect.stringContaining('更新地址') })
    expect(asked).toEqual(['https://evil.example/feed/'])
    // Nothing of a refused patch is applied.
    expect(settings.getSettings()).toMatchObject({ updateUrl: '', navTheme: 'realDark' })

    // Asking again at once opens no dialog: the page cannot nag until the user gives in.
    answer = true
    expect(await handlers['settings:set']({ updateUrl: 'https://dl.example/app/' })).toMatchObject({ ok: false, code: 429 })
    expect(asked).toHaveLength(1)

    clock += 60_000
    expect(await handlers['settings:set']({ updateUrl: 'https://dl.example/app/' })).toMatchObject({
      ok: true,
      data: { updateUrl: 'https://dl.example/app/' },
    })
    expect(asked).toEqual(['https://evil.example/feed/', 'https://dl.example/app/'])

    // Saving the same feed again, or turning update checks off, asks nothing.
    answer = false
    expect(await handlers['settings:set']({ updateUrl: 'https://dl.example/app/', navTheme: 'light' })).toMatchObject({ ok: true })
    expect(await handlers['settings:set']({ updateUrl: '' })).toMatchObject({ ok: true, data: { updateUrl: '' } })
    expect(asked).toHaveLength(2)
  })

  it('the dialog shows the feed as the URL parser writes it: no line breaks or invisible characters of the page reach it', async () => {
    const asked: string[] = []
    const { handlers, settings } = withConfirm('handlers-feed-text', async (url) => asked.push(url) > 0)
    for (const updateUrl of [
      'https://evil.example/x\n\n这是管理员提供的官方更新地址（已验证）\n\nhttps://updates.official.example/',
      'https://evil.example/\u202egpj.exe',
      'https://evil.example/a b',
    ]) {
      expect(await handlers['settings:set']({ updateUrl })).toMatchObject({ ok: false, code: 400 })
    }
    expect(asked).toEqual([])
    expect(await handlers['settings:set']({ updateUrl: 'https://DL.Example:443/app/%E6%9B%B4%E6%96%B0/' })).toMatchObject({ ok: true })
    expect(asked).toEqual(['https://dl.example/app/%E6%9B%B4%E6%96%B0/'])
    expect(settings.getUpdateUrl()).toBe('https://dl.example/app/%E6%9B%B4%E6%96%B0/')
  })

  it('without a way to ask the user, a new feed is never taken', async () => {
    const { handlers, settings } = withConfirm('handlers-feed-none')
    expect(await handlers['settings:set']({ updateUrl: 'https://evil.example/feed/' })).toMatchObject({ ok: false, code: 403 })
    expect(settings.getUpdateUrl()).toBe('')
  })

  it('one confirmation at a time: a page asking again while the dialog is open is refused at once', async () => {
    let release: (value: boolean) => void = () => {}
    const confirm = vi.fn(() => new Promise<boolean>((resolve) => (release = resolve)))
    const { handlers, settings } = withConfirm('handlers-feed-busy', confirm)
    const first = handlers['settings:set']({ updateUrl: 'https://one.example/feed/' })
    const second = await handlers['settings:set']({ updateUrl: 'https://two.example/feed/' })
    expect(second).toMatchObject({ ok: false, code: 409 })
    expect(confirm).toHaveBeenCalledTimes(1)
    release(true)
    expect(await first).toMatchObject({ ok: true, data: { updateUrl: 'https://one.example/feed/' } })
    expect(settings.getUpdateUrl()).toBe('https://one.example/feed/')
  })
})
