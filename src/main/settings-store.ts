/**
 * What the app remembers between runs: the server address, the theme, the window bounds, the
 * access token and the login's device keys (one per server origin and username). The backend is
 * electron-store in the app; the token and the keys are sealed with the OS key store (Electron's
 * safeStorage) whenever the OS offers encryption, and kept only in main.
 */
import {
  defaultNavTheme,
  normalizeServerAddress,
  parseWith,
  settingsPatchSchema,
  settingsSchema,
  updateUrlSchema,
  type ApiResult,
  type NavTheme,
  type Settings,
} from '@shared/index'
import type { DeviceKeyKeeper, TokenKeeper } from './api-client'

/** The subset of electron-store (conf) this module uses. */
export interface KeyValueBackend {
  get(key: string): unknown
  set(key: string, value: unknown): void
  /** Several keys in one write of the file: a failure leaves none of them written. */
  set(values: Record<string, unknown>): void
  delete(key: string): void
}

/** Electron's safeStorage, behind a seam so the module runs under Node. */
export interface Sealer {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(sealed: Buffer): string
}

export interface WindowBounds {
  x?: number
  y?: number
  width: number
  height: number
  maximized?: boolean
}

type StoredToken = { sealed: boolean; value: string }
/** Device keys by `JSON.stringify([origin, username])`. */
type StoredDeviceKeys = Record<string, StoredToken>

export interface SettingsStore extends TokenKeeper, DeviceKeyKeeper {
  getSettings(): Settings
  setSettings(patch: unknown): ApiResult<Settings>
  /** The API base URL calls go to. */
  apiBase(): string
  getWindowBounds(): WindowBounds | null
  setWindowBounds(bounds: WindowBounds): void
  /** Feed of the generic update provider ('' = no updates). */
  getUpdateUrl(): string
}

export interface SettingsStoreOptions {
  backend: KeyValueBackend
  sealer: Sealer
  /** Build-time default of the server address (MAIN_VITE_API_BASE). */
  defaultServerAddress: string
  /** Build-time default of the update feed (MAIN_VITE_UPDATE_URL). */
  defaultUpdateUrl?: string
}

export const DEFAULT_SERVER_ADDRESS = 'http://127.0.0.1:8080/api/v1'

/**
 * Opens the electron-store file behind the settings (`userData/settings.json`). A file that is
 * not JSON (edited by hand, damaged on disk) starts over from the defaults: left to
 * electron-store's default it throws at launch, before any window exists, and the app never starts.
 */
export const SETTINGS_NOT_SAVED = '设置未能保存：无法写入设置文件（磁盘已满或文件被占用？），原来的设置不变'

export function openSettingsBackend<B extends KeyValueBackend>(open: (options: { name: string; clearInvalidConfig: boolean }) => B): B {
  return open({ name: 'settings', clearInvalidConfig: true })
}

