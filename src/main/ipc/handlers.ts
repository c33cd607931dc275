/**
 * The IPC handlers of main, one per channel of the contract. Payloads are validated here: the
 * renderer is treated as untrusted input, and can only reach endpoints named in the contract.
 */
import { apiCallRequestSchema, ipcChannels, parseWith, type EndpointName, type IpcHandlers } from '@shared/index'
import type { ApiClient } from '../api-client'
import type { SettingsStore } from '../settings-store'

export function createIpcHandlers(deps: { client: ApiClient; settings: SettingsStore }): IpcHandlers {
  return {
    [ipcChannels.apiCall]: async (request) => {
      const parsed = parseWith(apiCallRequestSchema, request)
      if (!parsed.ok) return { ok: false, code: 400, msg: parsed.msg }
      return deps.client.call(parsed.data.endpoint as EndpointName, parsed.data.input)
    },
    [ipcChannels.settingsGet]: async () => deps.settings.getSettings(),
    [ipcChannels.settingsSet]: async (patch) => {
      const before = deps.settings.getSettings().serverAddress
      const token = deps.settings.getToken()
      const result = deps.settings.setSettings(patch)
      // A new server means a new login: end the old session there too, not only locally.
      if (result.ok && token && result.data.serverAddress !== before) void deps.client.revoke(before, token)
      return result
    },
  }
}
