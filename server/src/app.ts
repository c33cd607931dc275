/**
 * Builds the Fastify app: plugins, then routes (fastify/demo's order). The database is migrated
 * and the first admin created before the app is returned, so a returned app is ready to serve.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { defaultLoginLimits, LoginLimiter, type LoginLimits } from './auth/login-limiter'
import { defaultScryptParams, dummyVerify, type ScryptParams } from './auth/password'
import { pruneSessions, SESSION_PRUNE_INTERVAL_MS, SessionCache } from './auth/sessions'
import type { Config } from './config'
import { openDatabase, type AppDatabase } from './db/database'
import { migrateToLatest } from './db/migrate'
import { systemClock, type Clock } from './db/time'
import { clientErrorHandler, frameworkErrors, refuseWhileClosing, registerErrorHandlers, requireHostHeader } from './http/errors'
import { registerJsonBodyParser } from './http/json-body'
import { limitConnectionsPerIp, MAX_CONNECTIONS_PER_IP } from './http/connection-limit'
import { registerRequestLog } from './http/request-log'
import { logDestination } from './logging/log-file'
import { StorageTrouble } from './http/storage-trouble'
import { registerRoutes } from './routes'
import type { AppServices } from './services'
import { ensureInitialAdmin, initialAdminPasswordLine } from './users/initial-admin'
import { productVersion } from './version'
import { hashPassword, randomPassword } from './auth/password'
import { prepareSeedingState } from './jobs/sync-state'
import { SyncRunner } from './jobs/sync'
import { statsRefreshSettled } from './derive/relabel'
import { bootstrapDemo } from './sources/demo'
import { demoScales } from './sources/demo/scale'
import { createSource } from './sources/create'
import { createWageEstimates, type WageEstimates } from './wages/estimates'

export interface BuildAppOptions {
  config: Config
  /** An open database the caller owns (tests). Without it the app opens `config.database` and closes it on `app.close()`. */
  database?: AppDatabase
  /** false (default) = no log; true = pino at `config.logLevel`; or Fastify logger options. */
  logger?: boolean | Exclude<FastifyServerOptions['logger'], boolean | undefined>
  /** Where the generated first-admin password is shown (default: stdout, outside the structured log). */
  print?: (line: string) => void
  clock?: Clock
  scrypt?: ScryptParams
  loginLimits?: LoginLimits
  /**
   * Check answers against the contract's output schemas (default: only with NODE_ENV test or
   * development — `npm run dev` and vitest; a deployed server does not pay for checking its own answers).
   */
  checkOutput?: boolean
  /** The routes to serve (default: all of `routes/`); tests pass their own. */
  routes?: (app: FastifyInstance) => void
  /** SOURCE=demo: generate the demo community when the mirror is empty (default true; API tests build their own data). */
  seedDemo?: boolean
  /** Run the sync every SYNC_INTERVAL seconds (default true; tests run syncs themselves). */
  scheduleSync?: boolean
  /**
   * SQLite file: run the sync's steps in the sync thread (default true, jobs/sync-offload.ts). false
   * keeps them in this process, for tests and benches that watch the source here (its diagnostics
   * channel, wrapped calls, query tracing).
   */
  syncThread?: boolean
  /** The wage engine's estimates (default: this month so far, src/wages/estimates.ts). */
  wages?: WageEstimates
  /** Time to receive a whole request, headers included (default 30 s; tests lower it). */
  requestTimeoutMs?: number
  /** Calls at least this slow are logged (default SLOW_REQUEST_MS, http/request-log.ts). */
  slowRequestMs?: number
  /** Open connections one client address may hold (default MAX_CONNECTIONS_PER_IP, http/connection-limit.ts). */
  maxConnectionsPerIp?: number
  /** How long a refused connection is kept for its 429 if it sends nothing (default 1 s; tests lengthen it). */
  refusedConnectionHoldMs?: number
}

export const BODY_LIMIT = 1024 * 1024

export function checksOutputByDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'test' || env.NODE_ENV === 'development'
}

/** Never in the log: tokens (both directions), passwords, cookies. */
const redact = {
  paths: [
    'req.headers["access-token"]',
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["access-token"]',
    'headers["access-token"]',
    'password',
    '*.password',
    '*.oldPassword',
    '*.newPassword',
    'token',
  ],
  censor: '[redacted]',
}

