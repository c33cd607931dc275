/**
 * Snatches the site re-created (migration 0037): a record whose new counters are below the ones it holds, about to be
 * overwritten by them. Noted with the new snatch's start, so the wage reader counts a snatch that began inside the
 * window from 0 — also one whose new counters outgrow the old ones before the month ends, which its two snapshots
 * cannot show.
 *
 * Not for a member whose 站点 UID changed and is not yet noted (site_uid_changes): the records then move to another
 * account, whose counters are lower for no restart (record_rebases give that baseline).
 */
import { type RawBuilder, sql } from 'kysely'
import { int } from '../db/sql-fragments'
import type { PassContext } from './context'

/** Notes the restarts among the rows of `derive_batch` that `where` (on `b`) selects, before they are written. */
export async function noteSnatchRestarts(ctx: PassContext, where: RawBuilder<unknown>): Promise<void> {
  const { db, now } = ctx
  // startdat 0 (v1.6 trackers: unknown): the new snatch began before this derivation.
  await sql`insert into snatch_restarts (record_id, started_at, noted_at)
    select r.id, coalesce((select case when s.startdat > 0 then s.startdat end from users u
        join site_snatched s on s.userid = u.site_uid and s.torrentid = b.torrent_id where u.id = b.user_id), ${int(now)}), ${int(now)}
    from derive_batch b join seed_records r on r.user_id = b.user_id and r.torrent_id = b.torrent_id
    where ${where} and (b.seed_time_sec < r.seed_time_sec or b.uploaded < r.uploaded)
      and not exists (select 1 from site_uid_changes c where c.user_id = b.user_id)
    on conflict do nothing`.execute(db)
}
