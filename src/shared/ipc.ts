/**
 * IPC between renderer and main: the channel list, the payload schemas main validates, and the
 * handler map type both sides derive their signatures from (so a drift fails to compile).
 */
import { z } from './validation'
import { isEndpointName, type EndpointInput, type EndpointName, type EndpointOutput } from './endpoints'
import { navThemeValues, type NavTheme } from './enums'

/** What every call answers across IPC: never a thrown exception. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; code: number; msg: string }

export { ipcChannels, type IpcChannel } from './ipc-channels'
import { ipcChannels } from './ipc-channels'

export const apiCallRequestSchema = z.object({
  endpoint: z.string().refine(isEndpointName, { message: '不存在的接口' }),
  input: z.unknown().optional(),
})
export type ApiCallRequest = { endpoint: EndpointName; input?: unknown }

/** A plain `http(s)://host[:port][/path]`: no credentials, query or fragment. */
function isPlainHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash
  } catch {
    return false
  }
}

/** `http(s)://host[:port][/path]`; a trailing `/api/v1` is optional (see normalizeServerAddress). */
export const serverAddressSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine(isPlainHttpUrl, { message: '请输入 http:// 或 https:// 开头的地址' })

/**
 * An update feed over https, or over http on this computer only (testing a release): the installer is checked
 * against the feed's own latest.yml, so a feed anyone on the network can answer could hand an unsigned build
 * their own program.
 */
function isSafeFeedUrl(value: string): boolean {
  if (!isPlainHttpUrl(value)) return false
  const { protocol, hostname } = new URL(value)
  return protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(hostname)
}

/**
 * The update feed (electron-updater's generic provider): an https folder, or '' for no update checks. Kept
 * as the URL parser writes it (`href`), and refused with any space or invisible character inside: the URL
 * parser would drop a line break silently, and main shows the feed in a dialog the page must not write in.
 */
export const updateUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => !/[\s\p{C}]/u.test(value), { message: '更新地址不能包含空格、换行或不可见字符' })
  .refine((value) => value === '' || isSafeFeedUrl(value), {
    message: '请输入 https:// 开头的更新地址（http:// 只能用于本机测试），或留空',
  })
  .transform((value) => (value === '' ? '' : new URL(value).href))

export const settingsSchema = z.object({
  serverAddress: serverAddressSchema,
  navTheme: z.enum(navThemeValues),
  updateUrl: updateUrlSchema,
})
export type Settings = { serverAddress: string; navTheme: NavTheme; updateUrl: string }

export const settingsPatchSchema = settingsSchema.partial().strict()
export type SettingsPatch = Partial<Settings>

/** Handlers registered in main, one per channel. */
export interface IpcHandlers {
  [ipcChannels.apiCall]: (request: ApiCallRequest) => Promise<ApiResult<unknown>>
  [ipcChannels.settingsGet]: () => Promise<Settings>
  [ipcChannels.settingsSet]: (patch: SettingsPatch) => Promise<ApiResult<Settings>>
}

/** The one object the preload exposes as `window.api`. */
export interface RendererApi {
  call<N extends EndpointName>(endpoint: N, input?: EndpointInput<N>): Promise<ApiResult<EndpointOutput<N>>>
  getSettings(): Promise<Settings>
  setSettings(patch: SettingsPatch): Promise<ApiResult<Settings>>
}

/**
 * Server addresses are stored as the API base: `http://host:8080` and `http://host:8080/api/v1/`
 * both become `http://host:8080/api/v1`.
 */
export function normalizeServerAddress(address: string): string {
  const url = new URL(address.trim())
  let path = url.pathname.replace(/\/+$/, '')
  if (!path.endsWith('/api/v1')) path += '/api/v1'
  return `${url.origin}${path}`
}
