/**
 * Assignments (任务分配): manual assign/unassign and the automatic plan. Each write queues the
 * (member, torrent) pairs it touched for the derivation in the same transaction, and the caller
 * re-labels afterwards (records' assignment label, torrents' assignment label).
 *
 * Decisions:
 * - Any torrent of the mirror may be assigned (the page offers official ones) except one banned on
 *   the site: its announce is refused, nobody can keep it (domain.md §3). Members must be in status
 *   正常 (any role: an admin with a site uid may keep torrents too).
 * - One manual call assigns at most MAX_ASSIGN_PAIRS pairs (torrents × members).
 * - A call that changes nothing writes no operation-log row.
 */
import type { ExpressionBuilder, Kysely } from 'kysely'
import { keeperStatuses } from '../domain/status'
import type { AuthUser } from '../auth/sessions'
import type { DB } from '../db/schema'
import { queuePairs } from '../derive/queue'
import { badRequest, conflict, notFound } from '../errors'
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { AdminLock, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { currentRules } from '../rules/rules'
import { chunks } from '../util/chunks'

type Ctx = RequestContext<AuthUser>
export interface Pair {
  torrentId: number
  userId: number
}

export const MAX_ASSIGN_PAIRS = 20_000
/** The automatic plan's size limit per call; call again for the rest. */
export const MAX_AUTO_PAIRS = 5_000
const CHUNK = 500

export function uniqueSorted(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b)
}

/** `1, 2, 3 等 12 个` */
export function listIds(ids: readonly number[], max = 20): string {
  const shown = ids.slice(0, max).join(', ')
  return ids.length > max ? `${shown} 等 ${ids.length} 个` : shown
}

/** 404 naming the torrents of `ids` that are not in the mirror (or, with `orAssigned`, not assigned either). */
export async function assertTorrentsExist(db: Kysely<DB>, ids: readonly number[], orAssigned = false): Promise<void> {
  const found = new Set<number>()
  for (const part of chunks(ids, CHUNK)) {
    for (const row of await db.selectFrom('site_torrents').select('id').where('id', 'in', part).execute()) found.add(row.id)
    if (orAssigned) {
      for (const row of await db.selectFrom('assignments').select('torrent_id').distinct().where('torrent_id', 'in', part).execute())
        found.add(row.torrent_id)
    }
  }
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length) throw notFound(`种子不存在：${listIds(missing, 10)}`)
}

/** 409 naming the torrents of `ids` the site has banned (the mirror's current `banned`). */
async function assertNotBanned(db: Kysely<DB>, ids: readonly number[]): Promise<void> {
  const banned: number[] = []
  for (const part of chunks(ids, CHUNK)) {
    for (const row of await db
      .selectFrom('site_torrents')
      .select('id')
      .where('id', 'in', part)
      .where('banned', '=', 1)
      .orderBy('id')
      .execute())
      banned.push(row.id)
  }
  if (banned.length) throw conflict(`种子已被站点禁止，无法保种，不能分配：${listIds(banned, 10)}`)
}

/** A torrent the site has not banned (by `l.torrent_id`). */
const notBannedOnSite = (eb: ExpressionBuilder<DB & { l: DB['torrent_labels'] }, 'l'>) =>
  eb.not(eb.exists(eb.selectFrom('site_torrents as st').select('st.id').whereRef('st.id', '=', 'l.torrent_id').where('st.banned', '=', 1)))

async function usersOf(db: Kysely<DB>, ids: readonly number[]) {
  const rows = await db.selectFrom('users').select(['id', 'username', 'status']).where('id', 'in', ids).orderBy('id').execute()
  const found = new Set(rows.map((r) => r.id))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length) throw notFound(`用户不存在：${listIds(missing, 10)}`)
  return rows
}

function names(users: readonly { username: string }[], max = 10): string {
  const shown = users
    .slice(0, max)
    .map((u) => u.username)
    .join('、')
  return users.length > max ? `${shown} 等 ${users.length} 人` : shown
}

async function insertPairs(trx: Kysely<DB>, pairs: readonly Pair[], ctx: Ctx): Promise<Pair[]> {
  const created: Pair[] = []
  for (const part of chunks(pairs, CHUNK)) {
    const rows = await trx
      .insertInto('assignments')
      .values(part.map((p) => ({ torrent_id: p.torrentId, user_id: p.userId, assigned_at: ctx.now, assigned_by: ctx.user.id })))
      .onConflict((oc) => oc.columns(['user_id', 'torrent_id']).doNothing())
      .returning(['torrent_id', 'user_id'])
      .execute()
    for (const r of rows) created.push({ torrentId: r.torrent_id, userId: r.user_id })
  }
  await queuePairs(trx, created)
  return created
}

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
    const inactive = users.filter((u) => u.status !== 2)
    if (inactive.length) throw conflict(`只能分配给状态正常的用户：${names(inactive)}`)
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
          detail: `分配种子 ${listIds(torrentIds)} 给 ${names(users)}：新增 ${made.length} 条，已存在 ${total - made.length} 条`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return made.length
  })
  if (created) await relabel(ctx.services.database, ctx.now, ctx.log)
  return { created, existed: total - created }
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
          detail: `取消分配种子 ${listIds(torrentIds)}（${users ? names(users) : '全部用户'}）：移除 ${gone.length} 条`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return gone.length
  })
  if (removed) await relabel(ctx.services.database, ctx.now, ctx.log)
  return { removed }
}

/** A min-heap of members by (load, id): the least loaded member first, ties by id (deterministic). */
class LoadHeap {
  private readonly items: { id: number; load: number }[] = []

  get size(): number {
    return this.items.length
  }

