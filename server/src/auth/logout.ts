/**
 * Ends the session a request was made with, and logs it: one transaction, so neither happens alone. A logout racing
 * another with the same token (a double click, a retry) ends nothing and logs nothing: one session, one row.
 */
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { revokeSession, type AuthUser } from './sessions'

export async function logout(ctx: Pick<RequestContext<AuthUser>, 'db' | 'user' | 'sessionId' | 'ip' | 'now'>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await revokeSession(trx, ctx.sessionId, ctx.now))) return
    await recordOperation(
      trx,
      { operator: ctx.user, action: OperationAction.Logout, targetType: 'user', targetId: ctx.user.id, ip: ctx.ip },
      ctx.now,
    )
  })
}
