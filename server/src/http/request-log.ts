/**
 * A log line per request only where it helps: a call answered with a server error (5xx) or a slow
 * one (≥ SLOW_REQUEST_MS), at warn. Fastify's own two lines per request (~390 bytes of every
 * successful call at LOG_LEVEL=info) are off; ACCESS_LOG=1 turns on one line per call, at info.
 * Failures keep their own `request failed` line with the error (http/errors.ts).
 */
import type { FastifyInstance } from 'fastify'

export const SLOW_REQUEST_MS = 1_000

export interface RequestLogOptions {
  /** One info line per call (ACCESS_LOG=1). */
  accessLog: boolean
  /** Calls taking at least this long are logged at warn. */
  slowMs?: number
}

export function registerRequestLog(app: FastifyInstance, options: RequestLogOptions): void {
  const slowMs = options.slowMs ?? SLOW_REQUEST_MS
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime
    const status = reply.statusCode
    const failed = status >= 500
    const slow = ms >= slowMs
    if (failed || slow || options.accessLog) {
      // Tokens travel in a header, never in the URL; the header is not logged.
      const line = { method: request.method, url: request.url, status, ms: Math.round(ms), ip: request.ip }
      if (failed) request.log.warn(line, 'request answered with a server error')
      else if (slow) request.log.warn(line, 'slow request')
      else request.log.info(line, 'request')
    }
    done()
  })
}
