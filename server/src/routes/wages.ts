/**
 * Wage endpoints (`wages.*` in docs/api.md). The engine is src/wages; here: access rules
 * (members see only their own records), input shapes and the export download.
 */
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { endpoints } from '@shared/endpoints'
import { parseWith } from '@shared/validation'
import { AppError, conflict, forbidden, notFound } from '../errors'
import { accessHooks, registerEndpoint, routeUrl } from '../http/endpoint'
import type { DB } from '../db/schema'
import { currentRules } from '../rules/rules'
import { computeAndSave, payWages, previewWages } from '../wages/engine'
import { monthEndNotReadMessage, monthNotOverMessage, periodBounds } from '../wages/period'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { contentDisposition, contentTypes, wagesCsv, wagesXlsx } from '../wages/export'
import { exportRows, rankPage, wageDetail, wagePage, wageRecord, wageStats } from '../wages/queries'

export const DEFAULT_STATS_MONTHS = 12

export function wageRoutes(app: FastifyInstance): void {
  // POST /wages/rank — everyone sees the whole rank of a month (default: the last computed one).
  registerEndpoint(app, 'wages.rank', (input, ctx) => rankPage(ctx.db, input))

  // POST /wages/page — members: their own records whatever userId says.
  registerEndpoint(app, 'wages.page', (input, ctx) =>
    wagePage(ctx.db, ctx.services.database.dialect, { ...input, userId: ctx.user.role === 'admin' ? input.userId : ctx.user.id }),
  )

  // GET /wages/{id} — with items; a member asking for someone else's record gets 403.
  registerEndpoint(app, 'wages.detail', async (input, ctx) => {
    const record = await wageRecord(ctx.db, input.id)
    if (!record) {
      if (ctx.user.role !== 'admin') throw forbidden()
      throw notFound('工资记录不存在')
    }
    if (ctx.user.role !== 'admin' && record.userId !== ctx.user.id) throw forbidden()
    return wageDetail(ctx.db, record)
  })

  // A month that is over is read to its end, from the counters the first sync after it kept (the next month's 1st, or
  // later: 部分月份). Before that sync — the site unreachable over the month's end — the last sync's counters would
  // stand for the end, the month's last days lost without a word, and the same month computed later would differ.
  const requireMonthEndRead = async (db: Kysely<DB>, period: string, now: number, timezone: string) => {
    const bounds = periodBounds(period, timezone)
    if (now >= bounds.endMs && (await snapshotDayOnOrAfter(db, bounds.nextStartDay)) === null)
      throw conflict(monthEndNotReadMessage(period))
  }

  // POST /wages/preview — nothing saved. A month in progress is previewed from the last sync's counters.
  registerEndpoint(app, 'wages.preview', async (input, ctx) => {
    await requireMonthEndRead(ctx.db, input.period, ctx.now, (await currentRules(ctx.db)).timezone)
    return previewWages(ctx.db, input.period, ctx.now, input.userId)
  })

  // POST /wages/compute — one transaction; paid records kept. Only a month that is over: its wage reads the counters
  // at its end, and a record paid mid-month would never be changed again (the rest of the month never paid).
  registerEndpoint(app, 'wages.compute', async (input, ctx) => {
    const { timezone } = await currentRules(ctx.db)
    if (ctx.now < periodBounds(input.period, timezone).endMs) throw conflict(monthNotOverMessage(input.period))
    await requireMonthEndRead(ctx.db, input.period, ctx.now, timezone)
    return computeAndSave(ctx.services.database, { period: input.period, now: ctx.now, operator: ctx.user, ip: ctx.ip })
  })

  // POST /wages/pay — each record once; unknown ids → 404 and nothing paid; amounts no longer current → 409.
  registerEndpoint(app, 'wages.pay', async (input, ctx) => {
    const outcome = await payWages(ctx.services.database, {
      ids: input.ids,
      amounts: input.amounts,
      now: ctx.now,
      operator: ctx.user,
      ip: ctx.ip,
    })
    if (outcome.missing.length) throw notFound(`工资记录不存在：${outcome.missing.slice(0, 20).join(', ')}`)
    return { paid: outcome.paid, alreadyPaid: outcome.alreadyPaid }
  })

  // GET /wages/stats
  registerEndpoint(app, 'wages.stats', (input, ctx) => wageStats(ctx.db, input?.months ?? DEFAULT_STATS_MONTHS))

  registerExport(app)
}

/**
 * GET /wages/export — a download (`download: true` in the contract): the answer is the file bytes
 * with Content-Disposition, not an envelope; errors are still envelopes (thrown AppErrors go
 * through the app's error handler). The access check is every endpoint's (accessHooks).
 */
function registerExport(app: FastifyInstance): void {
  const endpoint = endpoints['wages.export']
  const { services } = app
  app.route({
    method: endpoint.method,
    url: routeUrl(endpoint.path),
    ...accessHooks(services, endpoint.access, endpoint.method),
    handler: async (request, reply) => {
      const parsed = parseWith(endpoint.input, request.query)
      if (!parsed.ok) throw new AppError(400, parsed.msg)
      const { period, format } = parsed.data
      const db = services.database.db
      const records = await exportRows(db, period)
      if (records.length === 0) throw notFound(`${period} 还没有生成工资`)
      const { timezone } = await currentRules(db)
      const body = format === 'xlsx' ? await wagesXlsx(period, records, timezone) : wagesCsv(records, timezone)
      return reply
        .code(200)
        .header('content-type', contentTypes[format])
        .header('content-disposition', contentDisposition(period, format))
        .header('cache-control', 'no-store')
        .send(body)
    },
  })
}
