import type { FastifyInstance } from 'fastify'
import { notFound } from '../errors'
import { registerEndpoint } from '../http/endpoint'
import { currentRules } from '../rules/rules'
import { cachedAllStatsJson, refreshAllStats } from '../stats/cache'
import { computeUserStats } from '../stats/user'

export const DEFAULT_USER_STATS_DAYS = 30

export function statisticsRoutes(app: FastifyInstance): void {
  // GET /statistics/all-seeding-sta — the cached team figures; `computedAt` says when.
  registerEndpoint(app, 'statistics.all', (_input, ctx) => cachedAllStatsJson(ctx.db, { now: ctx.now, wages: ctx.services.wages }))

  // GET /statistics/refresh-index-statistics-cache — recomputes them now.
  registerEndpoint(app, 'statistics.refresh', (_input, ctx) => refreshAllStats(ctx.db, { now: ctx.now, wages: ctx.services.wages }))

  // GET /statistics/user-seeding-sta — members: their own figures whatever userId says; admins: anyone's.
  registerEndpoint(app, 'statistics.user', async (input, ctx) => {
    const userId = ctx.user.role === 'admin' ? (input?.userId ?? ctx.user.id) : ctx.user.id
    const exists = await ctx.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
    if (!exists) throw notFound('用户不存在')
    return computeUserStats(ctx.db, userId, {
      now: ctx.now,
      days: input?.days ?? DEFAULT_USER_STATS_DAYS,
      rules: await currentRules(ctx.db),
      wages: ctx.services.wages,
    })
  })
}
