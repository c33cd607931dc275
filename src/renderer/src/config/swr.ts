import type { SWRConfiguration } from 'swr'

/** Every read's cache: a failed read retried after 5 s, the same read within 2 s shared, a refocus re-reading at most every 5 s. */
export const swrConfig: SWRConfiguration = {
  errorRetryInterval: 5000,
  dedupingInterval: 2000,
  focusThrottleInterval: 5000,
}
