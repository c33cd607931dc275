/**
 * Whether a member's site account is gone (docs/domain.md §2, §4): the derivation (status 5) and the
 * wage engine (站点账号已删除) ask the same question here, so the two never disagree.
 *
 * NexusPHP deletes user rows (the newest cleanup destroys accounts disabled for
 * `account.destroy_disabled` days; v1.6's deleted inactive accounts). A source that mirrors the
 * site's whole users table (nexusphp: every new id each sync, the whole table once a day, deletions
 * included; demo: it writes the table itself) then has no site_users row for such a member — which
 * means the account is deleted, and pays as little as a disabled one.
 *
 * Not on SOURCE=ingest: its pushes' `users` are optional and cannot say a user was deleted, so a
 * missing row there means "never pushed", and the member is judged as before (enabled). Nor while
 * the mirror has no site user at all (before the first sync has read the users): a member added then
 * has no row yet, and nothing is known about the account.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** Sources whose site_users mirror is the site's whole users table, deletions included. */
export const wholeSiteUsersSources: readonly string[] = ['nexusphp', 'demo']

/**
 * True when a member whose site uid has no site_users row counts as deleted on the site: the source
 * (sync_state.source) mirrors the whole users table, and the mirror holds at least one site user.
 * The migration 0023 triggers queue the members this changes for (a row deleted or back, the first row).
 */
export async function siteAccountsMirrored(db: Kysely<DB>): Promise<boolean> {
  const state = await db.selectFrom('sync_state').select('source').where('id', '=', 1).executeTakeFirst()
  if (!state || !wholeSiteUsersSources.includes(state.source)) return false
  return (await db.selectFrom('site_users').select('id').limit(1).executeTakeFirst()) !== undefined
}
