/** /task: assigning torrents to members, by hand and automatically. */
import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { autoAssign } from '../assignments/auto-assign'
import { assign, unassign } from '../assignments/manual'
import { assigneesOf, keeperOptions } from '../assignments/assignees'

export function taskRoutes(app: FastifyInstance): void {
  registerEndpoint(app, 'task.assign', (input, ctx) => assign(ctx, input))
  registerEndpoint(app, 'task.unassign', (input, ctx) => unassign(ctx, input))
  registerEndpoint(app, 'task.autoAssign', (input, ctx) => autoAssign(ctx, input))
  registerEndpoint(app, 'task.assignees', (input, ctx) => assigneesOf(ctx.db, input.torrentIds))
  registerEndpoint(app, 'task.members', (_input, ctx) => keeperOptions(ctx.db))
}
