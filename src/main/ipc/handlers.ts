/**
 * The IPC handlers of main, one per channel of the contract. Payloads are validated here: the
 * renderer is treated as untrusted input, and can only reach endpoints named in the contract.
 */
import { apiCallRequestSchema, ipcChannels, parseWith, settingsPatchSchema, type EndpointName, type IpcHandlers } from '@shared/index'
import type { ApiClient } from '../api-client'
import type { SettingsStore } from '../settings-store'

export const updateUrlNotConfirmedMessage = '更新地址未更改：需要在弹出的确认框中同意'
export const updateUrlConfirmBusyMessage = '正在等待确认另一个更新地址，请先处理弹出的确认框'
export const updateUrlCoolingMessage = '刚刚拒绝过更改更新地址，请一分钟后再试'
/** After the user refuses a feed, no new dialog for this long: a page must not ask again and again until they give in. */
export const UPDATE_URL_COOLDOWN_MS = 60_000

export interface IpcHandlerDeps {
  client: ApiClient
  settings: SettingsStore
  /**
   * Asks the user, in a dialog of main that the page can neither draw nor click, whether updates may
   * come from `url`; resolves true for yes. Without it a new update feed is never taken.
   */
  confirmUpdateUrl?: (url: string) => Promise<boolean>
  now?: () => number
}

export function createIpcHandlers(deps: IpcHandlerDeps): IpcHandlers {
  /** A confirmation dialog is open: a page cannot stack more of them. */
  let confirming = false
  /** When the user last refused a feed (epoch ms). */
  let refusedAt = -Infinity
  const now = deps.now ?? Date.now

  /**
   * The update feed decides what program gets installed at the next quit (electron-updater checks
   * the installer against the feed's own latest.yml). A page taken over by injected script must not
   * be able to point it at its own server: a new feed needs the user's yes in main. Turning updates
   * off ('') or saving the current feed again needs none.
   */
  async function feedConfirmed(patch: unknown): Promise<{ ok: true } | { ok: false; code: number; msg: string }> {
    const parsed = parseWith(settingsPatchSchema, patch)
    if (!parsed.ok) return { ok: true } // setSettings answers the validation error
    const feed = parsed.data.updateUrl
    if (feed === undefined || feed === '' || feed === deps.settings.getUpdateUrl()) return { ok: true }
    if (confirming) return { ok: false, code: 409, msg: updateUrlConfirmBusyMessage }
    if (now() - refusedAt < UPDATE_URL_COOLDOWN_MS) return { ok: false, code: 429, msg: updateUrlCoolingMessage }
    confirming = true
    try {
      const yes = deps.confirmUpdateUrl ? await deps.confirmUpdateUrl(feed) : false
      if (yes) return { ok: true }
      refusedAt = now()
      return { ok: false, code: 403, msg: updateUrlNotConfirmedMessage }
    } finally {
      confirming = false
    }
  }

  return {
    [ipcChannels.apiCall]: async (request) => {
      const parsed = parseWith(apiCallRequestSchema, request)
      if (!parsed.ok) return { ok: false, code: 400, msg: parsed.msg }
      return deps.client.call(parsed.data.endpoint as EndpointName, parsed.data.input)
    },
    [ipcChannels.settingsGet]: async () => deps.settings.getSettings(),
    [ipcChannels.settingsSet]: async (patch) => {
      const confirmed = await feedConfirmed(patch)
      if (!confirmed.ok) return confirmed
      const before = deps.settings.getSettings().serverAddress
      const token = deps.settings.getToken()
      const result = deps.settings.setSettings(patch)
      // A new server means a new login: end the old session there too, not only locally.
      if (result.ok && token && result.data.serverAddress !== before) void deps.client.revoke(before, token)
      return result
    },
  }
}
