/**
 * Daily aggregates for the charts: per member (seeding count and size, total uploaded) and for the
 * whole team. Today's row is rewritten by every sync, so a past day keeps its last sync's figures.
 * They come from member_seed_stats and the count cube, not from the records: a few thousand rows.
 */
import { AccountStatus } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { addDays } from '../domain/local-day'

/** Daily rows older than this many days are deleted (the API serves at most 365). */
export const DAILY_RETENTION_DAYS = 400

export async function recordDailyStats(db: Kysely<DB>, day: number): Promise<void> {
  // The upload total counts what records that left had uploaded (derive/departed.ts): a departure is no negative upload.
  await sql`insert into daily_member_stats (user_id, day, seeding_count, seeding_size, uploaded)
    select m.user_id, ${day}, m.seeding_count, m.seeding_size, m.uploaded + coalesce(g.uploaded, 0)
    from member_seed_stats m left join member_departed_uploads g on g.user_id = m.user_id where true
    on conflict (user_id, day) do update set seeding_count = excluded.seeding_count, seeding_size = excluded.seeding_size,
      uploaded = excluded.uploaded`.execute(db)
  // A member whose last record left has no member_seed_stats row: the day it left reads 0 (the series ended on the day
  // before, still seeding — found by an outside tester). Written once, after the last day that had figures (the team's
  // days say which that was): a member gone for good does not get a row every day. The upload total is what the records
  // had uploaded when they left, so the day shows their last gains rather than the member's whole total taken back.
  const previous = await db
    .selectFrom('daily_team_stats')
    .select((eb) => eb.fn.max('day').as('day'))
    .where('day', '<', day)
    .executeTakeFirst()
  if (previous?.day != null)
    await sql`insert into daily_member_stats (user_id, day, seeding_count, seeding_size, uploaded)
      select d.user_id, ${day}, 0, 0, coalesce((select g.uploaded from member_departed_uploads g where g.user_id = u.id), d.uploaded)
      from users u join daily_member_stats d on d.user_id = u.id and d.day = ${previous.day}
      where (d.seeding_count > 0 or d.seeding_size > 0) and not exists (select 1 from member_seed_stats m where m.user_id = u.id)
      on conflict (user_id, day) do update set seeding_count = 0, seeding_size = 0, uploaded = excluded.uploaded`.execute(db)
  await sql`insert into daily_team_stats (day, records, seeding_count, seeding_size, active_members)
    select ${day},
      coalesce((select sum(records) from seed_record_counts where user_id = 0), 0),
      coalesce((select sum(seeding) from seed_record_counts where user_id = 0), 0),
      coalesce((select sum(seeding_size) from seed_record_counts where user_id = 0), 0),
      (select count(*) from member_seed_stats m join users u on u.id = m.user_id
        where m.seeding_count > 0 and u.role = 'normal' and u.status = ${sql.lit(AccountStatus.Normal)})
    where true
    on conflict (day) do update set records = excluded.records, seeding_count = excluded.seeding_count,
      seeding_size = excluded.seeding_size, active_members = excluded.active_members`.execute(db)
  const cutoff = addDays(day, -DAILY_RETENTION_DAYS)
  await db.deleteFrom('daily_member_stats').where('day', '<', cutoff).execute()
  await db.deleteFrom('daily_team_stats').where('day', '<', cutoff).execute()
}
