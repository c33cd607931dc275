import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { registerEndpoint } from '../http/endpoint'
import { AppError } from '../errors'

export function healthRoutes(app: FastifyInstance): void {
  // GET /health — liveness plus a round trip to the database.
  registerEndpoint(app, 'health', async (_input, ctx) => {
    try {
      await sql`select 1`.execute(ctx.db)
    } catch (error) {
      ctx.log.error({ err: error }, 'database health check failed')
      throw new AppError(500, '数据库不可用')
    }
    return { status: 'ok', db: 'ok', version: ctx.services.version }
  })
}
