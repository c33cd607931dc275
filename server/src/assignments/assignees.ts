/**
 * What 任务分配 shows around an assignment: who each torrent is assigned to (so one member can be
 * removed from it), and the members a torrent can be assigned to, with their load.
 */
import type { Kysely } from 'kysely'
import type { Assignee, KeeperOption } from '@shared/entities'
import { AccountStatus } from '@shared/enums'
import type { DB } from '../db/schema'
import { toIso } from '../db/time'

/** The assignments of these torrents, by torrent, then username. */
export async function assigneesOf(db: Kysely<DB>, torrentIds: readonly number[]): Promise<Assignee[]> {
  const rows = await db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.torrent_id', 'a.user_id', 'u.username', 'a.assigned_at'])
    .where('a.torrent_id', 'in', [...torrentIds])
    .orderBy('a.torrent_id')
    .orderBy('u.username_lower')
    .orderBy('a.user_id')
    .execute()
  return rows.map((r) => ({ torrentId: r.torrent_id, userId: r.user_id, username: r.username, assignedAt: toIso(Number(r.assigned_at)) }))
}

/**
 * Members who can be given a torrent — status 正常 with a site uid — with `a.n`, their assignments
 * now (counted live: the picker and the automatic plan run right after changes).
 */
export function assignableMembers(db: Kysely<DB>) {
  return db
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
    .where('u.status', '=', AccountStatus.Normal)
    .where('u.site_uid', 'is not', null)
}

/**
 * The members who can keep a torrent — status 正常 with a site uid (an admin with a site uid
 * seeds too; one without can never announce) — with their load: assignments now (counted live,
 * the picker is opened right after changes) and torrents seeding (the derived figure).
 */
export async function keeperOptions(db: Kysely<DB>): Promise<KeeperOption[]> {
  const rows = await assignableMembers(db)
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
