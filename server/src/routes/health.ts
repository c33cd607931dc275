import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { registerEndpoint } from '../http/endpoint'
import { AppError } from '../errors'
import { diskFullMessage } from '../http/storage-trouble'

export function healthRoutes(app: FastifyInstance): void {
  // GET /health — liveness plus a round trip to the database.
  registerEndpoint(app, 'health', async (_input, ctx) => {
    try {
      await sql`select 1`.execute(ctx.db)
    } catch (error) {
      ctx.log.error({ err: error }, 'database health check failed')
      throw new AppError(500, '数据库不可用')
    }
    // A full disk still answers reads: report the writes that failed on it.
    if (ctx.services.storage.recentFull(ctx.now) !== null) throw new AppError(500, `数据库不可写：${diskFullMessage}`)
    return { status: 'ok', db: 'ok', version: ctx.services.version }
  })
}
