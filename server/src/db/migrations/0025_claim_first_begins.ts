/**
 * A claim's `seed_time_begin` / `uploaded_begin` as they were before the site first settled it (the
 * issue: NexusPHP's own settlement wiped out the pay of the claims made during a month).
 *
 * NexusPHP notes the snatch's counters in a claim when it is made, and a claim made inside a wage
 * period is counted from them (wages/window.ts). But its monthly cron (ClaimRepository::settleUser, on
 * the 1st) sets both to the snatch's counters of that moment, with `last_settle_at` = now — the claims
 * made during the month just closed included — and the next sync copies that into site_claims, while
 * that month is always computed after its 1st: it counted from the month's end, ~0 hours. The mirror
 * keeps no history, so the begins a settlement replaces are kept here: a settlement is the update that
 * moves `last_settle_at` (NexusPHP's cron and the console's own `settleClaims` both set it with the
 * begins, in one statement); the first one the mirror sees notes the begins from before it, later ones
 * change nothing. The wage reader takes these where they exist, else the claim's own. (An update of the
 * begins alone — a source correcting what it sent — is not a settlement: the claim's values stand.)
 *
 * Written by triggers for the reason migration 0017 gives: whatever writes the mirror (any source), in
 * the writer's transaction; once per claim, at its first settlement, never for the inserts of a first
 * import. Rows are matched by the claim's id *and* created_at: a claim the site deletes and makes
 * again — even under the same id — is another claim. Rows of deleted claims stay (a few a month, never
 * matched again).
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull } from './helpers'

/** What both dialects' triggers run (`old` = the claim before the settlement). */
const keepFirstBegins = `insert into claim_first_begins (claim_id, created_at, seed_time_begin, uploaded_begin)
  values (old.id, old.created_at, old.seed_time_begin, old.uploaded_begin)
  on conflict (claim_id) do update set created_at = excluded.created_at, seed_time_begin = excluded.seed_time_begin,
    uploaded_begin = excluded.uploaded_begin
  where claim_first_begins.created_at <> excluded.created_at;`

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('claim_first_begins')
        .addColumn('claim_id', 'bigint', (col) => col.primaryKey())
        .addColumn('created_at', epochMs, notNull)
        .addColumn('seed_time_begin', 'bigint', notNull)
        .addColumn('uploaded_begin', 'bigint', notNull)
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()
      if (!pg) {
        await sql
          .raw(
            `create trigger site_claims_first_begins after update of last_settle_at on site_claims
            when old.last_settle_at is not new.last_settle_at begin ${keepFirstBegins} end`,
          )
          .execute(db)
        return
      }
      await sql
        .raw(
          `create function site_claims_first_begins() returns trigger language plpgsql as $$ begin ${keepFirstBegins} return null; end $$`,
        )
        .execute(db)
      await sql`create trigger site_claims_first_begins after update of last_settle_at on site_claims
        for each row when (old.last_settle_at is distinct from new.last_settle_at) execute function site_claims_first_begins()`.execute(db)
    },
    async down(db: Kysely<any>) {
      if (pg) {
        await sql`drop trigger if exists site_claims_first_begins on site_claims`.execute(db)
        await sql`drop function if exists site_claims_first_begins()`.execute(db)
      } else await sql`drop trigger if exists site_claims_first_begins`.execute(db)
      await db.schema.dropTable('claim_first_begins').execute()
    },
  }
}
