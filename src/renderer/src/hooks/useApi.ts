/**
 * SWR over the request wrapper. Keys carry the session epoch (stores/user), so after a logout or
 * a new login every hook asks anew: nothing cached, failed or still in flight from the previous
 * session can answer for the next one.
 */
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr'
import type { EndpointInput, EndpointName, EndpointOutput } from '@shared/endpoints'
import { request, type RequestError, type RequestOptions } from '@renderer/services/request'
import { useUserStore } from '@renderer/stores/user'

export type ApiKey = readonly ['api', number, EndpointName, unknown]

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
