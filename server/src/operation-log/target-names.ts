/**
 * The names of operation-log targets, resolved when the log is read (a user renamed since shows
 * their name now; the id stays in the row): users by username, torrents by the mirror's name.
 * A target gone since (a torrent no longer on the site) has no name.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

interface Target {
  targetType: string
  targetId: string | null
}

/** Ids of this type that are whole positive numbers (a target id is text in the log). */
function idsOf(rows: readonly Target[], type: string): number[] {
  const ids = rows
    .filter((r) => r.targetType === type && r.targetId !== null && /^\d{1,15}$/.test(r.targetId))
    .map((r) => Number(r.targetId))
  return [...new Set(ids)]
}

/** `type:id` → name, for the user and torrent targets of one page (≤ 200 rows: two small lookups). */
export async function targetNames(db: Kysely<DB>, rows: readonly Target[]): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  const users = idsOf(rows, 'user')
  if (users.length) {
    for (const u of await db.selectFrom('users').select(['id', 'username']).where('id', 'in', users).execute())
      names.set(`user:${u.id}`, u.username)
  }
  const torrents = idsOf(rows, 'torrent')
  if (torrents.length) {
    for (const t of await db.selectFrom('site_torrents').select(['id', 'name']).where('id', 'in', torrents).execute())
      names.set(`torrent:${t.id}`, t.name)
  }
  return names
}
