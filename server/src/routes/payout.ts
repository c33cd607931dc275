/**
 * 发放到站点 (the engine is src/payout): preview, pay, settle 待核对, and each member's view of
 * whether their wage reached the site. The service lives as long as the app (its webhook retries
 * run in the background and its site connection closes with the app).
 */
import type { FastifyInstance } from 'fastify'
import { forbidden } from '../errors'
import { registerEndpoint } from '../http/endpoint'
import { createPayoutService, type PayoutService } from '../payout/service'
import type { WageSelection } from '../payout/wages'
import { webhookDeliveryLog } from '../payout/webhook-log'
import { wageDb } from '../wages/tables'

const selectionOf = (input: { ids?: number[]; period?: string }): WageSelection =>
  input.ids ? { ids: input.ids } : { period: input.period! }

export function payoutRoutes(app: FastifyInstance, service?: PayoutService): void {
  const payout = service ?? createPayoutService({ ...app.services, log: app.log })
  app.addHook('onReady', async () => payout.start())
  app.addHook('onClose', async () => payout.close())

  registerEndpoint(app, 'wages.payoutPreview', (input) => payout.preview(selectionOf(input)))

  registerEndpoint(app, 'wages.payout', async (input, ctx) => ({ list: await payout.run(selectionOf(input), ctx.user, ctx.ip) }))

  registerEndpoint(app, 'wages.payoutResolve', (input, ctx) => payout.resolve(input.wageId, input.action, ctx.user, ctx.ip))

  registerEndpoint(app, 'wages.payoutDeliveries', async () => ({
    webhookConfigured: payout.webhookConfigured,
    list: await webhookDeliveryLog(app.services.database.db),
  }))

  // Members: only their own records — someone else's id, or one that does not exist, is a 403 (as
  // GET /wages/{id}), whether or not it was ever paid out: the answer tells nothing of other records.
  registerEndpoint(app, 'wages.payoutStatus', async (input, ctx) => {
    if (ctx.user.role !== 'admin') {
      const own = await wageDb(ctx.db)
        .selectFrom('wage_records')
        .select('id')
        .where('id', 'in', input.ids)
        .where('user_id', '=', ctx.user.id)
        .execute()
      if (own.length !== new Set(input.ids).size) throw forbidden()
    }
    const states = await payout.states(input.ids)
    return [...states.values()].map((e) => ({
      wageId: e.wage_id,
      state: e.state,
      doneAt: e.done_at === null ? null : new Date(e.done_at).toISOString(),
    }))
  })
}
