/**
 * Admin actions on members and admins (issue 4): create, update, account status, passwords, the
 * admin role. Each one runs in one transaction with its operation-log row; every check that
 * depends on other rows (unique site uid, the last admin) runs under the users lock, so two
 * admins acting at the same moment cannot both pass a check that only one of them may pass.
 *
 * Decisions:
 * - "Admin" for the last-admin guard = role admin and status 正常 (only those can log in).
 * - Site uids are unique among all users, deleted ones included: the derivation ties a member to
 *   site rows by uid, and two users on one uid would count one seeder twice. An admin frees the
 *   uid of a deleted user by editing that user.
 * - Usernames stay taken after a (soft) delete; the unique index is on `username_lower`.
 * - A call that changes nothing (same status, same values) answers the user and writes nothing.
 */
import type { Kysely } from 'kysely'
import type { User } from '@shared/entities'
import { accountStatusLabels, roleLabels, type AccountStatus } from '@shared/enums'
import { messages } from '@shared/messages'
import { hashPassword, verifyPassword } from '../auth/password'
import { forgetSessions, revokeUserSessions, type AuthUser } from '../auth/sessions'
import type { DB, UserRow } from '../db/schema'
import { queueMembers } from '../derive/queue'
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors'
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { AdminLock, isUniqueViolation, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { userById } from './pages'
import { usernameKey } from './username'

type Ctx = RequestContext<AuthUser>

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

function siteUidTaken(uid: number, holder: Pick<UserRow, 'username' | 'status'>): AppError {
  return conflict(`站点 UID ${uid} 已被 ${holder.username}${holder.status === 1 ? '（已删除）' : ''} 使用`)
}

function show(value: string | number | null): string {
  if (value === null || value === '') return '空'
  return String(value)
}

/** Inside the users lock: the operator must still be an active admin (they may have been removed a moment ago). */
async function assertStillAdmin(trx: Kysely<DB>, operatorId: number): Promise<void> {
  const me = await trx.selectFrom('users').select(['role', 'status']).where('id', '=', operatorId).executeTakeFirst()
  if (!me || me.role !== 'admin' || me.status !== 2) throw forbidden(userMessages.operatorNotAdmin)
}

async function activeAdminCount(trx: Kysely<DB>): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '=', 2)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function lockedUser(trx: Kysely<DB>, id: number): Promise<UserRow> {
  const row = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound(userMessages.userNotFound)
  return row
}

async function assertSiteUidFree(trx: Kysely<DB>, uid: number, exceptId: number | null): Promise<void> {
  let q = trx.selectFrom('users').select(['id', 'username', 'status']).where('site_uid', '=', uid)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  const holder = await q.executeTakeFirst()
  if (holder) throw siteUidTaken(uid, holder)
}

async function answer(ctx: Ctx, id: number): Promise<User> {
  const user = await userById(ctx.db, id)
  if (!user) throw notFound(userMessages.userNotFound)
  return user
}

/** Runs `work` in a transaction under the users lock, with the operator re-checked; unique races become 409. */
async function usersTransaction<T>(ctx: Ctx, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
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

export async function createUser(
  ctx: Ctx,
  input: { username: string; password: string; siteUid?: number | null; remark?: string },
): Promise<User> {
  const username = input.username.trim()
  const key = usernameKey(username)
  // Cheap refusal before the (slow) hash; checked again in the transaction.
  const taken = await ctx.db.selectFrom('users').select('id').where('username_lower', '=', key).executeTakeFirst()
  if (taken) throw conflict(userMessages.usernameTaken)
  const hash = await hashPassword(input.password, ctx.services.scrypt)
  const siteUid = input.siteUid ?? null
  const remark = input.remark ?? ''

  const id = await usersTransaction(ctx, async (trx) => {
    if (await trx.selectFrom('users').select('id').where('username_lower', '=', key).executeTakeFirst())
      throw conflict(userMessages.usernameTaken)
    if (siteUid !== null) await assertSiteUidFree(trx, siteUid, null)
    const row = await trx
      .insertInto('users')
      .values({
        username,
        username_lower: key,
        password_hash: hash,
        role: 'normal',
        status: 2,
        site_uid: siteUid,
        remark,
        created_at: ctx.now,
        admin_since: null,
        last_login_at: null,
        updated_at: ctx.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (siteUid !== null) await queueMembers(trx, [row.id])
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.CreateUser,
        targetType: 'user',
        targetId: row.id,
        detail: `创建保种员 ${username}（站点 UID：${show(siteUid)}${remark ? `，备注：${remark}` : ''}）`,
        ip: ctx.ip,
      },
      ctx.now,
    )
    return row.id
  })
  if (siteUid !== null) await siteAccountTied(ctx)
  return answer(ctx, id)
}

/**
 * A member's site account was set or changed: re-label what the mirror already holds, and with the
 * NexusPHP source read their rows from the site now (the sync backfills a new uid) instead of at
 * the next scheduled sync.
 */
async function siteAccountTied(ctx: Ctx): Promise<void> {
  await relabel(ctx.services.database, ctx.now, ctx.log)
  if (ctx.services.sync.sourceKind === 'nexusphp') ctx.services.sync.requestRun()
}

export async function updateUser(ctx: Ctx, input: { id: number; siteUid?: number | null; remark?: string }): Promise<User> {
  const siteUidChanged = await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, input.id)
    const set: { site_uid?: number | null; remark?: string; updated_at?: number } = {}
    const changes: string[] = []
    if (input.siteUid !== undefined && input.siteUid !== before.site_uid) {
      if (input.siteUid !== null) await assertSiteUidFree(trx, input.siteUid, before.id)
      set.site_uid = input.siteUid
      changes.push(`站点 UID：${show(before.site_uid)} → ${show(input.siteUid)}`)
    }
    if (input.remark !== undefined && input.remark !== before.remark) {
      set.remark = input.remark
      changes.push(`备注：${show(before.remark)} → ${show(input.remark)}`)
    }
    if (changes.length === 0) return false
    await trx
      .updateTable('users')
      .set({ ...set, updated_at: ctx.now })
      .where('id', '=', before.id)
      .execute()
    if (set.site_uid !== undefined) await queueMembers(trx, [before.id])
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.UpdateUser,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username}：${changes.join('；')}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
    return set.site_uid !== undefined
  })
  if (siteUidChanged) await siteAccountTied(ctx)
  return answer(ctx, input.id)
}

