/**
 * Settings kept by the main process (theme, server address, update feed). The renderer reads them once at
 * start and writes through `window.api.setSettings`, so the choice survives reloads and restarts.
 */
import { create } from 'zustand'
import { defaultNavTheme, navThemeValues, type NavTheme } from '@shared/enums'
import type { ApiResult, Settings } from '@shared/ipc'
import { messages } from '@shared/messages'
import { toastError } from '@renderer/utils/feedback'

interface SettingsState {
  /** False until the first `getSettings` answered; the app shows a spinner meanwhile. */
  loaded: boolean
  navTheme: NavTheme
  serverAddress: string
  /** The update feed ('' = no update checks). */
  updateUrl: string
  load(): Promise<void>
  /** Switches at once and saves; reverts (with a toast) when saving fails. */
  setNavTheme(navTheme: NavTheme): Promise<void>
  /** Validated and normalised by main; a refusal comes back as `{ ok: false, msg }`. */
  saveServerAddress(serverAddress: string): Promise<ApiResult<Settings>>
  /** Validated by main like the server address. */
  saveUpdateUrl(updateUrl: string): Promise<ApiResult<Settings>>
}

function isNavTheme(value: unknown): value is NavTheme {
  return navThemeValues.includes(value as NavTheme)
}

async function saveSettings(patch: Partial<Settings>): Promise<ApiResult<Settings>> {
  try {
    return await window.api.setSettings(patch)
  } catch {
    return { ok: false, code: 0, msg: messages.requestFailed }
  }
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  loaded: false,
  navTheme: defaultNavTheme,
  serverAddress: '',
  updateUrl: '',

  async load() {
    try {
      const settings = await window.api.getSettings()
      set({
        navTheme: isNavTheme(settings?.navTheme) ? settings.navTheme : defaultNavTheme,
        serverAddress: settings?.serverAddress ?? '',
        updateUrl: typeof settings?.updateUrl === 'string' ? settings.updateUrl : '',
      })
    } catch {
      // Start with the defaults rather than never starting.
    } finally {
      set({ loaded: true })
    }
  },

  async setNavTheme(navTheme) {
    const previous = get().navTheme
    if (previous === navTheme) return
    set({ navTheme })
    const result = await saveSettings({ navTheme })
    if (!result.ok) {
      // Only undo our own change; a later switch may already have replaced it.
      if (get().navTheme === navTheme) set({ navTheme: previous })
      toastError(result.msg || messages.requestFailed)
    }
  },

  async saveServerAddress(serverAddress) {
    const result = await saveSettings({ serverAddress })
    if (result.ok) set({ serverAddress: result.data.serverAddress })
    return result
  },

  async saveUpdateUrl(updateUrl) {
    const result = await saveSettings({ updateUrl })
    if (result.ok) set({ updateUrl: result.data.updateUrl })
    return result
  },
}))
