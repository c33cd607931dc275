/**
 * The one HTTP client of the app. Runs in the main process: it alone knows the
 * server address, the token and the login's device keys. Every call answers `{ ok: true, data } | { ok: false, code, msg }`
 * — HTTP errors, network failures, time-outs and malformed answers included; it never throws.
 */
import ky, { TimeoutError } from 'ky'
import {
  DEVICE_KEY_HEADER,
  deviceKeyPattern,
  endpoints,
  envelopeSchema,
  fillPath,
  formatZodError,
  messages,
  TOKEN_HEADER,
  type ApiResult,
  type EndpointName,
  type EndpointOutput,
  type LoginInput,
} from '@shared/index'
import { saveFailureMessage } from './downloads'
import { logLine } from './logging'

export const REQUEST_TIMEOUT_MS = 180_000
/** 退出登录 waits this long for the server at most: the local session has already ended. */
export const LOGOUT_TIMEOUT_MS = 10_000
/** Largest envelope main reads: a page of the contract is far smaller; a hostile server must not fill main's memory. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024
/** Largest file a download endpoint may deliver (wage exports are a few MB). */
export const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024

/** Longest server message passed on: it ends up in a toast (a hostile server could send megabytes). */
export const MAX_MESSAGE_CHARS = 500

export const DOWNLOAD_BUSY_MESSAGE = '正在导出另一个文件，请等它保存完成再试'
const tooLargeMessage = '服务器返回的数据过大'
const redirectMessage = '服务器要求跳转到其他地址，已拒绝。请在设置中填写服务器的实际地址'
const serverChangedMessage = '服务器地址已更改，请重新操作'

/**
 * A token main will keep and send back as a header: visible ASCII only. Anything else (a line
 * break, non-Latin text) cannot be sent as a header: fetch would refuse it on every later call, with
 * the token quoted in its error message.
 */
const usableToken = /^[\x21-\x7e]{1,4096}$/

class BodyTooLargeError extends Error {}
class BodyTimeoutError extends Error {}

/** Where the client keeps the token; implemented by the settings store. */
export interface TokenKeeper {
  getToken(): string | null
  setToken(token: string): void
  clearToken(): void
}

/**
 * Where the client keeps the login's device keys (the `Device-Key` header, see DEVICE_KEY_HEADER), one
 * per server origin and username (lower case, as the server compares them); implemented by the settings store.
 */
export interface DeviceKeyKeeper {
  getDeviceKey(origin: string, username: string): string | null
  setDeviceKey(origin: string, username: string, key: string): void
}

export interface ApiClientOptions {
  /** The API base, e.g. `http://127.0.0.1:8080/api/v1` (read on every call: the user may change it). */
  baseUrl: () => string
  tokens: TokenKeeper
  /**
   * The device keys: the login sends the one of its server and username, and keeps the new one the
   * server answers. A key lets the owner log in while guessers keep the account locked elsewhere.
   */
  deviceKeys?: DeviceKeyKeeper
  timeoutMs?: number
  /** For tests: the fetch implementation ky uses. */
  fetch?: typeof fetch
  /** Where failures that are not the server's answer get logged (never with the token). */
  log?: (message: string) => void
  /** Saves a downloaded file (a save dialog in the app); resolves false when the user cancels. */
  saveFile?: (suggestedName: string, bytes: Uint8Array) => Promise<boolean>
}

export type ApiClient = {
  call<N extends EndpointName>(name: N, input?: unknown): Promise<ApiResult<EndpointOutput<N>>>
  /**
   * Ends `token`'s session on the server at `baseUrl` (best effort, 10 s), without touching the
   * token store: used when the user switches servers, so the old session does not live on.
   */
  revoke(baseUrl: string, token: string): Promise<void>
}