/** The log goes to stdout and to DATA_DIR/logs/server.log (logging/log-file.ts) unless the options name a stream. */
function loggerOption(options: BuildAppOptions): FastifyServerOptions['logger'] {
  if (!options.logger) return false
  const stream = logDestination(options.config.dataDir)
  if (options.logger === true) return { level: options.config.logLevel, redact, stream }
  return { redact, stream, ...options.logger }
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options
  const clock = options.clock ?? systemClock
  const scrypt = options.scrypt ?? defaultScryptParams
  const ownsDatabase = !options.database
  const requestTimeout = options.requestTimeoutMs ?? 30_000

  const app = Fastify({
    logger: loggerOption(options),
    bodyLimit: BODY_LIMIT,
    // Only the listed load balancers may name the client (X-Forwarded-For); nobody when TRUST_PROXY is unset.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Time to receive a whole request (slow-client protection); not the handler's time. Node checks
    // it every connectionsCheckingInterval, so that interval bounds how late a slow client is cut.
    requestTimeout,
    // The Host check is ours (http/errors.ts requireHostHeader): Node's answers outside the envelope.
    http: { connectionsCheckingInterval: Math.min(30_000, Math.max(50, requestTimeout / 4)), requireHostHeader: false },
    // Idle socket time-out, above the client's 180 s request time-out so long calls are not cut.
    connectionTimeout: 190_000,
    keepAliveTimeout: 65_000,
    // Requests that arrive while the server stops get the envelope from refuseWhileClosing instead.
    return503OnClosing: false,
    // No automatic HEAD twin of GET routes: some GET calls change state (config.addAdmin).
    exposeHeadRoutes: false,
    frameworkErrors,
    clientErrorHandler,
    // Not two lines per request: http/request-log.ts logs the failed and slow ones (all with ACCESS_LOG=1).
    logController: new LogController({ disableRequestLogging: true }),
  })

  // A client that half-closes after its request (FIN right after the bytes, as scripts and some
  // HTTP clients do) still gets the answer: Node's default ends the connection on that FIN, and an
  // answer that was still waiting on the database was lost although the request ran.
  ;(app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true

  let database: AppDatabase
  try {
    database =
      options.database ??
      (await openDatabase(config.database, { onBackgroundError: (error) => app.log.error({ err: error }, 'database connection error') }))
  } catch (error) {
    await app.close()
    throw error
  }

  try {
    const migrated = await migrateToLatest(database)
    if (migrated.restored.length) app.log.warn({ definitions: migrated.restored }, 'indexes dropped by an interrupted bulk load restored')
    if (migrated.applied.length) app.log.info({ migrations: migrated.applied }, 'database migrated')

    const admin = await ensureInitialAdmin(database, { password: config.adminPassword, scrypt, now: clock() })
    if (admin.created) {
      app.log.info('initial admin created')
      // On purpose outside the structured log: shown once to whoever started the server.
      const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`))
      if (admin.generatedPassword) print(initialAdminPasswordLine(admin.generatedPassword))
    }
    await pruneSessions(database.db, clock())
    await prepareSeedingState(database.db, { source: config.source, now: clock() })
    if (config.source === 'demo' && options.seedDemo !== false) {
      const scale = demoScales[config.demoSize]
      const outcome = await bootstrapDemo(database, {
        size: config.demoSize,
        now: clock(),
        // One hash for all members: scrypt per member would take minutes. Unknown unless DEMO_MEMBER_PASSWORD is set.
        memberPasswordHash: await hashPassword(config.demoMemberPassword ?? randomPassword(24), scrypt),
        adminPasswordHashes: await Promise.all(Array.from({ length: scale.extraAdmins }, () => hashPassword(randomPassword(24), scrypt))),
        onStep: (step, ms) => app.log.debug({ step, ms }, 'demo data step'),
        clock,
      })
      if (outcome) app.log.info({ ...outcome.counts, records: outcome.records, ms: outcome.ms }, 'demo community generated')
    }
    // Prepares the unknown-user hash now, so the first such login takes no longer than a real one.
    await dummyVerify('', scrypt)

    const wages = options.wages ?? createWageEstimates()
    const sourceSpec = { source: config.source, nexusphp: config.nexusphp }
    const storage = new StorageTrouble()
    const sync = new SyncRunner({
      database,
      source: createSource(sourceSpec),
      sourceSpec: options.syncThread === false ? undefined : sourceSpec,
      wages,
      clock,
      log: app.log,
      storage,
    })
    const services: AppServices = {
      config,
      database,
      clock,
      scrypt,
      loginLimiter: new LoginLimiter(database, options.loginLimits ?? defaultLoginLimits, clock),
      sessions: new SessionCache(),
      storage,
      version: productVersion(),
      checkOutput: options.checkOutput ?? checksOutputByDefault(),
      sync,
      wages,
    }
    app.decorate('services', services)
    app.decorateRequest('auth', null)

    // First of the onRequest hooks: a connection over its address's limit runs nothing.
    limitConnectionsPerIp(app, {
      max: options.maxConnectionsPerIp ?? MAX_CONNECTIONS_PER_IP,
      holdMs: options.refusedConnectionHoldMs ?? 1_000,
      trustProxy: config.trustProxy,
    })
    // Answers carry tokens and personal data: no cache may keep them.
    refuseWhileClosing(app)
    requireHostHeader(app)
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store')
      return payload
    })
    registerJsonBodyParser(app)
    registerErrorHandlers(app)
    registerRequestLog(app, { accessLog: config.accessLog, slowMs: options.slowRequestMs })
    const routes = options.routes ?? registerRoutes
    routes(app)

    // Ended sessions are deleted hourly too, not only at start (a server runs for months). unref: the
    // timer alone does not keep the process alive.
    let pruning: Promise<unknown> = Promise.resolve()
    const pruneTimer = setInterval(() => {
      pruning = pruneSessions(database.db, clock()).catch((error) => app.log.warn({ err: error }, 'pruning ended sessions failed'))
    }, SESSION_PRUNE_INTERVAL_MS).unref()

    // One hook, so the order is certain: a running sync and prune end before the database closes.
    app.addHook('onClose', async () => {
      clearInterval(pruneTimer)
      await pruning
      await sync.stop()
      await statsRefreshSettled(database)
      if (ownsDatabase) await database.close()
    })
    await app.ready()
    if (options.scheduleSync !== false) sync.start(config.syncIntervalSec)
    return app
  } catch (error) {
    await app.close().catch(() => {})
    if (ownsDatabase) await database.close()
    throw error
  }
}
