/** The part of autocannon's API that bench/load.ts uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    method?: 'GET' | 'POST'
    headers?: Record<string, string>
    body?: string
    /** Request templates; `setupRequest` may rewrite each request before it is sent. */
    requests?: { setupRequest?: (request: { body?: string; [key: string]: unknown }) => { body?: string; [key: string]: unknown } }[]
  }
  interface Result {
    requests: { total: number; average: number }
    errors: number
    timeouts: number
    non2xx: number
    duration: number
  }
  /** Emits `response` (client, statusCode, resBytes, responseTimeMs) per answer. */
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): EventEmitter
  export default autocannon
}
