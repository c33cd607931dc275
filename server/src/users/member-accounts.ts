/**
 * Creating and editing members, and their account status (正常 / 封禁 / 删除). A call that changes
 * nothing (same status, same values) answers the user and writes nothing.
 *
 * Site uids are unique among all users, deleted ones included: the derivation ties a member to
 * site rows by uid, and two users on one uid would count one seeder twice. An admin frees the uid
 * of a deleted user by editing that user.
 */
import type { Kysely } from 'kysely'
import type { User } from '@shared/entities'
import { accountStatusLabels, AccountStatus } from '@shared/enums'
import { hashPassword } from '../auth/password'
import { revokeUserSessions } from '../auth/sessions'
import type { DB, UserRow } from '../db/schema'
import { queueMembers } from '../derive/queue'
import { figuresChanged, relabel } from '../derive/relabel'
import { AppError, conflict } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import { activeAdminCount, answerUser, type Ctx, lockedUser, show, userMessages, usersTransaction } from './admin-transaction'
import { usernameKey, usernameLookalikeKey } from './username'

function siteUidTaken(uid: number, holder: Pick<UserRow, 'username' | 'status'>): AppError {
  return conflict(`站点 UID ${uid} 已被 ${holder.username}${holder.status === AccountStatus.Deleted ? '（已删除）' : ''} 使用`)
}

async function assertSiteUidFree(trx: Kysely<DB>, uid: number, exceptId: number | null): Promise<void> {
  let q = trx.selectFrom('users').select(['id', 'username', 'status']).where('site_uid', '=', uid)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  const holder = await q.executeTakeFirst()
  if (holder) throw siteUidTaken(uid, holder)
}

/**
 * A payout to the site that started and did not finish (payout/ledger.ts: pending, 待核对) may have credited the
 * uid it was opened for; a new binding must wait until the site was checked, or the next attempt would look for
 * the earlier one's rows under the wrong member.
 */
async function assertNoOpenPayout(trx: Kysely<DB>, userId: number): Promise<void> {
  const open = await trx
    .selectFrom('payout_ledger')
    .select(['wage_id', 'period'])
    .where('user_id', '=', userId)
    .where('state', 'in', ['pending', 'in_doubt'])
    .orderBy('wage_id')
    .execute()
  if (open.length)
    throw conflict(
      `该保种员有未完成的站点发放（${open.map((e) => `${e.period} 工资记录 #${e.wage_id}`).join('、')}）：站点上是否已到账尚未确认。请先在「工资计算」中再次发放到站点或处理待核对，再修改站点 UID`,
    )
}

/**
 * A user (any status: deleted names stay taken) whose name looks like `username` (usernameLookalikeKey):
 * `ａｄｍｉｎ` or `аdmin` (Cyrillic а) next to `admin` would pass for that account in every list and
 * in the operation log. Thousands of users at most: their names are compared here, not in SQL.
 */
async function lookalikeOf(db: Kysely<DB>, username: string): Promise<string | null> {
  const key = usernameLookalikeKey(username)
  const users = await db.selectFrom('users').select('username').execute()
  return users.find((u) => usernameLookalikeKey(u.username) === key)?.username ?? null
}

function assertNoLookalike(holder: string | null): void {
  if (holder !== null) throw conflict(`用户名与已有用户「${holder}」看起来相同，容易混淆，请换一个`)
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
  assertNoLookalike(await lookalikeOf(ctx.db, username))
  const hash = await hashPassword(input.password, ctx.services.scrypt)
  const siteUid = input.siteUid ?? null
  const remark = input.remark ?? ''

  const id = await usersTransaction(ctx, async (trx) => {
    if (await trx.selectFrom('users').select('id').where('username_lower', '=', key).executeTakeFirst())
      throw conflict(userMessages.usernameTaken)
    assertNoLookalike(await lookalikeOf(trx, username))
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
  else figuresChanged(ctx.services, ctx.now, ctx.log)
  return answerUser(ctx, id)
}

/**
 * A member's site account was set or changed: re-label what the mirror already holds, and with the
 * NexusPHP source read their rows from the site now (the sync backfills a new uid) instead of at
 * the next scheduled sync.
 */
async function siteAccountTied(ctx: Ctx): Promise<void> {
  await relabel(ctx.services, ctx.now, ctx.log)
  if (ctx.services.sync.sourceKind === 'nexusphp') ctx.services.sync.requestRun()
}

export async function updateUser(ctx: Ctx, input: { id: number; siteUid?: number | null; remark?: string }): Promise<User> {
  const siteUidChanged = await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, input.id)
    const set: { site_uid?: number | null; remark?: string; updated_at?: number } = {}
    const changes: string[] = []
    if (input.siteUid !== undefined && input.siteUid !== before.site_uid) {
      await assertNoOpenPayout(trx, before.id)
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
    if (set.site_uid !== undefined) {
      await queueMembers(trx, [before.id])
      // The records now count the new account: the next sync notes their counters as the month's baseline (baselines.ts).
      await trx
        .insertInto('site_uid_changes')
        .values({ user_id: before.id, changed_at: ctx.now, from_uid: before.site_uid })
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
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
  return answerUser(ctx, input.id)
}

export async function setUserStatus(ctx: Ctx, input: { id: number; status: AccountStatus }): Promise<User> {
  const changed = await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, input.id)
    if (before.status === input.status) return false
    if (input.status !== AccountStatus.Normal) {
      if (before.id === ctx.user.id) throw conflict(userMessages.notSelfStatus)
      if (before.role === 'admin' && before.status === AccountStatus.Normal && (await activeAdminCount(trx)) <= 1)
        throw conflict(userMessages.lastAdminStatus)
    }
    await trx.updateTable('users').set({ status: input.status, updated_at: ctx.now }).where('id', '=', before.id).execute()
    // Ban and delete end the user's sessions at once (authenticate also refuses them by status).
    if (input.status !== AccountStatus.Normal) {
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
  if (changed) await relabel(ctx.services, ctx.now, ctx.log)
  return answerUser(ctx, input.id)
}