  private less(a: { id: number; load: number }, b: { id: number; load: number }): boolean {
    return a.load < b.load || (a.load === b.load && a.id < b.id)
  }

  push(item: { id: number; load: number }): void {
    const h = this.items
    h.push(item)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.less(h[i], h[parent])) break
      ;[h[i], h[parent]] = [h[parent], h[i]]
      i = parent
    }
  }

  pop(): { id: number; load: number } | undefined {
    const h = this.items
    if (h.length === 0) return undefined
    const top = h[0]
    const last = h.pop()!
    if (h.length) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && this.less(h[l], h[m])) m = l
        if (r < h.length && this.less(h[r], h[m])) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m], h[i]]
        i = m
      }
    }
    return top
  }
}

/**
 * The automatic plan (deterministic: the same data gives the same plan):
 * - torrents: official (by their current label), not banned on the site, no assignment yet, fewer
 *   keepers than `perTorrent`; neediest first (fewest keepers), then by id; at most MAX_AUTO_PAIRS;
 * - members: status 正常, role 保种员, with a site uid; load = their current assignments;
 * - each torrent gets `perTorrent − keepers` members, the least loaded first (ties by id), never
 *   one who keeps it now (status 3/4); each pick adds one to that member's load;
 * - the plan stops at MAX_AUTO_PAIRS pairs.
 */
export async function autoPlan(db: Kysely<DB>, perTorrent: number): Promise<Pair[]> {
  const members = await db
    .selectFrom('users as u')
    .leftJoin(
      db
        .selectFrom('assignments')
        .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('user_id')
        .as('a'),
      'a.user_id',
      'u.id',
    )
    .select(['u.id', 'a.n'])
    .where('u.status', '=', 2)
    .where('u.role', '=', 'normal')
    .where('u.site_uid', 'is not', null)
    .orderBy('u.id')
    .execute()
  if (members.length === 0) return []

  const torrents = await candidates(db, perTorrent)
    .where(notBannedOnSite)
    .select(['l.torrent_id', 'l.keepers'])
    .orderBy('l.keepers')
    .orderBy('l.torrent_id')
    .limit(MAX_AUTO_PAIRS)
    .execute()
  if (torrents.length === 0) return []

  const keeps = new Set<string>()
  for (const part of chunks(
    torrents.map((t) => t.torrent_id),
    CHUNK,
  )) {
    const rows = await db
      .selectFrom('seed_records')
      .select(['user_id', 'torrent_id'])
      .where('torrent_id', 'in', part)
      .where('status', 'in', [...keeperStatuses])
      .execute()
    for (const r of rows) keeps.add(`${r.user_id}:${r.torrent_id}`)
  }

  const heap = new LoadHeap()
  for (const m of members) heap.push({ id: m.id, load: Number(m.n ?? 0) })
  const plan: Pair[] = []
  for (const t of torrents) {
    const need = Math.min(perTorrent - Number(t.keepers), MAX_AUTO_PAIRS - plan.length)
    if (need <= 0) {
      if (plan.length >= MAX_AUTO_PAIRS) break
      continue
    }
    const popped: { id: number; load: number }[] = []
    let picked = 0
    while (picked < need && heap.size) {
      const m = heap.pop()!
      popped.push(m)
      if (keeps.has(`${m.id}:${t.torrent_id}`)) continue
      plan.push({ torrentId: t.torrent_id, userId: m.id })
      m.load++
      picked++
    }
    for (const m of popped) heap.push(m)
  }
  return plan
}

/** Official, unassigned torrents with fewer keepers than `perTorrent` (before the ban is looked at). */
function candidates(db: Kysely<DB>, perTorrent: number) {
  return db
    .selectFrom('torrent_labels as l')
    .where('l.seed_type', '=', 1)
    .where('l.keepers', '<', perTorrent)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('assignments as a').select('a.id').whereRef('a.torrent_id', '=', 'l.torrent_id'))))
}

/** How many torrents the plan left out because the site banned them (an official override keeps them official). */
async function bannedCandidates(db: Kysely<DB>, perTorrent: number): Promise<number> {
  const row = await candidates(db, perTorrent)
    .where((eb) => eb.not(notBannedOnSite(eb)))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function autoAssign(ctx: Ctx, input: { preview: boolean; perTorrent?: number }): Promise<{ plan: Pair[]; created: number }> {
  const perTorrent = input.perTorrent ?? (await currentRules(ctx.db)).targetKeepers
  if (input.preview) return { plan: await autoPlan(ctx.db, perTorrent), created: 0 }

  const result = await ctx.db.transaction().execute(async (trx) => {
    await lockFor(trx, ctx.services.database.dialect, AdminLock.assignments)
    const plan = await autoPlan(trx, perTorrent)
    const made = await insertPairs(trx, plan, ctx)
    const skipped = await bannedCandidates(trx, perTorrent)
    if (made.length) {
      const torrents = new Set(made.map((p) => p.torrentId)).size
      const members = new Set(made.map((p) => p.userId)).size
      await recordOperation(
        trx,
        {
          operator: ctx.user,
          action: OperationAction.AutoAssign,
          targetType: 'torrent',
          targetId: null,
          detail: `自动分配：${torrents} 个种子分配给 ${members} 人，共 ${made.length} 条（每个种子最多 ${perTorrent} 人${plan.length >= MAX_AUTO_PAIRS ? `，已达单次上限 ${MAX_AUTO_PAIRS} 条` : ''}）${skipped ? `；跳过站点已禁止的种子 ${skipped} 个` : ''}`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return { plan, created: made.length }
  })
  if (result.created) await relabel(ctx.services.database, ctx.now, ctx.log)
  return result
}
