/**
 * What the app remembers between runs: the server address, the theme, the window bounds and the
 * access token. The backend is electron-store in the app; the token is sealed with the OS key
 * store (Electron's safeStorage) whenever the OS offers encryption, and kept only in main.
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
import type { TokenKeeper } from './api-client'

/** The subset of electron-store (conf) this module uses. */
export interface KeyValueBackend {
  get(key: string): unknown
  set(key: string, value: unknown): void
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

export interface SettingsStore extends TokenKeeper {
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
    if (serverAddress !== undefined) {
      const normalized = normalizeServerAddress(serverAddress)
      // A token belongs to one server; another server would only refuse it.
      if (normalized !== getSettings().serverAddress) backend.delete('token')
      backend.set('serverAddress', normalized)
    }
    if (navTheme !== undefined) backend.set('navTheme', navTheme)
    if (updateUrl !== undefined) backend.set('updateUrl', updateUrl)
    return { ok: true, data: getSettings() }
  }

  function getToken(): string | null {
    const stored = backend.get('token') as StoredToken | undefined
    if (!stored || typeof stored.value !== 'string') return null
    if (!stored.sealed) return stored.value
    try {
      return sealer.decryptString(Buffer.from(stored.value, 'base64'))
    } catch {
      // Sealed on another machine or by another OS user: the token is lost, log in again.
      backend.delete('token')
      return null
    }
  }

  function setToken(token: string): void {
    const stored: StoredToken = sealer.isEncryptionAvailable()
      ? { sealed: true, value: sealer.encryptString(token).toString('base64') }
      : { sealed: false, value: token }
    backend.set('token', stored)
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
    getWindowBounds,
    setWindowBounds: (bounds) => backend.set('windowBounds', bounds),
    getUpdateUrl,
  }
}

/** Window sizes and positions are whole pixels; anything beyond 100,000 px is no screen's. */
const MAX_PIXELS = 100_000
const isLength = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_PIXELS
const isCoordinate = (value: unknown): value is number => Number.isInteger(value) && Math.abs(value as number) <= MAX_PIXELS
