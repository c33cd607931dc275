/**
 * The one request wrapper: the renderer reaches the server only through main. Every call goes through `window.api.call`; a
 * failed call becomes an error toast (unless silent), a 401 sends the user to the login page,
 * and the caller gets the data or a thrown `RequestError`.
 */
import type { Paged } from '@shared/entities'
import type { EndpointInput, EndpointName, EndpointOutput } from '@shared/endpoints'
import type { ApiResult } from '@shared/ipc'
import { messages } from '@shared/messages'
import { toastError } from '@renderer/utils/feedback'
import { redirectToLogin } from '@renderer/utils/navigation'
import type { LoginPageState } from '@renderer/pages/login/state'

/** Code used when the bridge itself failed and no answer came back. */
export const NO_ANSWER_CODE = 0
export const UNAUTHORIZED_CODE = 401
/** The data changed under the request (another admin's write): read again before retrying. */
export const CONFLICT_CODE = 409
export const DEFAULT_PAGE_SIZE = 20

export class RequestError extends Error {
  override name = 'RequestError'
  readonly code: number

  constructor(code: number, msg: string) {
    super(msg)
    this.code = code
  }

  /** The server's (or main process's) message, as shown to the user. */
  get msg(): string {
    return this.message
  }
}

export interface RequestOptions {
  /** Do not toast the error; the caller shows it (e.g. inline on a form). */
  silent?: boolean
}

async function callBridge<N extends EndpointName>(endpoint: N, input: EndpointInput<N> | undefined): Promise<ApiResult<EndpointOutput<N>>> {
  try {
    return await window.api.call(endpoint, input)
  } catch {
    // The contract says main answers instead of throwing; guard anyway so the UI never hangs.
    return { ok: false, code: NO_ANSWER_CODE, msg: messages.requestFailed }
  }
}

/**
 * While the server cannot be reached (「无法连接服务器」) or fails on its side (a 5xx: its database down, say), the same
 * message is said once per this long: the lists read a failed page again every 5 s (components/DataTable), and each of
 * those reads would pop the same red toast over whatever the user does. A refusal of what the user sent (4xx) is always
 * said. A call that answers ends the quiet of 「无法连接服务器」 at once (the next outage is told again); a server error
 * stays quiet its 30 s (other calls answering say nothing of the one that fails).
 */
export const UNREACHABLE_QUIET_MS = 30_000
let outageTold: { msg: string; at: number } | null = null

function toastFailure(msg: string, code: number): void {
  if (msg === messages.networkError || code >= 500) {
    const now = Date.now()
    if (outageTold !== null && outageTold.msg === msg && now - outageTold.at < UNREACHABLE_QUIET_MS) return
    outageTold = { msg, at: now }
  }
  toastError(msg)
}

export async function request<N extends EndpointName>(
  endpoint: N,
  input?: EndpointInput<N>,
  options: RequestOptions = {},
): Promise<EndpointOutput<N>> {
  const result = await callBridge(endpoint, input)
  if (result.ok) {
    if (outageTold?.msg === messages.networkError) outageTold = null
    return result.data
  }
  const msg = result.msg || messages.requestFailed
  if (!options.silent) toastFailure(msg, result.code)
  // A login the server ended says why on the login page too (a silent call, e.g. the re-check on focus, toasts nothing).
  if (result.code === UNAUTHORIZED_CODE)
    redirectToLogin(msg !== messages.notLoggedIn ? ({ ended: msg } satisfies LoginPageState) : undefined)
  throw new RequestError(result.code, msg)
}

/** Like `request`, but resolves to `fallback` on failure (e.g. options lists → `[]`). */
export async function requestOr<N extends EndpointName, F>(
  endpoint: N,
  input: EndpointInput<N> | undefined,
  fallback: F,
  options: RequestOptions = {},
): Promise<EndpointOutput<N> | F> {
  try {
    return await request(endpoint, input, options)
  } catch (error) {
    if (error instanceof RequestError) return fallback
    throw error
  }
}

// ---- Paged calls for antd tables ---------------------------------------------------------

export type SortOrder = 'ascend' | 'descend' | null | undefined

/** The shape antd's Table reports a column sort in (`SorterResult`), reduced to what we read. */
export interface TableSorter {
  field?: string | number | bigint | readonly (string | number | bigint)[]
  columnKey?: string | number | bigint
  order?: SortOrder
}

/** A table sort: antd's sorter (one or several columns) or a Pro-style `{ field: order }` map. */
export type TableSort = TableSorter | readonly TableSorter[] | Record<string, SortOrder>

/** Table state plus filters: `current` is the 1-based page; `keyword` is never sent. */
export interface TableParams {
  current?: number
  pageSize?: number
  keyword?: string
  [filter: string]: unknown
}

export interface TableData<T> {
  data: T[]
  total: number
  success: boolean
}

/** Endpoints whose answer is `{ list, total }`. */
export type PagedEndpointName = {
  [K in EndpointName]: EndpointOutput<K> extends Paged<unknown> ? K : never
}[EndpointName]
export type PagedItem<N extends EndpointName> = EndpointOutput<N> extends Paged<infer T> ? T : never

const DIRECTIONS = { ascend: 'ASC', descend: 'DESC' } as const

function isSorter(sort: TableSorter | Record<string, SortOrder>): sort is TableSorter {
  return 'field' in sort || 'columnKey' in sort
}

function sorterField(sorter: TableSorter): string | undefined {
  const field = sorter.field ?? sorter.columnKey
  if (field === undefined || field === null || field === '') return undefined
  return Array.isArray(field) ? field.map(String).join('.') : String(field)
}

/** `"<field> ASC|DESC"` from the first sorted column, or undefined when nothing is sorted. */
export function toOrderBy(sort: TableSort | null | undefined): string | undefined {
  if (!sort) return undefined
  const sorters: TableSorter[] = Array.isArray(sort)
    ? [...(sort as readonly TableSorter[])]
    : isSorter(sort as TableSorter | Record<string, SortOrder>)
      ? [sort as TableSorter]
      : Object.entries(sort as Record<string, SortOrder>).map(([field, order]) => ({ field, order }))
  for (const sorter of sorters) {
    const field = sorterField(sorter)
    const direction = sorter.order ? DIRECTIONS[sorter.order] : undefined
    if (field && direction) return `${field} ${direction}`
  }
  return undefined
}

/**
 * antd table params → the contract's paged payload: `current` → `page`, `keyword` dropped,
 * empty filters dropped (an empty search box means "no filter", not "equals ''").
 */
export function toPagedInput(params: TableParams, sort?: TableSort | null): Record<string, unknown> {
  const { current, pageSize, keyword: _keyword, ...filters } = params
  const input: Record<string, unknown> = { page: current ?? 1, pageSize: pageSize ?? DEFAULT_PAGE_SIZE }
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue
    input[key] = value
  }
  const orderBy = toOrderBy(sort)
  if (orderBy) input.orderBy = orderBy
  return input
}

/** A paged call in the `{ data, total, success }` form antd tables want; never throws. */
export async function pagedRequest<N extends PagedEndpointName>(
  endpoint: N,
  params: TableParams,
  sort?: TableSort | null,
  options: RequestOptions = {},
): Promise<TableData<PagedItem<N>>> {
  try {
    const answer = (await request(endpoint, toPagedInput(params, sort) as EndpointInput<N>, options)) as Paged<PagedItem<N>>
    return { data: answer.list, total: answer.total, success: true }
  } catch (error) {
    if (error instanceof RequestError) return { data: [], total: 0, success: false }
    throw error
  }
}
