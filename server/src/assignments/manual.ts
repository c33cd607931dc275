/**
 * Manual assign and unassign (任务分配). Each write queues the (member, torrent) pairs it touched
 * for the derivation in the same transaction, then re-labels (records' and torrents' assignment
 * label). A call that changes nothing writes no operation-log row.
 *
 * Any torrent of the mirror may be assigned (the page offers official ones) except one banned on
 * the site, or not approved by its review where the site hides unreviewed torrents (the mirror's
 * `banned` either way): its announce is refused, nobody can keep it. Members must be able to keep torrents —
 * the picker's rule (assignees.ts `Unfit`: status 正常, a site uid, a site account announce takes; any role:
 * an admin with a site uid may keep torrents too). One call assigns at most MAX_ASSIGN_PAIRS pairs
 * (torrents × members).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { queuePairs } from '../derive/queue'
import { AdminLock, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { badRequest, conflict } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import { chunks } from '../util/chunks'
import { Unfit, unfitMembers } from './assignees'
import { type Ctx, insertPairs, type Pair } from './pairs'
import { assertNotBanned, assertTorrentsExist, CHUNK, names, torrentList, uniqueSorted, usersOf } from './targets'

export const MAX_ASSIGN_PAIRS = 20_000

export async function assign(ctx: Ctx, input: { torrentIds: number[]; userIds: number[] }): Promise<{ created: number; existed: number }> {
  const torrentIds = uniqueSorted(input.torrentIds)
  const userIds = uniqueSorted(input.userIds)
  const total = torrentIds.length * userIds.length
  if (total > MAX_ASSIGN_PAIRS) throw badRequest(`一次最多分配 ${MAX_ASSIGN_PAIRS} 对（种子数 × 用户数），本次为 ${total} 对`)

  const created = await ctx.db.transaction().execute(async (trx) => {
    await lockFor(trx, ctx.services.database.dialect, AdminLock.assignments)
    await assertTorrentsExist(trx, torrentIds)
    await assertNotBanned(trx, torrentIds)
    const users = await usersOf(trx, userIds)
    await assertCanKeep(trx, users)
    const pairs = torrentIds.flatMap((torrentId) => userIds.map((userId) => ({ torrentId, userId })))
    const made = await insertPairs(trx, pairs, ctx)
    if (made.length) {
      await recordOperation(
        trx,
        {
          operator: ctx.user,
          action: OperationAction.Assign,
          targetType: 'torrent',
          targetId: torrentIds.length === 1 ? torrentIds[0] : null,
          detail: `分配种子 ${await torrentList(trx, torrentIds)} 给 ${names(users)}：新增 ${made.length} 条，已存在 ${total - made.length} 条`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return made.length
  })
  if (created) await relabel(ctx.services, ctx.now, ctx.log)
  return { created, existed: total - created }
}

/** What /task/assign says of members who cannot keep torrents (one clause per reason, each naming them). */
const unfitMessages: Record<Unfit, (who: string) => string> = {
  [Unfit.Inactive]: (who) => `只能分配给状态正常的用户：${who}`,
  [Unfit.NoSiteUid]: (who) => `${who} 没有绑定站点 UID，不能分配种子`,
  [Unfit.SiteDisabled]: (who) => `${who} 的站点账号已被禁用，不能分配种子`,
  [Unfit.SiteDeleted]: (who) => `${who} 的站点账号已被站点删除，不能分配种子`,
}

/** 409 naming the members of `users` who cannot keep torrents (the picker's rule), one clause per reason. */
async function assertCanKeep(db: Kysely<DB>, users: readonly { id: number; username: string }[]): Promise<void> {
  const unfit = await unfitMembers(
    db,
    users.map((u) => u.id),
  )
  if (unfit.size === 0) return
  const clauses = Object.values(Unfit).flatMap((reason) => {
    const who = users.filter((u) => unfit.get(u.id) === reason)
    return who.length ? [unfitMessages[reason](names(who))] : []
  })
  throw conflict(clauses.join('；'))
}

export async function unassign(ctx: Ctx, input: { torrentIds: number[]; userIds?: number[] }): Promise<{ removed: number }> {
  const torrentIds = uniqueSorted(input.torrentIds)
  const userIds = input.userIds ? uniqueSorted(input.userIds) : null

  const removed = await ctx.db.transaction().execute(async (trx) => {
    await lockFor(trx, ctx.services.database.dialect, AdminLock.assignments)
    // A torrent gone from the mirror may still carry assignments: those can be removed too.
    await assertTorrentsExist(trx, torrentIds, true)
    const users = userIds ? await usersOf(trx, userIds) : null
    const gone: Pair[] = []
    for (const part of chunks(torrentIds, CHUNK)) {
      let q = trx.deleteFrom('assignments').where('torrent_id', 'in', part)
      if (userIds) q = q.where('user_id', 'in', userIds)
      for (const r of await q.returning(['torrent_id', 'user_id']).execute()) gone.push({ torrentId: r.torrent_id, userId: r.user_id })
    }
    if (gone.length) {
      await queuePairs(trx, gone)
      await recordOperation(
        trx,
        {
          operator: ctx.user,
          action: OperationAction.Unassign,
          targetType: 'torrent',
          targetId: torrentIds.length === 1 ? torrentIds[0] : null,
          detail: `取消分配种子 ${await torrentList(trx, torrentIds)}（${users ? names(users) : '全部用户'}）：移除 ${gone.length} 条`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return gone.length
  })
  if (removed) await relabel(ctx.services, ctx.now, ctx.log)
  return { removed }
}