function fail(code: number, msg: string): { ok: false; code: number; msg: string } {
  return { ok: false, code, msg }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeout = options.timeoutMs ?? REQUEST_TIMEOUT_MS
  const log = options.log ?? (() => {})

  /** A download under way (its bytes, up to MAX_DOWNLOAD_BYTES, and its save dialog): one at a time. */
  let downloading = false

  async function call<N extends EndpointName>(name: N, rawInput?: unknown): Promise<ApiResult<EndpointOutput<N>>> {
    // A second export while one is under way (a double click, a renderer calling in a loop) would hold another file
    // in memory and open a second save dialog over the first.
    if (endpoints[name].download) {
      if (downloading) return fail(409, DOWNLOAD_BUSY_MESSAGE)
      downloading = true
      try {
        return await send(name, rawInput, storedToken(), timeout)
      } finally {
        downloading = false
      }
    }
    // Logging out ends the local session first, whatever the server answers and however long it takes: the user
    // may close the app right after 退出登录, and an unreachable server must not keep them logged in.
    if (name === 'user.logout') {
      // A payload the contract refuses ends nothing (send answers 400 before any request): clearing the token first
      // would leave the session alive on the server with nothing here to end it.
      if (!endpoints[name].input.safeParse(rawInput).success) return send(name, rawInput, null, timeout)
      const token = storedToken()
      if (token) options.tokens.clearToken()
      return send(name, rawInput, token, Math.min(timeout, LOGOUT_TIMEOUT_MS))
    }
    return send(name, rawInput, storedToken(), timeout)
  }

  /**
   * The stored token, when it can be sent. One that cannot (a store file of an older version, edited or damaged)
   * would make fetch refuse every call, the login included, quoting the token in the error that gets logged.
   */
  function storedToken(): string | null {
    const token = options.tokens.getToken()
    if (token === null || usableToken.test(token)) return token
    options.tokens.clearToken()
    log('dropped the stored token: not a valid header value')
    return null
  }

  async function send<N extends EndpointName>(
    name: N,
    rawInput: unknown,
    token: string | null,
    timeout: number,
  ): Promise<ApiResult<EndpointOutput<N>>> {
    const endpoint = endpoints[name]
    const parsedInput = endpoint.input.safeParse(rawInput)
    if (!parsedInput.success) return fail(400, formatZodError(parsedInput.error))

    // Without a token no authenticated call leaves the machine: the server would only refuse it, so main answers 请先登录 itself.
    if (endpoint.access !== 'public' && !token) return fail(401, messages.notLoggedIn)

    const input = parsedInput.data as Record<string, unknown> | undefined
    const { path, rest } = fillPath(endpoint.path, input)
    const headers: Record<string, string> = {}
    if (token) headers[TOKEN_HEADER] = token

    // The whole call, body included, has `timeout` ms: ky's own time-out ends when the headers arrive.
    const deadline = Date.now() + timeout
    const base = options.baseUrl()
    // The login's device key: only to the server and for the account it was issued for.
    const account = name === 'user.login' ? deviceAccount(base, (input as LoginInput).username) : null
    if (account) {
      const key = options.deviceKeys?.getDeviceKey(account.origin, account.username)
      if (key && deviceKeyPattern.test(key)) headers[DEVICE_KEY_HEADER] = key
    }
    let response: Response
    try {
      response = await ky(path.replace(/^\//, ''), {
        prefix: base,
        method: endpoint.method,
        headers,
        timeout,
        retry: 0,
        throwHttpErrors: false,
        fetch: options.fetch,
        // fetch would follow a redirect to any host with the Access-Token header (and a 307 with the login's password).
        redirect: 'manual',
        ...(endpoint.method === 'GET' ? { searchParams: toSearchParams(rest) } : { json: rest }),
      })
    } catch (error) {
      if (error instanceof TimeoutError) return fail(408, messages.timeout)
      log(`request ${name} failed: ${(error as Error).message}`)
      return fail(0, messages.networkError)
    }
    if (isRedirect(response)) {
      void response.body?.cancel().catch(() => {})
      log(`request ${name} refused: the server answered ${response.status} (redirect)`)
      return fail(502, redirectMessage)
    }

    // The user switched servers while this call was under way: its token (or its 401) belongs to the previous one.
    const sameServer = () => options.baseUrl() === base
    // The session this call was sent in is still the current one: no logout, new login or server switch since.
    // A late answer of an ended session must neither revive it (renewed token) nor end the next one (401).
    const sameSession = () => token !== null && sameServer() && options.tokens.getToken() === token
    const renewed = response.headers.get(TOKEN_HEADER)
    const keepRenewed = () => {
      if (!renewed || !sameSession()) return
      if (usableToken.test(renewed)) options.tokens.setToken(renewed)
      else log(`ignored a renewed token of ${name}: not a valid header value`)
    }

    const download = endpoint.download && response.ok && isFile(response)
    let bytes: Uint8Array
    try {
      bytes = await readBody(response, download ? MAX_DOWNLOAD_BYTES : MAX_ANSWER_BYTES, deadline)
    } catch (error) {
      if (error instanceof BodyTimeoutError) return fail(408, messages.timeout)
      if (error instanceof BodyTooLargeError) {
        log(`answer of ${name} refused: larger than the limit`)
        return fail(502, tooLargeMessage)
      }
      log(`reading the answer of ${name} failed: ${(error as Error).message}`)
      return fail(0, messages.networkError)
    }

    if (download) {
      keepRenewed()
      return saveDownload(response, bytes, input?.format) as Promise<ApiResult<EndpointOutput<N>>>
    }
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      return fail(response.ok ? 502 : response.status, response.ok ? messages.badServerAnswer : messages.requestFailed)
    }
    const envelope = envelopeSchema.safeParse(body)
    if (!envelope.success) return fail(response.ok ? 502 : response.status, messages.badServerAnswer)

    const { code, msg, data } = envelope.data
    if (code !== 200) {
      // A dead session must not linger: the next call would only be refused again.
      if (code === 401 && endpoint.access !== 'public' && sameSession()) options.tokens.clearToken()
      // A message of spaces says nothing: the user gets ours rather than a blank toast.
      return fail(code, shorten(msg.trim()) || messages.requestFailed)
    }
    // A success is a 2xx answer with code 200: a 500 carrying a success envelope (a proxy, a server that failed
    // half-way) confirmed nothing.
    if (!response.ok) {
      log(`answer of ${name} refused: a success envelope with HTTP status ${response.status}`)
      return fail(502, messages.badServerAnswer)
    }
    // A file's success is the file, saved through the dialog here: an envelope saying "saved" saved nothing.
    if (endpoint.download) {
      log(`answer of ${name} refused: a success envelope instead of the file`)
      return fail(502, messages.badServerAnswer)
    }

    // Checked before the schema walks every row: a "page" of 200,000 rows costs main seconds and freezes the table.
    if (overPageSize(input, data)) {
      log(`answer of ${name} refused: more rows than the page size asked for`)
      return fail(502, messages.badServerAnswer)
    }
    const output = endpoint.output.safeParse(data)
    if (!output.success) {
      // The field's path may hold the server's own keys (a record's): escaped and bounded (logging.ts logLine).
      log(`answer of ${name} does not match the contract: ${logLine(formatZodError(output.error))}`)
      return fail(502, messages.badServerAnswer)
    }

    if (name === 'user.login') {
      const issued = output.data as string
      if (!usableToken.test(issued)) {
        log('answer of user.login refused: the token is not a valid header value')
        return fail(502, messages.badServerAnswer)
      }
      // Kept even when the user switched servers meanwhile: it belongs to the server it came from (the
      // key the login sent is replaced there). Anything but the shape the server issues is not kept.
      const deviceKey = response.headers.get(DEVICE_KEY_HEADER)
      if (deviceKey !== null && account) {
        if (deviceKeyPattern.test(deviceKey)) options.deviceKeys?.setDeviceKey(account.origin, account.username, deviceKey)
        else log('ignored the device key of user.login: not a valid key')
      }
      if (!sameServer()) {
        // Never keep it: the next call would carry it to the new server. End it where it was issued.
        void revoke(base, issued)
        return fail(409, serverChangedMessage)
      }
      // The token stays in main (a compromised page cannot steal it); the caller learns only that it worked.
      options.tokens.setToken(issued)
      return { ok: true, data: null as EndpointOutput<N> }
    }
    keepRenewed()
    return { ok: true, data: output.data as EndpointOutput<N> }
  }

  async function saveDownload(
    response: Response,
    bytes: Uint8Array,
    format: unknown,
  ): Promise<ApiResult<{ saved: boolean; fileName: string }>> {
    const fileName = downloadName(fileNameOf(response.headers.get('Content-Disposition')), format)
    if (!options.saveFile) return fail(500, '无法保存文件')
    try {
      return { ok: true, data: { saved: await options.saveFile(fileName, bytes), fileName } }
    } catch (error) {
      log(`saving ${fileName} failed: ${(error as Error).message}`)
      return fail(500, saveFailureMessage(error))
    }
  }

  async function revoke(baseUrl: string, token: string): Promise<void> {
    const { method, path } = endpoints['user.logout']
    // As storedToken: one that cannot travel as a header makes fetch refuse it, quoting it in the error that is logged.
    if (!usableToken.test(token)) {
      log('not revoking the session on the previous server: the stored token is not a valid header value')
      return
    }
    try {
      const response = await ky(path.replace(/^\//, ''), {
        prefix: baseUrl,
        method,
        headers: { [TOKEN_HEADER]: token },
        json: {},
        timeout: 10_000,
        retry: 0,
        throwHttpErrors: false,
        fetch: options.fetch,
        redirect: 'manual',
      })
      void response.body?.cancel().catch(() => {})
    } catch (error) {
      log(`revoking the session on the previous server failed: ${(error as Error).message}`)
    }
  }

  return { call, revoke }
}

