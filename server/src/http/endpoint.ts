/**
 * The one way to add an `/api/v1` route: `registerEndpoint(app, name, handler)`. The shared
 * `endpoints` table gives method, path, access and schemas; this helper checks access (before
 * looking at the payload: an anonymous caller learns nothing about valid input), validates the
 * input with the Chinese formatter, runs the handler and wraps its result in the envelope.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX, endpoints, TOKEN_HEADER, type Access, type EndpointName, type Endpoints } from '@shared/endpoints'
import { formatZodError, parseWith, type z } from '@shared/validation'
import { checkSession, forgetSessions, sessionEpoch, type AuthUser } from '../auth/sessions'
import type { DB } from '../db/schema'
import { AppError, forbidden } from '../errors'
import type { AppServices } from '../services'
import { JsonText, success } from './envelope'

type Def<N extends EndpointName> = Endpoints[N]

/** Fastify's own content type for JSON answers. */
const JSON_TYPE = 'application/json; charset=utf-8'

/** What a handler gets besides its input. `user` is present whenever the endpoint is not public. */
export interface RequestContext<U extends AuthUser | null = AuthUser | null> {
  user: U
  sessionId: U extends AuthUser ? number : number | null
  /** Client address (the socket's: the server does not trust proxy headers). */
  ip: string
  userAgent: string
  /** The request's time (epoch ms), from the app clock: use it for every timestamp the request writes. */
  now: number
  db: Kysely<DB>
  services: AppServices
  log: FastifyBaseLogger
  request: FastifyRequest
  reply: FastifyReply
}

export type HandlerContext<N extends EndpointName> = RequestContext<Def<N>['access'] extends 'public' ? AuthUser | null : AuthUser>
export type HandlerInput<N extends EndpointName> = z.output<Def<N>['input']>
/** What goes on the wire as `data` (the client parses it with the output schema). */
export type HandlerOutput<N extends EndpointName> = z.input<Def<N>['output']>
export type EndpointHandler<N extends EndpointName> = (
  input: HandlerInput<N>,
  ctx: HandlerContext<N>,
) => Promise<HandlerOutput<N> | JsonText> | HandlerOutput<N> | JsonText

/** `/user/{id}` → `/api/v1/user/:id` */
export function routeUrl(path: string): string {
  return API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1')
}

function readToken(request: FastifyRequest): string | undefined {
  const value = request.headers[TOKEN_HEADER.toLowerCase()]
  return typeof value === 'string' ? value.trim() : undefined
}

/** GET: the query string (+ path parameters); POST: the JSON body (+ path parameters). */
function rawInput(request: FastifyRequest, method: 'GET' | 'POST'): unknown {
  const params = (request.params ?? {}) as Record<string, string>
  const hasParams = Object.keys(params).length > 0
  if (method === 'GET') return { ...(request.query as Record<string, unknown>), ...params }
  const body = request.body
  if (!hasParams) return body
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? { ...body, ...params }
    : body === undefined
      ? { ...params }
      : body
}

/**
 * Another method on the same path (the seed's state-changing GETs also accept POST): the handler
 * and access stay the contract's; `input` is the schema for that method's payload (a JSON body
 * should not be coerced the way a query string is), and must produce the same output type.
 */
export interface EndpointAlias<N extends EndpointName> {
  method: 'GET' | 'POST'
  input: z.ZodType<HandlerInput<N>>
}

/**
 * The access check of a guarded route, run on onRequest — before the body is read: unauthenticated
 * callers cost no parsing, and get 401 whatever they sent (malformed JSON included). Every route of
 * the contract uses it, the file download (wages.export) too.
 *
 * Run again on preHandler for a route that reads a body, once the whole body has arrived: a caller may
 * send the headers, hold the body back (up to the request time-out) and complete it after being banned,
 * demoted or logged out — the request must act for who the caller is then, not for who they were when it
 * began. The second check is a cache hit unless a session or user changed meanwhile (sessions.ts
 * forgetSessions). A GET has no body to wait for: nothing happens between the two hooks worth a second look.
 */
export function accessCheck(services: AppServices, access: Exclude<Access, 'public'>): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const auth = await checkSession(services.database.db, readToken(request), services.clock(), services.sessions)
    if ('refused' in auth) throw new AppError(401, auth.refused)
    if (access === 'admin' && auth.user.role !== 'admin') throw forbidden()
    request.auth = auth
  }
}

/** The route options that run `accessCheck` before the body is read and, for a method with a body, again once it has been. */
export function accessHooks(services: AppServices, access: Exclude<Access, 'public'>, method: string) {
  const check = accessCheck(services, access)
  return method === 'GET' ? { onRequest: check } : { onRequest: check, preHandler: check }
}

export function registerEndpoint<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  handler: EndpointHandler<N>,
  alias?: EndpointAlias<N>,
): void {
  const contract = endpoints[name] as Def<N>
  const endpoint = alias ? { ...contract, method: alias.method, input: alias.input } : contract
  const { services } = app
  const access = endpoint.access as Access

  app.route({
    method: endpoint.method,
    url: routeUrl(endpoint.path),
    ...(access === 'public' ? {} : accessHooks(services, access, endpoint.method)),
    handler: async (request, reply) => {
      const parsed = parseWith(endpoint.input, rawInput(request, endpoint.method))
      if (!parsed.ok) throw new AppError(400, parsed.msg)

      const ctx: RequestContext = {
        user: request.auth?.user ?? null,
        sessionId: request.auth?.sessionId ?? null,
        ip: request.ip,
        // Stored with a login's session; PostgreSQL text cannot hold NUL.
        userAgent: String(request.headers['user-agent'] ?? '').replaceAll('\u0000', ''),
        now: services.clock(),
        db: services.database.db,
        services,
        log: request.log,
        request,
        reply,
      }
      const epoch = sessionEpoch()
      let data: HandlerOutput<N> | JsonText
      try {
        data = await handler(parsed.data as HandlerInput<N>, ctx as HandlerContext<N>)
      } finally {
        // The handler ended sessions or changed a user (sessions.ts): its transaction has committed
        // by now, so what other requests cached meanwhile is forgotten too.
        if (sessionEpoch() !== epoch) forgetSessions()
      }

      if (services.checkOutput) {
        const checked = endpoint.output.safeParse(data instanceof JsonText ? JSON.parse(data.text) : data)
        if (!checked.success) {
          request.log.error({ endpoint: name, problem: formatZodError(checked.error) }, 'answer does not match the contract')
          throw new Error(`answer of ${name} does not match its output schema`)
        }
      }
      if (data instanceof JsonText) return reply.code(200).type(JSON_TYPE).send(data.envelope())
      return reply.code(200).send(success(data ?? null))
    },
  })
}
