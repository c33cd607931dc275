/**
 * 设置 saves its values in one write of the settings file (electron-store's `set(object)`). It wrote them one key at a
 * time, the token's removal first: a write that failed part-way (a full disk, a file held by an antivirus) left part of
 * the dialog's values saved and part not — or the user logged out with the old address kept (my own find, last
 * session's note).
 */
import { describe, expect, it } from 'vitest'
import { createSettingsStore, SETTINGS_NOT_SAVED, type KeyValueBackend, type Sealer } from './settings-store'
import { memoryBackend } from './test/memory-backend'

const plainSealer: Sealer = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' }
const DEFAULT_ADDRESS = 'http://10.0.0.1:8080/api/v1'

/** A disk whose `failAt`-th write from now on is refused (each key set or deleted is a write; several keys at once, one). */
function flakyDisk(failAt: number): KeyValueBackend {
  const inner = memoryBackend()
  let writes = 0
  const write = () => {
    if (++writes === failAt) throw new Error('ENOSPC: no space left on device')
  }
  function set(key: string, value: unknown): void
  function set(values: Record<string, unknown>): void
  function set(key: string | Record<string, unknown>, value?: unknown): void {
    write()
    if (typeof key === 'string') inner.set(key, value)
    else inner.set(key)
  }
  return {
    get: (key) => inner.get(key),
    set,
    delete: (key) => {
      write()
      inner.delete(key)
    },
  }
}

function storeOn(disk: KeyValueBackend) {
  return createSettingsStore({ backend: disk, sealer: plainSealer, defaultServerAddress: DEFAULT_ADDRESS })
}

describe('settings saved in one write', () => {
  it('a save whose second write would fail is whole: it makes one', () => {
    const settings = storeOn(flakyDisk(2))
    expect(settings.setSettings({ navTheme: 'light', updateUrl: '' })).toMatchObject({ ok: true })
    // Before: the theme was written, then the feed's write failed.
    expect(settings.getSettings()).toMatchObject({ navTheme: 'light', updateUrl: '' })
  })

  it('a save whose write fails saves nothing, says so in Chinese and keeps the login', () => {
    const disk = flakyDisk(2)
    const settings = storeOn(disk)
    settings.setToken('token-of-this-server') // write 1
    const before = settings.getSettings()
    expect(settings.setSettings({ serverAddress: 'http://10.0.0.2:8080', navTheme: 'light' })).toEqual({
      ok: false,
      code: 500,
      msg: SETTINGS_NOT_SAVED,
    })
    expect(settings.getSettings()).toEqual(before)
    expect(settings.getToken()).toBe('token-of-this-server')
  })

  it('another server: its values saved in one write, then the old server’s token removed', () => {
    const settings = storeOn(flakyDisk(0))
    settings.setToken('token-of-the-first-server')
    expect(settings.setSettings({ serverAddress: 'http://10.0.0.2:8080', navTheme: 'light' })).toMatchObject({
      ok: true,
      data: { serverAddress: 'http://10.0.0.2:8080/api/v1', navTheme: 'light' },
    })
    expect(settings.getToken()).toBeNull()
  })
})
