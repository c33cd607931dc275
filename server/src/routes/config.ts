/**
 * /config: the admin role (the seed's GET calls, also accepted as POST with `{ userId }`) and the
 * official-torrent rules.
 */
import type { FastifyInstance } from 'fastify'
import { z } from '@shared/validation'
import { registerEndpoint } from '../http/endpoint'
import { changeRules } from '../rules/change'
import { currentRules } from '../rules/rules'
import { addAdmin, delAdmin } from '../users/admin-role'

/** The POST form takes a JSON number (no coercion: `true` or `"7"` are not ids). */
const adminTargetBody = z.strictObject({ userId: z.number().int().positive().max(2_147_483_647) })

export function configRoutes(app: FastifyInstance): void {
  registerEndpoint(app, 'config.addAdmin', (input, ctx) => addAdmin(ctx, input.userId))
  registerEndpoint(app, 'config.addAdmin', (input, ctx) => addAdmin(ctx, input.userId), { method: 'POST', input: adminTargetBody })
  registerEndpoint(app, 'config.delAdmin', (input, ctx) => delAdmin(ctx, input.userId))
  registerEndpoint(app, 'config.delAdmin', (input, ctx) => delAdmin(ctx, input.userId), { method: 'POST', input: adminTargetBody })

  registerEndpoint(app, 'config.rules', (_input, ctx) => currentRules(ctx.db))
  registerEndpoint(app, 'config.saveRules', (input, ctx) => changeRules(ctx, input))
}
