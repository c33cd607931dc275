/** Member management: create, update, account status, passwords. */
import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { createUser, setUserStatus, updateUser } from '../users/member-accounts'
import { changeOwnPassword, resetPassword } from '../users/passwords'

export function adminUserRoutes(app: FastifyInstance): void {
  registerEndpoint(app, 'user.create', (input, ctx) => createUser(ctx, input))
  registerEndpoint(app, 'user.update', (input, ctx) => updateUser(ctx, input))
  registerEndpoint(app, 'user.setStatus', (input, ctx) => setUserStatus(ctx, input))
  registerEndpoint(app, 'user.resetPassword', (input, ctx) => resetPassword(ctx, input))
  registerEndpoint(app, 'user.changePassword', (input, ctx) => changeOwnPassword(ctx, input))
}
