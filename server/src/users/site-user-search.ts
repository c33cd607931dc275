/**
 * The member form's site-user picker: site users (the synced mirror's site_users) by uid or name,
 * each with the console account already tied to it (and its role: an admin's uid is named as such).
 */
import { type Kysely, sql } from 'kysely'
import type { SiteUserOption } from '@shared/entities'
import type { AccountStatus, Role } from '@shared/enums'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { escapeLike, foldCase } from '../db/sql-fragments'

export const SITE_USER_LIMIT = 20
const MAX_UID = 2_147_483_647

const casedBeyondAscii = (text: string) => [...text].some((c) => c.codePointAt(0)! > 0x7f && c.toLowerCase() !== c.toUpperCase())

/**
 * SQLite's LIKE ignores ASCII case and uses the NOCASE index; PostgreSQL compares lower() with a lower-cased pattern
 * through the text_pattern_ops index. A keyword with cased letters beyond ASCII (Ü, Ё, Σ), which SQLite's LIKE would
 * match by case, is compared folded there too (foldCase): a scan, stopped at the limit.
 */
function likeParts(dialect: DialectName, text: string) {
  const folded = dialect === 'postgres' || casedBeyondAscii(text)
  const username = sql.ref('username')
  const literal = escapeLike(text)
  // The pattern is folded by the database too, as the names are: JavaScript's toLowerCase and PostgreSQL's lower()
  // disagree on a final Σ (σ/ς) and on İ, and `ΟΔΟΣ` did not find the site user ΟΔΟΣ.
  const pattern = (like: string) => (folded ? foldCase(dialect, sql`${like}`) : sql`${like}`)
  return {
    name: folded ? foldCase(dialect, username) : sql<string>`username`,
    prefix: pattern(`${literal}%`),
    contains: pattern(`%${literal}%`),
    order: folded ? foldCase(dialect, username) : sql`username collate nocase`,
  }
}

/** Names starting with `text`, in name order: a range scan of site_users_username_prefix_idx. */
export function prefixMatches(db: Kysely<DB>, dialect: DialectName, text: string, limit: number) {
  const { name, prefix, order } = likeParts(dialect, text)
  return db
    .selectFrom('site_users')
    .select(['id', 'username'])
    .where(sql<boolean>`${name} like ${prefix} escape '\\'`)
    .orderBy(order)
    .orderBy('id')
    .limit(limit)
}

/** Names containing `text` but not starting with it (those came first): a scan, stopped at `limit`. */
function containsMatches(db: Kysely<DB>, dialect: DialectName, text: string, limit: number) {
  const { name, prefix, contains } = likeParts(dialect, text)
  return db
    .selectFrom('site_users')
    .select(['id', 'username'])
    .where(sql<boolean>`${name} like ${contains} escape '\\'`)
    .where(sql<boolean>`not (${name} like ${prefix} escape '\\')`)
    .limit(limit)
}

/**
 * Up to 20 site users for `keyword`: the user whose uid it is (when it is a number), then names
 * starting with it (index range scan, migration 0008, in name order), then names containing it
 * (a scan that stops at the 20th match). Case-insensitive.
 */
export async function searchSiteUsers(
  db: Kysely<DB>,
  dialect: DialectName,
  keyword: string,
  limit = SITE_USER_LIMIT,
): Promise<SiteUserOption[]> {
  const text = keyword.trim()
  if (!text) return []
  const found: { id: number; username: string }[] = []
  const seen = new Set<number>()
  const take = (rows: { id: number | string; username: string }[]) => {
    for (const row of rows) {
      const id = Number(row.id)
      if (seen.has(id) || found.length >= limit) continue
      seen.add(id)
      found.push({ id, username: row.username })
    }
  }

  if (/^\d{1,10}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_UID) {
    take(await db.selectFrom('site_users').select(['id', 'username']).where('id', '=', Number(text)).execute())
  }

  if (found.length < limit) take(await prefixMatches(db, dialect, text, limit).execute())
  if (found.length < limit) {
    const rows = await containsMatches(db, dialect, text, limit).execute()
    // The scan returns them in storage order; shown in name order like the prefix matches.
    take(rows.sort((a, b) => a.username.localeCompare(b.username) || Number(a.id) - Number(b.id)))
  }
  if (!found.length) return []

  // The console member tied to each site user (site uids are unique among members, deleted ones included).
  const members = await db
    .selectFrom('users')
    .select(['id', 'site_uid', 'role', 'status'])
    .where(
      'site_uid',
      'in',
      found.map((u) => u.id),
    )
    .orderBy('id')
    .execute()
  const memberOf = new Map<number, { id: number; role: Role; status: AccountStatus }>()
  for (const m of members)
    if (m.site_uid !== null && !memberOf.has(Number(m.site_uid)))
      memberOf.set(Number(m.site_uid), { id: m.id, role: m.role, status: m.status as AccountStatus })
  return found.map((u) => {
    const member = memberOf.get(u.id)
    return {
      uid: u.id,
      username: u.username,
      memberId: member?.id ?? null,
      memberRole: member?.role ?? null,
      memberStatus: member?.status ?? null,
    }
  })
}
