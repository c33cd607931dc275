/**
 * The automatic assignment plan and its commit: official torrents short of keepers go to the
 * least loaded members. The plan is deterministic (the same data gives the same plan), so a
 * preview shows what the commit will write.
 */
import type { ExpressionBuilder, Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { AdminLock, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { OperationAction, recordOperation } from '../operation-log/record'
import { currentRules } from '../rules/rules'
import { chunks } from '../util/chunks'
import { assignableMembers, canKeepSql } from './assignees'
import { LoadHeap } from './load-heap'
import { type Ctx, insertPairs, type Pair } from './pairs'
import { CHUNK } from './targets'

/** The automatic plan's size limit per call; call again for the rest. */
export const MAX_AUTO_PAIRS = 5_000

/** A torrent the site's announce takes: not banned, nor refused for its review (by `l.torrent_id`; the mirror's `banned`). */
const notBannedOnSite = (eb: ExpressionBuilder<DB & { l: DB['torrent_labels'] }, 'l'>) =>
  eb.not(eb.exists(eb.selectFrom('site_torrents as st').select('st.id').whereRef('st.id', '=', 'l.torrent_id').where('st.banned', '=', 1)))

/**
 * The automatic plan (deterministic: the same data gives the same plan):
 * - torrents: official (by their current label), not banned on the site (nor refused for review), not assigned
 *   to anyone who can keep it (an assignment to a banned or deleted member, or one whose site account is
 *   disabled, leaves it a candidate), fewer keepers than `perTorrent`; neediest first (fewest keepers),
 *   then by id; at most MAX_AUTO_PAIRS;
 * - members: role 保种员 who can keep torrents (assignees.ts `Unfit`: status 正常, a site uid, a site
 *   account announce takes — the picker's rule); load = their current assignments;
 * - each torrent gets `perTorrent − keepers` members, the least loaded first (ties by id), never
 *   one seeding it now: an active seeding peer of theirs (the record's `seeding`), whatever its status
 *   says besides (3/4, 5 无工资, 6 发布者); each pick adds one to
 *   that member's load;
 * - the plan stops at MAX_AUTO_PAIRS pairs.
 */
export async function autoPlan(db: Kysely<DB>, perTorrent: number): Promise<Pair[]> {
  const mirrored = await siteAccountsMirrored(db)
  const members = await assignableMembers(db, mirrored).select(['u.id', 'a.n']).where('u.role', '=', 'normal').orderBy('u.id').execute()
  if (members.length === 0) return []

  const torrents = await candidates(db, perTorrent, mirrored)
    .where(notBannedOnSite)
    .select(['l.torrent_id', 'l.keepers'])
    .orderBy('l.keepers')
    .orderBy('l.torrent_id')
    .limit(MAX_AUTO_PAIRS)
    .execute()
  if (torrents.length === 0) return []

  const seeds = new Set<string>()
  for (const part of chunks(
    torrents.map((t) => t.torrent_id),
    CHUNK,
  )) {
    const rows = await db
      .selectFrom('seed_records')
      .select(['user_id', 'torrent_id'])
      .where('torrent_id', 'in', part)
      .where('seeding', '=', 1)
      .execute()
    for (const r of rows) seeds.add(`${r.user_id}:${r.torrent_id}`)
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
      if (seeds.has(`${m.id}:${t.torrent_id}`)) continue
      plan.push({ torrentId: t.torrent_id, userId: m.id })
      m.load++
      picked++
    }
    for (const m of popped) heap.push(m)
  }
  return plan
}

/**
 * Official torrents with fewer keepers than `perTorrent` and no assignment to a member who can keep them
 * (before the ban is looked at). `mirrored` = siteAccountsMirrored().
 */
function candidates(db: Kysely<DB>, perTorrent: number, mirrored: boolean) {
  return db
    .selectFrom('torrent_labels as l')
    .where('l.seed_type', '=', 1)
    .where('l.keepers', '<', perTorrent)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('assignments as a')
            .innerJoin('users as u', 'u.id', 'a.user_id')
            .select('a.id')
            .whereRef('a.torrent_id', '=', 'l.torrent_id')
            .where(canKeepSql(mirrored)),
        ),
      ),
    )
}

/** How many torrents the plan left out because the site banned them (an official override keeps them official). */
async function bannedCandidates(db: Kysely<DB>, perTorrent: number): Promise<number> {
  const row = await candidates(db, perTorrent, await siteAccountsMirrored(db))
    .where((eb) => eb.not(notBannedOnSite(eb)))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A plan pair with the names the preview shows (a torrent name from the mirror, '' when it is not there). */
export type NamedPair = Pair & { torrentName: string; username: string }

async function named(db: Kysely<DB>, plan: Pair[]): Promise<NamedPair[]> {
  const torrentNames = new Map<number, string>()
  for (const part of chunks([...new Set(plan.map((p) => p.torrentId))], CHUNK))
    for (const row of await db.selectFrom('site_torrents').select(['id', 'name']).where('id', 'in', part).execute())
      torrentNames.set(row.id, row.name)
  const usernames = new Map<number, string>()
  for (const part of chunks([...new Set(plan.map((p) => p.userId))], CHUNK))
    for (const row of await db.selectFrom('users').select(['id', 'username']).where('id', 'in', part).execute())
      usernames.set(row.id, row.username)
  return plan.map((p) => ({ ...p, torrentName: torrentNames.get(p.torrentId) ?? '', username: usernames.get(p.userId) ?? '' }))
}

export async function autoAssign(
  ctx: Ctx,
  input: { preview: boolean; perTorrent?: number },
): Promise<{ plan: NamedPair[]; created: number }> {
  const perTorrent = input.perTorrent ?? (await currentRules(ctx.db)).targetKeepers
  if (input.preview) return { plan: await named(ctx.db, await autoPlan(ctx.db, perTorrent)), created: 0 }

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
          detail: `自动分配：${torrents} 个种子分配给 ${members} 人，共 ${made.length} 条（每个种子最多 ${perTorrent} 人${plan.length >= MAX_AUTO_PAIRS ? `，已达单次上限 ${MAX_AUTO_PAIRS} 条` : ''}）${skipped ? `；跳过站点已禁止或未审核通过的种子 ${skipped} 个` : ''}`,
          ip: ctx.ip,
        },
        ctx.now,
      )
    }
    return { plan, created: made.length }
  })
  if (result.created) await relabel(ctx.services, ctx.now, ctx.log)
  return { plan: await named(ctx.db, result.plan), created: result.created }
}