export function createSettingsStore({ backend, sealer, defaultServerAddress, defaultUpdateUrl = '' }: SettingsStoreOptions): SettingsStore {
  const fallbackAddress = normalizeServerAddress(defaultServerAddress || DEFAULT_SERVER_ADDRESS)

  function getSettings(): Settings {
    // A hand-edited or older store file must not break the app: fall back per field.
    const address = parseWith(settingsSchema.shape.serverAddress, backend.get('serverAddress'))
    const theme = parseWith(settingsSchema.shape.navTheme, backend.get('navTheme'))
    return {
      serverAddress: address.ok ? normalizeServerAddress(address.data) : fallbackAddress,
      navTheme: theme.ok ? (theme.data as NavTheme) : defaultNavTheme,
      updateUrl: getUpdateUrl(),
    }
  }

  /** The stored feed ('' = the user turned update checks off); none stored or a bad one = the build default. */
  function getUpdateUrl(): string {
    const stored = parseWith(updateUrlSchema, backend.get('updateUrl'))
    return stored.ok ? stored.data : defaultUpdateUrl
  }

  function setSettings(patch: unknown): ApiResult<Settings> {
    const parsed = parseWith(settingsPatchSchema, patch)
    if (!parsed.ok) return { ok: false, code: 400, msg: parsed.msg }
    const { serverAddress, navTheme, updateUrl } = parsed.data
    const changes: Record<string, unknown> = {}
    if (serverAddress !== undefined) changes.serverAddress = normalizeServerAddress(serverAddress)
    if (navTheme !== undefined) changes.navTheme = navTheme
    if (updateUrl !== undefined) changes.updateUrl = updateUrl
    const otherServer = changes.serverAddress !== undefined && changes.serverAddress !== getSettings().serverAddress
    // One write: a failure (a full disk) in the middle of several left part of the dialog's values saved.
    try {
      if (Object.keys(changes).length) backend.set(changes)
    } catch {
      return { ok: false, code: 500, msg: SETTINGS_NOT_SAVED }
    }
    // A token belongs to one server; another server would only refuse it. A removal that fails leaves it harmless:
    // getToken gives it only to the server that issued it.
    if (otherServer)
      try {
        backend.delete('token')
      } catch {
        // kept, bound to the old server
      }
    return { ok: true, data: getSettings() }
  }

  function seal(plain: string): StoredToken {
    return sealer.isEncryptionAvailable()
      ? { sealed: true, value: sealer.encryptString(plain).toString('base64') }
      : { sealed: false, value: plain }
  }

  /** The secret in `stored`; undefined when it cannot be read (sealed on another machine or by another OS user). */
  function unseal(stored: unknown): string | null | undefined {
    if (!stored || typeof stored !== 'object' || typeof (stored as StoredToken).value !== 'string') return null
    const { sealed, value } = stored as StoredToken
    if (!sealed) return value
    try {
      return sealer.decryptString(Buffer.from(value, 'base64'))
    } catch {
      return undefined
    }
  }

  /**
   * The token, only for the server that issued it: the address in use can change without setSettings — a new build's
   * default, a stored address that no longer validates (getSettings falls back) — and the old server's token must not
   * be sent to another. A token stored without its server (before 0.3.7) is dropped: log in once again.
   */
  function getToken(): string | null {
    const stored = backend.get('token') as (StoredToken & { server?: unknown }) | undefined
    const token = stored && stored.server === getSettings().serverAddress ? unseal(stored) : undefined
    if (token !== undefined) return token
    // The token is lost or another server's: log in again.
    backend.delete('token')
    return null
  }

  function setToken(token: string): void {
    backend.set('token', { ...seal(token), server: getSettings().serverAddress })
  }

  function storedDeviceKeys(): StoredDeviceKeys {
    const stored = backend.get('deviceKeys')
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as StoredDeviceKeys) : {}
  }

  function getDeviceKey(origin: string, username: string): string | null {
    const entry = JSON.stringify([origin, username])
    const all = storedDeviceKeys()
    if (!Object.hasOwn(all, entry)) return null
    const key = unseal(all[entry])
    if (key !== undefined) return key
    // Unreadable here: the next login from this device counts as a new one, and gets a new key.
    delete all[entry]
    backend.set('deviceKeys', all)
    return null
  }

  function setDeviceKey(origin: string, username: string, key: string): void {
    backend.set('deviceKeys', { ...storedDeviceKeys(), [JSON.stringify([origin, username])]: seal(key) })
  }

  /**
   * The saved bounds, rebuilt from their known fields: the object is spread into the BrowserWindow options, so an
   * edited or damaged file must not bring other window options along (`opacity: 0`, `kiosk`, `frame: false`).
   */
  function getWindowBounds(): WindowBounds | null {
    const saved = backend.get('windowBounds') as Partial<Record<keyof WindowBounds, unknown>> | undefined
    if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return null
    if (!isLength(saved.width) || !isLength(saved.height)) return null
    const bounds: WindowBounds = { width: saved.width, height: saved.height }
    if (isCoordinate(saved.x) && isCoordinate(saved.y)) Object.assign(bounds, { x: saved.x, y: saved.y })
    if (typeof saved.maximized === 'boolean') bounds.maximized = saved.maximized
    return bounds
  }

  return {
    getSettings,
    setSettings,
    apiBase: () => getSettings().serverAddress,
    getToken,
    setToken,
    clearToken: () => backend.delete('token'),
    getDeviceKey,
    setDeviceKey,
    getWindowBounds,
    setWindowBounds: (bounds) => backend.set('windowBounds', bounds),
    getUpdateUrl,
  }
}

/** Window sizes and positions are whole pixels; anything beyond 100,000 px is no screen's. */
const MAX_PIXELS = 100_000
const isLength = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_PIXELS
const isCoordinate = (value: unknown): value is number => Number.isInteger(value) && Math.abs(value as number) <= MAX_PIXELS
