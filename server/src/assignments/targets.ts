/**
 * The torrents and members an assignment call names: de-duplicated, checked to exist (404 naming
 * the missing ones), checked to be assignable (409), and named in messages and the operation log.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { conflict, notFound } from '../errors'
import { chunks } from '../util/chunks'

/** Ids per statement when a call names many torrents. */
export const CHUNK = 500

export function uniqueSorted(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b)
}

/** `1, 2, 3 等 12 个` */
export function listIds(ids: readonly number[], max = 20): string {
  const shown = ids.slice(0, max).join(', ')
  return ids.length > max ? `${shown} 等 ${ids.length} 个` : shown
}

/**
 * `#3《name》、#4《name》 等 12 个`: the torrents as the operation log names them — the screens show names, not ids.
 * The first `max` are named (a name too long is cut); an id the mirror no longer has is given alone.
 */
export async function torrentList(db: Kysely<DB>, ids: readonly number[], max = 5): Promise<string> {
  const shown = ids.slice(0, max)
  const rows = shown.length ? await db.selectFrom('site_torrents').select(['id', 'name']).where('id', 'in', shown).execute() : []
  // Cut by characters, not UTF-16 units: an emoji is never split.
  const nameOf = new Map(rows.map((r) => [r.id, [...r.name].length > 60 ? `${[...r.name].slice(0, 59).join('')}…` : r.name]))
  const listed = shown.map((id) => (nameOf.has(id) ? `#${id}《${nameOf.get(id)}》` : `#${id}`)).join('、')
  return ids.length > max ? `${listed} 等 ${ids.length} 个` : listed
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

/**
 * 409 naming the torrents of `ids` the site's announce refuses (the mirror's current `banned`: banned on the
 * site, or not approved by its review where it hides unreviewed torrents — docs/domain.md).
 */
export async function assertNotBanned(db: Kysely<DB>, ids: readonly number[]): Promise<void> {
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
  if (banned.length) throw conflict(`种子已被站点禁止或未审核通过，无法保种，不能分配：${listIds(banned, 10)}`)
}

/** The users of `ids` (404 naming any that do not exist), in id order. */
export async function usersOf(db: Kysely<DB>, ids: readonly number[]) {
  const rows = await db.selectFrom('users').select(['id', 'username', 'status']).where('id', 'in', ids).orderBy('id').execute()
  const found = new Set(rows.map((r) => r.id))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length) throw notFound(`用户不存在：${listIds(missing, 10)}`)
  return rows
}

/** `alice、bob 等 12 人` */
export function names(users: readonly { username: string }[], max = 10): string {
  const shown = users
    .slice(0, max)
    .map((u) => u.username)
    .join('、')
  return users.length > max ? `${shown} 等 ${users.length} 人` : shown
}