export async function setUserStatus(ctx: Ctx, input: { id: number; status: AccountStatus }): Promise<User> {
  const changed = await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, input.id)
    if (before.status === input.status) return false
    if (input.status !== 2) {
      if (before.id === ctx.user.id) throw conflict(userMessages.notSelfStatus)
      if (before.role === 'admin' && before.status === 2 && (await activeAdminCount(trx)) <= 1) throw conflict(userMessages.lastAdminStatus)
    }
    await trx.updateTable('users').set({ status: input.status, updated_at: ctx.now }).where('id', '=', before.id).execute()
    // Ban and delete end the user's sessions at once (authenticate also refuses them by status).
    if (input.status !== 2) {
      await revokeUserSessions(trx, before.id, ctx.now)
    }
    // Status 5 (无工资) depends on the account status.
    await queueMembers(trx, [before.id])
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.SetUserStatus,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username} 状态：${accountStatusLabels[before.status]} → ${accountStatusLabels[input.status]}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
    return true
  })
  if (changed) await relabel(ctx.services.database, ctx.now, ctx.log)
  return answer(ctx, input.id)
}

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
  if (!reservation.allowed) throw new AppError(429, messages.tooManyPasswordAttempts, { 'Retry-After': String(reservation.retryAfterSec) })
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
    // Only if nobody changed it meanwhile (the old password was checked against this hash).
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: ctx.now })
      .where('id', '=', ctx.user.id)
      .where('password_hash', '=', row.password_hash)
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

export async function addAdmin(ctx: Ctx, userId: number): Promise<User> {
  await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, userId)
    if (before.role === 'admin') throw conflict(userMessages.alreadyAdmin)
    if (before.status !== 2) throw conflict(userMessages.adminNeedsActive)
    await trx.updateTable('users').set({ role: 'admin', admin_since: ctx.now, updated_at: ctx.now }).where('id', '=', before.id).execute()
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.AddAdmin,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username} 角色：${roleLabels.normal} → ${roleLabels.admin}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  return answer(ctx, userId)
}

export async function delAdmin(ctx: Ctx, userId: number): Promise<User> {
  await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, userId)
    if (before.id === ctx.user.id) throw conflict(userMessages.notSelfAdmin)
    if (before.role !== 'admin') throw conflict(userMessages.notAdmin)
    // The guard and the update in one statement as well, so even without the lock no update can
    // leave zero active admins.
    const updated = await trx
      .updateTable('users')
      .set({ role: 'normal', admin_since: null, updated_at: ctx.now })
      .where('id', '=', before.id)
      .where('role', '=', 'admin')
      .where((eb) =>
        eb.or([
          eb('status', '<>', 2),
          eb(
            eb
              .selectFrom('users as a')
              .select((e) => e.fn.countAll().as('n'))
              .where('a.role', '=', 'admin')
              .where('a.status', '=', 2),
            '>',
            1,
          ),
        ]),
      )
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) throw conflict(userMessages.lastAdmin)
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.DelAdmin,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username} 角色：${roleLabels.admin} → ${roleLabels.normal}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  return answer(ctx, userId)
}
