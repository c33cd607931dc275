import { describe, expect, it, vi } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { electronMock, userDataDir, xorSealer } from './test/electron-seam'

vi.mock('electron', () => electronMock())

const { default: Store } = await import('electron-store')
const { createSettingsStore, openSettingsBackend } = await import('./settings-store')

let counter = 0
function makeStore(sealer = xorSealer(), name = `settings-${counter++}`) {
  const backend = new Store({ name })
  return { backend, store: createSettingsStore({ backend, sealer, defaultServerAddress: 'http://10.0.0.1:8080/api/v1' }) }
}

describe('settings store', () => {
  it('starts from the build default and the dark theme', () => {
    const { store } = makeStore()
    expect(store.getSettings()).toEqual({ serverAddress: 'http://10.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' })
  })

  it('normalises the server address to the API base and keeps the theme', () => {
    const { store } = makeStore()
    expect(store.setSettings({ serverAddress: ' http://pt.example:9000/ ', navTheme: 'light' })).toEqual({
      ok: true,
      data: { serverAddress: 'http://pt.example:9000/api/v1', navTheme: 'light', updateUrl: '' },
    })
    expect(store.apiBase()).toBe('http://pt.example:9000/api/v1')
  })

  it('survives a restart (a new store over the same file)', () => {
    makeStore(xorSealer(), 'restart').store.setSettings({ navTheme: 'light' })
    makeStore(xorSealer(), 'restart').store.setToken('kept')
    const again = makeStore(xorSealer(), 'restart').store
    expect(again.getSettings().navTheme).toBe('light')
    expect(again.getToken()).toBe('kept')
  })

  it.each([
    [{ serverAddress: 'ftp://host' }, '服务器地址'],
    [{ serverAddress: 'not a url' }, '服务器地址'],
    [{ serverAddress: 'http://user:pw@host' }, '服务器地址'],
    [{ navTheme: 'pink' }, '主题'],
    [{ token: 'x' }, ''],
    ['nonsense', ''],
  ])('refuses %j with a Chinese message and changes nothing', (patch, field) => {
    const { store } = makeStore()
    const before = store.getSettings()
    const result = store.setSettings(patch)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.code).toBe(400)
      expect(result.msg).toContain(field)
    }
    expect(store.getSettings()).toEqual(before)
  })

  it('seals the token when the OS offers encryption', () => {
    const { backend, store } = makeStore(xorSealer(true))
    store.setToken('secret-token')
    expect(JSON.stringify(backend.store)).not.toContain('secret-token')
    expect(store.getToken()).toBe('secret-token')
  })

  it('keeps the token plain only when the OS has no encryption', () => {
    const { backend, store } = makeStore(xorSealer(false))
    store.setToken('plain-token')
    expect(backend.get('token')).toEqual({ sealed: false, value: 'plain-token', server: store.getSettings().serverAddress })
    expect(store.getToken()).toBe('plain-token')
  })

  it('drops a token that cannot be unsealed instead of failing', () => {
    const broken = {
      ...xorSealer(true),
      decryptString: () => {
        throw new Error('other user')
      },
    }
    const { store } = makeStore(broken)
    store.setToken('t')
    expect(store.getToken()).toBeNull()
  })

  it('keeps a device key per server origin and username, sealed, across restarts and server changes', () => {
    const { backend, store } = makeStore(xorSealer(true), 'device-keys')
    expect(store.getDeviceKey('http://10.0.0.1:8080', 'admin')).toBeNull()
    store.setDeviceKey('http://10.0.0.1:8080', 'admin', 'key-of-admin-here')
    store.setDeviceKey('http://10.0.0.1:8080', 'bob', 'key-of-bob-here')
    store.setDeviceKey('http://10.0.0.2:8080', 'admin', 'key-of-admin-there')
    expect(JSON.stringify(backend.store)).not.toContain('key-of-')
    store.setDeviceKey('http://10.0.0.1:8080', 'admin', 'new-key-of-admin-here')
    // A new server address ends the token, not the keys: each belongs to its own server.
    store.setSettings({ serverAddress: 'http://10.0.0.2:8080' })
    const again = makeStore(xorSealer(true), 'device-keys').store
    expect(again.getDeviceKey('http://10.0.0.1:8080', 'admin')).toBe('new-key-of-admin-here')
    expect(again.getDeviceKey('http://10.0.0.1:8080', 'bob')).toBe('key-of-bob-here')
    expect(again.getDeviceKey('http://10.0.0.2:8080', 'admin')).toBe('key-of-admin-there')
    expect(again.getDeviceKey('http://10.0.0.2:8080', 'bob')).toBeNull()
    // Not something the settings answer.
    expect(JSON.stringify(again.getSettings())).not.toContain('key-of-')
  })

  it('drops a device key that cannot be unsealed, and ignores a damaged entry', () => {
    const broken = {
      ...xorSealer(true),
      decryptString: () => {
        throw new Error('other user')
      },
    }
    const { backend, store } = makeStore(broken)
    store.setDeviceKey('http://10.0.0.1:8080', 'admin', 'k')
    store.setDeviceKey('http://10.0.0.1:8080', 'bob', 'k')
    expect(store.getDeviceKey('http://10.0.0.1:8080', 'admin')).toBeNull()
    expect(Object.keys(backend.get('deviceKeys') as object)).toEqual([JSON.stringify(['http://10.0.0.1:8080', 'bob'])])
    backend.set('deviceKeys', 'garbage')
    expect(store.getDeviceKey('http://10.0.0.1:8080', 'bob')).toBeNull()
    store.setDeviceKey('http://10.0.0.1:8080', 'bob', 'k2')
    expect(Object.keys(backend.get('deviceKeys') as object)).toHaveLength(1)
  })

  it('forgets the token when the server address changes, not when it stays', () => {
    const { store } = makeStore()
    store.setToken('t1')
    store.setSettings({ serverAddress: 'http://10.0.0.1:8080' })
    expect(store.getToken()).toBe('t1')
    store.setSettings({ serverAddress: 'http://10.0.0.2:8080' })
    expect(store.getToken()).toBeNull()
  })

  it('falls back per field when the file was edited by hand', () => {
    const { backend, store } = makeStore()
    backend.set('serverAddress', 42)
    backend.set('navTheme', 'pink')
    expect(store.getSettings()).toEqual({ serverAddress: 'http://10.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' })
  })

  it('remembers window bounds and ignores broken ones', () => {
    const { backend, store } = makeStore()
    expect(store.getWindowBounds()).toBeNull()
    store.setWindowBounds({ x: 10, y: 20, width: 1200, height: 800, maximized: false })
    expect(store.getWindowBounds()).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: false })
    backend.set('windowBounds', { width: 'wide' })
    expect(store.getWindowBounds()).toBeNull()
  })

  it('hands the window only sane bounds from a damaged or edited file, never other window options', () => {
    const { backend, store } = makeStore()
    // Spread into the BrowserWindow options as they are, these would make the window invisible or unusable.
    backend.set('windowBounds', { x: 10, y: 20, width: 1200, height: 800, opacity: 0, frame: false, kiosk: true, skipTaskbar: true })
    expect(store.getWindowBounds()).toEqual({ x: 10, y: 20, width: 1200, height: 800 })
    backend.set('windowBounds', { x: null, y: 20, width: 1200, height: 800, maximized: 'yes' })
    expect(store.getWindowBounds()).toEqual({ width: 1200, height: 800 })
    for (const broken of [
      { width: -1200, height: 800 },
      { width: 0, height: 800 },
      { width: 1e9, height: 1e9 },
      { width: 1200.5, height: 800 },
      [1200, 800],
      'big',
    ]) {
      backend.set('windowBounds', broken)
      expect(store.getWindowBounds()).toBeNull()
    }
  })
})

