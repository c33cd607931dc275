/**
 * SWR over the request wrapper: the renderer's one way to read. Keys carry the session epoch
 * (stores/user), so after a logout or a new login every hook asks anew: nothing cached, failed or
 * still in flight from the previous session can answer for the next one.
 */
import { useState } from 'react'
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr'
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
  const [seen, setSeen] = useState({ open, count: open ? 1 : 0 })
  if (seen.open !== open) setSeen({ open, count: open ? seen.count + 1 : seen.count })
  return open ? seen.count : null
}
