/**
 * SWR over the request wrapper: the renderer's one way to read. Keys carry the session epoch
 * (stores/user), so after a logout or a new login every hook asks anew: nothing cached, failed or
 * still in flight from the previous session can answer for the next one.
 */
import { useCallback, useState } from 'react'
import useSWR, { useSWRConfig, type SWRConfiguration, type SWRResponse } from 'swr'
import type { EndpointInput, EndpointName, EndpointOutput } from '@shared/endpoints'
import { request, type RequestError, type RequestOptions } from '@renderer/services/request'
import { useUserStore } from '@renderer/stores/user'

export type ApiKey = readonly ['api', number, EndpointName, unknown]
export type LoadKey = readonly ['load', number, string, unknown]

export type UseApiConfig<N extends EndpointName> = SWRConfiguration<EndpointOutput<N>, RequestError> & RequestOptions

/** `useApi('user.loginInfo')`; pass `null` as the endpoint to wait (conditional fetching). */
export function useApi<N extends EndpointName>(
  endpoint: N | null,
  input?: EndpointInput<N>,
  config: UseApiConfig<N> = {},
): SWRResponse<EndpointOutput<N>, RequestError> {
  const sessionEpoch = useUserStore((state) => state.sessionEpoch)
  const { silent, ...swrConfig } = config
  const key: ApiKey | null = endpoint ? ['api', sessionEpoch, endpoint, input] : null
  return useSWR<EndpointOutput<N>, RequestError, ApiKey | null>(
    key,
    ([, , name, payload]) => request(name as N, payload as EndpointInput<N>, { silent }),
    swrConfig,
  )
}

/**
 * After a write that answers what a read of `endpoint` would (a rules save answers the new rules): every cached read
 * of it shows that answer. A page left and opened again within the 2 s dedupe window would otherwise show its old
 * cache without asking (官种设置 after 数据同步's 采用站点的设置: v7 under the new version's save).
 */
export function useSetReads(): <N extends EndpointName>(endpoint: N, data: EndpointOutput<N>) => void {
  const { mutate } = useSWRConfig()
  return useCallback(
    (endpoint, data) => void mutate((key) => Array.isArray(key) && key[0] === 'api' && key[2] === endpoint, data, { revalidate: false }),
    [mutate],
  )
}

/**
 * A read made of more than one call (a table page with its assignees, a plan with names): the same
 * cache as `useApi`, keyed by `name` and `args` (by value) in the session epoch. `args` null waits.
 */
export function useLoad<A, T>(
  name: string,
  args: A | null,
  load: (args: A) => Promise<T>,
  config: SWRConfiguration<NoInfer<T>, RequestError> = {},
): SWRResponse<T, RequestError> {
  const sessionEpoch = useUserStore((state) => state.sessionEpoch)
  const key: LoadKey | null = args === null ? null : ['load', sessionEpoch, name, args]
  return useSWR<T, RequestError, LoadKey | null>(key, ([, , , payload]) => load(payload as A), config)
}

/** A read made once per key (a dialog's opening, a search): no re-read on focus, reconnect or failure. */
export const READ_ONCE = {
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
} as const satisfies SWRConfiguration

/**
 * Which opening of a dialog this is (null while closed). Put in a `useLoad` key, it makes each
 * opening read afresh instead of showing what the previous opening read.
 */
export function useOpening(open: boolean): number | null {
  const [seen, setSeen] = useState(() => ({ open, count: open ? nextSerial() : 0 }))
  if (seen.open !== open) setSeen({ open, count: open ? nextSerial() : seen.count })
  return open ? seen.count : null
}

/**
 * Openings and asks are numbered over the renderer's whole life, not per mounted component: the cache is global, and a
 * page left and opened again numbered its dialog's first opening 1 again — and showed the previous visit's answer
 * under it (发放到站点's old dry run, with 确认发放 enabled; found by an outside tester).
 */
let serial = 0
const nextSerial = () => ++serial

/** An ask is its args and its number: asking the same args again is another key. */
type Ask<A> = { args: A; count: number }

export interface AskedLoad<A, T> {
  /** The args of the latest ask; null until the first. */
  asked: A | null
  /** Reads afresh for `args`, even the same args again. */
  ask(args: A): void
  data: T | undefined
  error: RequestError | undefined
  /** The latest ask is being read. */
  loading: boolean
}

/**
 * A read the user asks for with a button (a preview: it computes, can take seconds, and must show
 * the data of the moment it was asked): nothing is read until `ask(args)`, and each ask is its own
 * `useLoad` key, so asking again reads again while re-renders, focus and reconnects never do. The
 * args are kept as asked: a dialog's preview does not follow a selection that changes behind it.
 */
export function useAskedLoad<A, T>(
  name: string,
  load: (args: A) => Promise<T>,
  config: SWRConfiguration<NoInfer<T>, RequestError> = {},
): AskedLoad<A, T> {
  const [asked, setAsked] = useState<Ask<A> | null>(null)
  const { data, error, isValidating } = useLoad<Ask<A>, T>(name, asked, (current) => load(current.args), { ...READ_ONCE, ...config })
  const ask = useCallback((args: A) => setAsked({ args, count: nextSerial() }), [])
  return { asked: asked?.args ?? null, ask, data, error, loading: isValidating }
}
