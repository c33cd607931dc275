import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { checkHealth } from '../http/health'

export function healthRoutes(app: FastifyInstance): void {
  // GET /health — liveness plus a round trip to the database.
  registerEndpoint(app, 'health', (_input, ctx) => checkHealth(ctx.services, ctx.now, ctx.log))
}
