/**
 * What handlers share for the life of the app: configuration, the database, the clock and the
 * stateful helpers. Reached as `app.services` and, in handlers, through the request context.
 */
import type { ScryptParams } from './auth/password'
import type { LoginLimiter } from './auth/login-limiter'
import type { Authenticated, SessionCache } from './auth/sessions'
import type { Config } from './config'
import type { AppDatabase } from './db/database'
import type { Clock } from './db/time'
import type { StorageTrouble } from './http/storage-trouble'
import type { SyncRunner } from './jobs/sync'
import type { WageEstimates } from './wages/estimates'

export interface AppServices {
  config: Config
  database: AppDatabase
  clock: Clock
  /** Cost of new password hashes (lowered only in tests). */
  scrypt: ScryptParams
  loginLimiter: LoginLimiter
  /** Sessions read in the last seconds (auth/sessions.ts). */
  sessions: SessionCache
  /** Writes that failed on a full disk, for /health. */
  storage: StorageTrouble
  /** The product version (root package.json). */
  version: string
  /** Whether handler answers are checked against the endpoint's output schema. */
  checkOutput: boolean
  /** The sync job (source → derivation → snapshots → statistics). */
  sync: SyncRunner
  /** Wage figures of the statistics (empty until the wage engine exists). */
  wages: WageEstimates
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices
  }
  interface FastifyRequest {
    /** The session behind the `Access-Token` header; set for non-public endpoints before the handler runs. */
    auth: Authenticated | null
  }
}
