/**
 * The one HTTP client of the app. Runs in the main process: it alone knows the
 * server address and the token. Every call answers `{ ok: true, data } | { ok: false, code, msg }`
 * — HTTP errors, network failures, time-outs and malformed answers included; it never throws.
 */
import ky, { TimeoutError } from 'ky'
import {
  endpoints,
  envelopeSchema,
  fillPath,
  formatZodError,
  messages,
  TOKEN_HEADER,
  type ApiResult,
  type EndpointName,
  type EndpointOutput,
} from '@shared/index'

export const REQUEST_TIMEOUT_MS = 180_000

/** Where the client keeps the token; implemented by the settings store. */
export interface TokenKeeper {
  getToken(): string | null
  setToken(token: string): void
  clearToken(): void
}

export interface ApiClientOptions {
  /** The API base, e.g. `http://127.0.0.1:8080/api/v1` (read on every call: the user may change it). */
  baseUrl: () => string
  tokens: TokenKeeper
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

  async function call<N extends EndpointName>(name: N, rawInput?: unknown): Promise<ApiResult<EndpointOutput<N>>> {
    // Logging out ends the local session whatever the server answers: an unreachable server must not keep the user logged in.
    if (name === 'user.logout') {
      const result = await send(name, rawInput)
      options.tokens.clearToken()
      return result
    }
    return send(name, rawInput)
  }

  async function send<N extends EndpointName>(name: N, rawInput?: unknown): Promise<ApiResult<EndpointOutput<N>>> {
    const endpoint = endpoints[name]
    const parsedInput = endpoint.input.safeParse(rawInput)
    if (!parsedInput.success) return fail(400, formatZodError(parsedInput.error))

    const token = options.tokens.getToken()
    // Without a token no authenticated call leaves the machine: the server would only refuse it, so main answers 请先登录 itself.
    if (endpoint.access !== 'public' && !token) return fail(401, messages.notLoggedIn)

    const input = parsedInput.data as Record<string, unknown> | undefined
    const { path, rest } = fillPath(endpoint.path, input)
    const headers: Record<string, string> = {}
    if (token) headers[TOKEN_HEADER] = token

    let response: Response
    try {
      response = await ky(path.replace(/^\//, ''), {
        prefix: options.baseUrl(),
        method: endpoint.method,
        headers,
        timeout,
        retry: 0,
        throwHttpErrors: false,
        fetch: options.fetch,
        ...(endpoint.method === 'GET' ? { searchParams: toSearchParams(rest) } : { json: rest }),
      })
    } catch (error) {
      if (error instanceof TimeoutError) return fail(408, messages.timeout)
      log(`request ${name} failed: ${(error as Error).message}`)
      return fail(0, messages.networkError)
    }

    const renewed = response.headers.get(TOKEN_HEADER)
    if (endpoint.download && response.ok && !isJson(response)) {
      if (renewed) options.tokens.setToken(renewed)
      return saveDownload(response) as Promise<ApiResult<EndpointOutput<N>>>
    }
    let body: unknown
    try {
      body = await response.json()
    } catch {
      return fail(response.ok ? 502 : response.status, response.ok ? messages.badServerAnswer : messages.requestFailed)
    }
    const envelope = envelopeSchema.safeParse(body)
    if (!envelope.success) return fail(response.ok ? 502 : response.status, messages.badServerAnswer)

    const { code, msg, data } = envelope.data
    if (code !== 200) {
      // A dead session must not linger: the next call would only be refused again.
      if (code === 401 && endpoint.access !== 'public') options.tokens.clearToken()
      return fail(code, msg || messages.requestFailed)
    }

    const output = endpoint.output.safeParse(data)
    if (!output.success) {
      log(`answer of ${name} does not match the contract: ${formatZodError(output.error)}`)
      return fail(502, messages.badServerAnswer)
    }

    if (name === 'user.login') {
      // The token stays in main (a compromised page cannot steal it); the caller learns only that it worked.
      options.tokens.setToken(output.data as string)
      return { ok: true, data: null as EndpointOutput<N> }
    }
    if (renewed) options.tokens.setToken(renewed)
    return { ok: true, data: output.data as EndpointOutput<N> }
  }

  async function saveDownload(response: Response): Promise<ApiResult<{ saved: boolean; fileName: string }>> {
    const fileName = fileNameOf(response.headers.get('Content-Disposition')) ?? 'download'
    if (!options.saveFile) return fail(500, '无法保存文件')
    try {
      const bytes = new Uint8Array(await response.arrayBuffer())
      return { ok: true, data: { saved: await options.saveFile(fileName, bytes), fileName } }
    } catch (error) {
      log(`saving ${fileName} failed: ${(error as Error).message}`)
      return fail(500, '保存文件失败')
    }
  }

  async function revoke(baseUrl: string, token: string): Promise<void> {
    const { method, path } = endpoints['user.logout']
    try {
      await ky(path.replace(/^\//, ''), {
        prefix: baseUrl,
        method,
        headers: { [TOKEN_HEADER]: token },
        json: {},
        timeout: 10_000,
        retry: 0,
        throwHttpErrors: false,
        fetch: options.fetch,
      })
    } catch (error) {
      log(`revoking the session on the previous server failed: ${(error as Error).message}`)
    }
  }

  return { call, revoke }
}

function isJson(response: Response): boolean {
  return (response.headers.get('Content-Type') ?? '').includes('application/json')
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
  const base = name?.split(/[\\/]/).pop()?.trim()
  return base && base !== '.' && base !== '..' ? base : null
}

function toSearchParams(input: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue
    params[key] = typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
  return params
}
