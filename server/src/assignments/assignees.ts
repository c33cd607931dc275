/**
 * What 任务分配 shows around an assignment: who each torrent is assigned to (so one member can be
 * removed from it), and the members a torrent can be assigned to, with their load — and the rule
 * that says who those are.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Assignee, KeeperOption } from '@shared/entities'
import { AccountStatus } from '@shared/enums'
import type { DB } from '../db/schema'
import { toIso } from '../db/time'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { chunks } from '../util/chunks'
import { CHUNK } from './targets'

/** The assignments of these torrents, by torrent, then username, with each member's account status (封禁, 已删除 shown as such). */
export async function assigneesOf(db: Kysely<DB>, torrentIds: readonly number[]): Promise<Assignee[]> {
  const rows = await db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.torrent_id', 'a.user_id', 'u.username', 'u.status', 'a.assigned_at'])
    .where('a.torrent_id', 'in', [...torrentIds])
    .orderBy('a.torrent_id')
    .orderBy('u.username_lower')
    .orderBy('a.user_id')
    .execute()
  return rows.map((r) => ({
    torrentId: r.torrent_id,
    userId: r.user_id,
    username: r.username,
    status: r.status,
    assignedAt: toIso(Number(r.assigned_at)),
  }))
}

/**
 * Why a member cannot keep torrents — announce would never count their seeding — or none. The one rule
 * behind the picker (/task/members), the automatic plan and /task/assign, so the three never disagree:
 * - status 正常 here (a banned or deleted member keeps nothing for the team);
 * - a site uid (an admin without one can never announce);
 * - a site account the site's announce takes: not disabled (NexusPHP `users.enabled = no`), nor deleted
 *   where the mirror would know (domain/site-accounts.ts — as the derivation's status 5 and the wages judge it).
 */
export const Unfit = { Inactive: 1, NoSiteUid: 2, SiteDisabled: 3, SiteDeleted: 4 } as const
export type Unfit = (typeof Unfit)[keyof typeof Unfit]

/** `Unfit` of the row `u` of users as SQL (NULL = the member can keep torrents); `mirrored` = siteAccountsMirrored(). */
function unfitSql(mirrored: boolean): RawBuilder<Unfit | null> {
  return sql<Unfit | null>`(case
    when u.status <> ${sql.lit(AccountStatus.Normal)} then ${sql.lit(Unfit.Inactive)}
    when u.site_uid is null then ${sql.lit(Unfit.NoSiteUid)}
    when exists (select 1 from site_users su where su.id = u.site_uid and su.enabled = 0) then ${sql.lit(Unfit.SiteDisabled)}
    ${mirrored ? sql`when not exists (select 1 from site_users su where su.id = u.site_uid) then ${sql.lit(Unfit.SiteDeleted)}` : sql``}
  end)`
}

/** The condition "the member `u` can keep torrents" (the `Unfit` rule), for queries over users as `u`. */
export function canKeepSql(mirrored: boolean): RawBuilder<boolean> {
  return sql<boolean>`${unfitSql(mirrored)} is null`
}

/** Why each of these members cannot keep torrents (members who can are left out), by id. */
export async function unfitMembers(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, Unfit>> {
  const mirrored = await siteAccountsMirrored(db)
  const out = new Map<number, Unfit>()
  for (const part of chunks(ids, CHUNK)) {
    const rows = await db
      .selectFrom('users as u')
      .select(['u.id', unfitSql(mirrored).as('unfit')])
      .where('u.id', 'in', part)
      .execute()
    for (const r of rows) if (r.unfit !== null) out.set(r.id, Number(r.unfit) as Unfit)
  }
  return out
}

/**
 * Members who can be given a torrent (the `Unfit` rule) with `a.n`, their assignments now (counted
 * live: the picker and the automatic plan run right after changes). `mirrored` = siteAccountsMirrored().
 * Only assignments of torrents the site still has (a label): as 保种员 counts them, and as load — one of a torrent the
 * site deleted is kept (it comes back with the torrent) but is nobody's work.
 */
export function assignableMembers(db: Kysely<DB>, mirrored: boolean) {
  return db
    .selectFrom('users as u')
    .leftJoin(
      db
        .selectFrom('assignments as x')
        .innerJoin('torrent_labels as l', 'l.torrent_id', 'x.torrent_id')
        .select(['x.user_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('x.user_id')
        .as('a'),
      'a.user_id',
      'u.id',
    )
    .where(canKeepSql(mirrored))
}

/**
 * The members who can keep a torrent (the `Unfit` rule; any role: an admin with a site uid seeds too)
 * with their load: assignments now (counted live, the picker is opened right after changes) and
 * torrents seeding (the derived figure).
 */
export async function keeperOptions(db: Kysely<DB>): Promise<KeeperOption[]> {
  const rows = await assignableMembers(db, await siteAccountsMirrored(db))
    .leftJoin('member_seed_stats as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.role', 'a.n', 'm.seeding_count'])
    .orderBy('u.username_lower')
    .orderBy('u.id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    role: r.role,
    assignedCount: Number(r.n ?? 0),
    seedingCount: Number(r.seeding_count ?? 0),
  }))
}
