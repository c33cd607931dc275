/**
 * How every admin action on users runs: one transaction with its operation-log row, under the
 * users lock, with the operator re-checked — every check that depends on other rows (unique site
 * uid, the last admin) runs under that lock, so two admins acting at the same moment cannot both
 * pass a check that only one of them may pass. Also the messages those actions answer with.
 *
 * "Admin" for the last-admin guard = role admin and status 正常 (only those can log in).
 * Usernames stay taken after a (soft) delete: the unique index is on `username_lower`.
 */
import { AccountStatus } from '@shared/enums'
import type { Kysely } from 'kysely'
import type { User } from '@shared/entities'
import { forgetSessions, type AuthUser } from '../auth/sessions'
import type { DB, UserRow } from '../db/schema'
import { AdminLock, isUniqueViolation, lockFor } from '../db/write-lock'
import { conflict, forbidden, notFound } from '../errors'
import type { RequestContext } from '../http/endpoint'
import { userById } from './pages'

export type Ctx = RequestContext<AuthUser>

export const userMessages = {
  usernameTaken: '用户名已存在',
  userNotFound: '用户不存在',
  wrongOldPassword: '原密码不正确',
  notSelfStatus: '不能封禁或删除自己',
  lastAdminStatus: '不能封禁或删除最后一位管理员',
  notSelfAdmin: '不能移除自己的管理员身份',
  lastAdmin: '不能移除最后一位管理员',
  alreadyAdmin: '该用户已是管理员',
  notAdmin: '该用户不是管理员',
  adminNeedsActive: '只能把状态正常的用户设为管理员',
  operatorNotAdmin: '你已不是管理员',
} as const

/** A value as the operation log shows it: empty ones as 空. */
export function show(value: string | number | null): string {
  if (value === null || value === '') return '空'
  return String(value)
}

/** Inside the users lock: the operator must still be an active admin (they may have been removed a moment ago). */
async function assertStillAdmin(trx: Kysely<DB>, operatorId: number): Promise<void> {
  const me = await trx.selectFrom('users').select(['role', 'status']).where('id', '=', operatorId).executeTakeFirst()
  if (!me || me.role !== 'admin' || me.status !== AccountStatus.Normal) throw forbidden(userMessages.operatorNotAdmin)
}

export async function activeAdminCount(trx: Kysely<DB>): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '=', 2)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The user row, read under the lock; an unknown id is a 404. */
export async function lockedUser(trx: Kysely<DB>, id: number): Promise<UserRow> {
  const row = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound(userMessages.userNotFound)
  return row
}

/** What an action answers: the user as it now is. */
export async function answerUser(ctx: Ctx, id: number): Promise<User> {
  const user = await userById(ctx.db, id)
  if (!user) throw notFound(userMessages.userNotFound)
  return user
}

/** Runs `work` in a transaction under the users lock, with the operator re-checked; unique races become 409. */
export async function usersTransaction<T>(ctx: Ctx, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await lockFor(trx, ctx.services.database.dialect, AdminLock.users)
      await assertStillAdmin(trx, ctx.user.id)
      return work(trx)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(userMessages.usernameTaken)
    throw error
  } finally {
    // Once committed: sessions this process cached see the user's new role, status or ended sessions.
    forgetSessions()
  }
}
