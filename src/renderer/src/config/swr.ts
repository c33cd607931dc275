import type { SWRConfiguration } from 'swr'

/** Data cache behaviour (product.md §2). */
export const swrConfig: SWRConfiguration = {
  errorRetryInterval: 5000,
  dedupingInterval: 2000,
  focusThrottleInterval: 5000,
}
