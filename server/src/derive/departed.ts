/**
 * A leaving record's upload is kept per member (migration 0040): the member's daily upload is a difference of totals
 * (stats/user.ts), and the record's history leaving the total is no negative upload.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'

/** The statement adding the `uploaded` of `rows` (user_id, uploaded: records that leave) to each member's sum. */
export function departedUploadsFrom(rows: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`insert into member_departed_uploads (user_id, uploaded)
    select r.user_id, sum(r.uploaded) from ${rows} r where r.uploaded > 0 group by r.user_id
    on conflict (user_id) do update set uploaded = member_departed_uploads.uploaded + excluded.uploaded`
}

/** Adds the `uploaded` of the records `r` that `leaving` selects (a condition over `seed_records r`), before they go. */
export async function noteDepartedUploads(db: Kysely<DB>, leaving: RawBuilder<unknown>): Promise<void> {
  await departedUploadsFrom(sql`(select r.user_id, r.uploaded from seed_records r where ${leaving})`).execute(db)
}