describe('update URL', () => {
  it('comes from the store when valid, else from the build default', () => {
    const backend = new Store({ name: 'update-url' })
    const store = createSettingsStore({
      backend,
      sealer: xorSealer(),
      defaultServerAddress: '',
      defaultUpdateUrl: 'https://dl.example/app/',
    })
    expect(store.getUpdateUrl()).toBe('https://dl.example/app/')
    backend.set('updateUrl', 'https://mirror.example/app/')
    expect(store.getUpdateUrl()).toBe('https://mirror.example/app/')
    backend.set('updateUrl', 'javascript:alert(1)')
    expect(store.getUpdateUrl()).toBe('https://dl.example/app/')
  })

  it('is set from 设置: trimmed, refused unless http(s), and empty turns update checks off', () => {
    const backend = new Store({ name: 'update-url-set' })
    const store = createSettingsStore({
      backend,
      sealer: xorSealer(),
      defaultServerAddress: '',
      defaultUpdateUrl: 'https://dl.example/app/',
    })
    expect(store.getSettings().updateUrl).toBe('https://dl.example/app/')
    const saved = store.setSettings({ updateUrl: ' https://mirror.example/app/ ' })
    expect(saved).toMatchObject({ ok: true, data: { updateUrl: 'https://mirror.example/app/' } })
    expect(store.getUpdateUrl()).toBe('https://mirror.example/app/')
    const refused = store.setSettings({ updateUrl: 'file:///etc/passwd' })
    expect(refused).toMatchObject({ ok: false, code: 400 })
    expect(refused.ok ? '' : refused.msg).toContain('更新地址')
    expect(store.getUpdateUrl()).toBe('https://mirror.example/app/')
    // Plain http only on this computer: anyone on the way could answer it with their own installer.
    expect(store.setSettings({ updateUrl: 'http://dl.example/app/' })).toMatchObject({ ok: false, code: 400 })
    expect(store.setSettings({ updateUrl: 'http://127.0.0.1:8000/app/' })).toMatchObject({
      ok: true,
      data: { updateUrl: 'http://127.0.0.1:8000/app/' },
    })
    expect(store.setSettings({ updateUrl: '' })).toMatchObject({ ok: true, data: { updateUrl: '' } })
    expect(store.getUpdateUrl()).toBe('')
  })
})

describe('a corrupted settings.json', () => {
  it('starts over from the defaults instead of stopping the app at launch', () => {
    writeFileSync(join(userDataDir, 'settings.json'), '{"serverAddress": "http://10.0.0.9:80', 'utf8')
    const backend = openSettingsBackend((options) => new Store(options))
    const store = createSettingsStore({ backend, sealer: xorSealer(), defaultServerAddress: 'http://10.0.0.1:8080/api/v1' })
    expect(store.getSettings()).toEqual({ serverAddress: 'http://10.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' })
    expect(store.getToken()).toBeNull()
    store.setToken('fresh')
    expect(openSettingsBackend((options) => new Store(options)).get('token')).toBeTruthy()
  })
})
