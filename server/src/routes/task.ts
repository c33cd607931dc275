/** /task: assigning torrents to members, by hand and automatically. */
import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { assign, autoAssign, unassign } from '../assignments/assign'

export function taskRoutes(app: FastifyInstance): void {
  registerEndpoint(app, 'task.assign', (input, ctx) => assign(ctx, input))
  registerEndpoint(app, 'task.unassign', (input, ctx) => unassign(ctx, input))
  registerEndpoint(app, 'task.autoAssign', (input, ctx) => autoAssign(ctx, input))
}
