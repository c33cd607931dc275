import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { cachedAllStatsJson, refreshAllStats } from '../stats/cache'
import { userSeedingStats } from '../stats/user'

export const DEFAULT_USER_STATS_DAYS = 30

export function statisticsRoutes(app: FastifyInstance): void {
  // GET /statistics/all-seeding-sta — the cached team figures; `computedAt` says when.
  registerEndpoint(app, 'statistics.all', (_input, ctx) => cachedAllStatsJson(ctx.db, { now: ctx.now, wages: ctx.services.wages }))

  // GET /statistics/refresh-index-statistics-cache — recomputes them now.
  registerEndpoint(app, 'statistics.refresh', (_input, ctx) => refreshAllStats(ctx.db, { now: ctx.now, wages: ctx.services.wages }))

  // GET /statistics/user-seeding-sta — members: their own figures whatever userId says; admins: anyone's.
  registerEndpoint(app, 'statistics.user', (input, ctx) => {
    const userId = ctx.user.role === 'admin' ? (input?.userId ?? ctx.user.id) : ctx.user.id
    return userSeedingStats(ctx.db, userId, { now: ctx.now, days: input?.days ?? DEFAULT_USER_STATS_DAYS, wages: ctx.services.wages })
  })
}
