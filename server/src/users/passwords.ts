/** Passwords: an admin resets anyone's, a user changes their own. Both end the user's other sessions. */
import { messages } from '@shared/messages'
import { accountLimitMessages } from '../auth/login-limiter'
import { hashPassword, verifyPassword } from '../auth/password'
import { forgetSessions, revokeUserSessions } from '../auth/sessions'
import { AccountStatus } from '@shared/enums'
import { AdminLock, lockFor } from '../db/write-lock'
import { AppError, badRequest, conflict, notFound, notLoggedIn } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import { type Ctx, lockedUser, userMessages, usersTransaction } from './admin-transaction'
import { usernameKey } from './username'

export async function resetPassword(ctx: Ctx, input: { id: number; password: string }): Promise<null> {
  const exists = await ctx.db.selectFrom('users').select('id').where('id', '=', input.id).executeTakeFirst()
  if (!exists) throw notFound(userMessages.userNotFound)
  const hash = await hashPassword(input.password, ctx.services.scrypt)
  await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, input.id)
    await trx.updateTable('users').set({ password_hash: hash, updated_at: ctx.now }).where('id', '=', before.id).execute()
    const ended = await revokeUserSessions(trx, before.id, ctx.now)
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.ResetPassword,
        targetType: 'user',
        targetId: before.id,
        detail: `重置 ${before.username} 的密码，结束其 ${ended} 个登录会话`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  return null
}

/** The caller's own password: needs the old one; keeps the current session and ends the others. */
export async function changeOwnPassword(ctx: Ctx, input: { oldPassword: string; newPassword: string }): Promise<null> {
  // Guessing the old password with a stolen token counts as guessing at the login (auth/login-limiter.ts).
  const { loginLimiter } = ctx.services
  const reservation = await loginLimiter.reserve(usernameKey(ctx.user.username), ctx.ip)
  if (!reservation.allowed) {
    const msg = reservation.accountLocked ? accountLimitMessages.changePassword : messages.tooManyPasswordAttempts
    throw new AppError(429, msg, { 'Retry-After': String(reservation.retryAfterSec) })
  }
  const row = await ctx.db.selectFrom('users').select(['password_hash']).where('id', '=', ctx.user.id).executeTakeFirst()
  if (!row) {
    await loginLimiter.refund(reservation.ticket)
    throw notFound(userMessages.userNotFound)
  }
  // A wrong old password keeps its reservation: it counts as a failed guess.
  if (!(await verifyPassword(input.oldPassword, row.password_hash))) throw badRequest(userMessages.wrongOldPassword)
  await loginLimiter.forgive(reservation.ticket)
  const hash = await hashPassword(input.newPassword, ctx.services.scrypt)
  await ctx.db.transaction().execute(async (trx) => {
    // Under the users lock, like every change of a users row: a ban, delete or reset that an admin
    // committed while the hashes ran is seen here, and one that comes later waits for this commit.
    await lockFor(trx, ctx.services.database.dialect, AdminLock.users)
    // The caller was authenticated before the (slow) hashes: a ban or delete since then ended their
    // session, and a banned account must not set its own password.
    const live = await trx
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('s.id', '=', ctx.sessionId)
      .where('s.revoked_at', 'is', null)
      .where('u.status', '=', AccountStatus.Normal)
      .executeTakeFirst()
    if (!live) throw notLoggedIn()
    // Only if nobody changed it meanwhile (the old password was checked against this hash).
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: ctx.now })
      .where('id', '=', ctx.user.id)
      .where('password_hash', '=', row.password_hash)
      .where('status', '=', AccountStatus.Normal)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('密码已被修改，请重新登录后再试')
    const ended = await revokeUserSessions(trx, ctx.user.id, ctx.now, ctx.sessionId)
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.ChangePassword,
        targetType: 'user',
        targetId: ctx.user.id,
        detail: `修改自己的密码，结束其他 ${ended} 个登录会话`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  forgetSessions()
  return null
}