/** Whose device key a login to `base` as `username` uses: the server's origin and the username as the server compares it. */
function deviceAccount(base: string, username: string): { origin: string; username: string } | null {
  try {
    return { origin: new URL(base).origin, username: username.trim().toLowerCase() }
  } catch {
    return null // not a URL: the call fails anyway
  }
}

/** A 3xx answer (`redirect: 'manual'` hands it over as it is; a browser-style fetch makes it opaque). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)
}

/** The body, refused when it exceeds `maxBytes` or is still arriving at `deadline` (epoch ms). */
async function readBody(response: Response, maxBytes: number, deadline: number): Promise<Uint8Array> {
  if (Number(response.headers.get('Content-Length')) > maxBytes) {
    void response.body?.cancel().catch(() => {})
    throw new BodyTooLargeError()
  }
  if (!response.body) return new Uint8Array(0)
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeoutError()), Math.max(0, deadline - Date.now()))
  })
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timedOut])
      if (done) break
      size += value.byteLength
      if (size > maxBytes) throw new BodyTooLargeError()
      chunks.push(value)
    }
  } catch (error) {
    void reader.cancel().catch(() => {})
    throw error
  } finally {
    clearTimeout(timer)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** A server message cut to MAX_MESSAGE_CHARS (never inside a surrogate pair). */
function shorten(msg: string): string {
  if (msg.length <= MAX_MESSAGE_CHARS) return msg
  return `${msg.slice(0, MAX_MESSAGE_CHARS - 1).replace(/[\ud800-\udbff]$/, '')}…`
}

/** A paged answer (`{ list }`) with more rows than the request's `pageSize`. */
function overPageSize(input: Record<string, unknown> | undefined, data: unknown): boolean {
  const pageSize = input?.pageSize
  const list = data !== null && typeof data === 'object' ? (data as { list?: unknown }).list : undefined
  return typeof pageSize === 'number' && Array.isArray(list) && list.length > pageSize
}

/**
 * A download's answer is the file, not an envelope and not a web page: a captive portal's or a proxy's login page
 * answered 200 would be saved as the spreadsheet and reported saved (it is read as an envelope instead: refused).
 */
function isFile(response: Response): boolean {
  const type = (response.headers.get('Content-Type') ?? '').toLowerCase()
  return !type.includes('application/json') && !type.includes('text/html') && !type.includes('application/xhtml')
}

/** The file name of a Content-Disposition header (RFC 6266: `filename*=UTF-8''…` wins), no folders. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
  let name: string | null = null
  if (star) {
    try {
      name = decodeURIComponent(star[1]!.trim())
    } catch {
      name = null
    }
  }
  name ??= /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim() ?? null
  // Never let the server pick a folder: keep the last path segment only.
  const base = name
    ?.split(/[\\/]/)
    .pop()
    // Control characters (line breaks forge log lines, NUL breaks the dialog) and bidi overrides (`\u202Etxt.exe`) go;
    // characters Windows refuses in a file name (`:` would name an alternate data stream) become `_`.
    ?.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    .slice(0, 200)
  return base && base !== '.' && base !== '..' ? base : null
}

/**
 * The name offered in the save dialog: the server's, made to end in the format the user asked for
 * (`.xlsx`, `.csv`) and never a hidden dot-file. A hostile server (or anyone on a plain-http network
 * path) must not get `setup.exe`, `工资.xlsx.lnk` or `.bashrc` saved in the downloads folder.
 */
export function downloadName(name: string | null, format: unknown): string {
  const base = (name ?? '').replace(/^[.\s]+/, '') || 'download'
  if (typeof format !== 'string' || !/^[a-z0-9]{1,10}$/.test(format)) return notADevice(base)
  const extension = `.${format}`
  return notADevice(base.toLowerCase().endsWith(extension) ? base : `${base}${extension}`)
}

/**
 * Windows names a device, not a file, by `CON`, `NUL`, `AUX`, `PRN`, `COM1`–`COM9`, `LPT1`–`LPT9`, `CONIN$`, `CONOUT$`
 * — whatever the extension (`CON.xlsx`): such a name is saved as `_CON.xlsx`.
 */
function notADevice(name: string): string {
  const stem = name.split('.')[0]!.trim()
  return /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i.test(stem) ? `_${name}` : name
}

function toSearchParams(input: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue
    params[key] = typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
  return params
}
