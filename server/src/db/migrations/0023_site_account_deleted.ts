/**
 * A member whose site account the site deleted is disqualified like a disabled one (domain.md §2, §4;
 * domain/site-accounts.ts): on a source that mirrors the site's whole users table, and once the mirror
 * holds any site user, a member whose site uid has no site_users row is 无工资 / 站点账号已删除.
 *
 * So a site_users row's coming and going now changes statuses whatever its `enabled`, and the
 * incremental derivation must hear of it. Migration 0017's triggers queued a member only when a
 * *disabled* account's row was inserted or deleted; these replace them (the `enabled` update trigger
 * stays):
 *
 * - a row deleted: its members are queued (any `enabled`);
 * - a row inserted: its members are queued when it is disabled, or when the mirror already held other
 *   site users (the member was judged deleted until now);
 * - the first row into an empty mirror (the first sync) and the last row out: every member without a
 *   row is queued, since "no row" starts or stops meaning "deleted" for all of them.
 *
 * The next derivation judges everything (members whose accounts were deleted before the upgrade).
 *
 * Written as triggers for the reason 0017 gives: whatever writes the mirror (any source, upsert or
 * delete), in the writer's transaction. SQLite: row triggers (each sees the table as of its row); its
 * bulk loads drop and restore them with the table's other triggers (db/bulk.ts) and are followed by a
 * full pass. PostgreSQL: statement triggers over the statement's transition table — a page of a first
 * import (thousands of site users) costs one join, not a function call per row.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

/** `derive_queue` rows (member, all torrents) for the members of site account `uid`. */
const queueMembersOf = (uid: string) =>
  `insert into derive_queue (user_id, torrent_id) select id, cast(null as integer) from users where site_uid = ${uid};`

/** `derive_queue` rows for every member whose site uid has no site_users row. */
const queueMembersWithoutRow = `insert into derive_queue (user_id, torrent_id)
  select u.id, cast(null as integer) from users u
  where u.site_uid is not null and not exists (select 1 from site_users s where s.id = u.site_uid);`

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'sqlite') await sqliteUp(db)
      else await postgresUp(db)
      // The status rules changed (members whose accounts the site deleted before are 5 now): the next pass judges everything.
      await sql`update sync_state set derived_rules_version = null`.execute(db)
    },
    async down(db: Kysely<any>) {
      if (dialect === 'sqlite') {
        for (const name of ['site_users_present_ai', 'site_users_first_ai', 'site_users_present_ad', 'site_users_last_ad'])
          await sql.raw(`drop trigger if exists ${name}`).execute(db)
        // Migration 0017's, as it made them.
        await sql
          .raw(`create trigger site_users_enabled_ai after insert on site_users when new.enabled = 0 begin ${queueMembersOf('new.id')} end`)
          .execute(db)
        await sql
          .raw(`create trigger site_users_enabled_ad after delete on site_users when old.enabled = 0 begin ${queueMembersOf('old.id')} end`)
          .execute(db)
        return
      }
      await sql`drop trigger if exists site_users_present_ins on site_users`.execute(db)
      await sql`drop trigger if exists site_users_present_del on site_users`.execute(db)
      await sql`drop function if exists site_users_present_ins()`.execute(db)
      await sql`drop function if exists site_users_present_del()`.execute(db)
      await sql`create trigger site_users_enabled_queue_ins after insert on site_users
        for each row when (new.enabled = 0) execute function site_users_enabled_queue()`.execute(db)
      await sql`create trigger site_users_enabled_queue_del after delete on site_users
        for each row when (old.enabled = 0) execute function site_users_enabled_queue()`.execute(db)
    },
  }
}

async function sqliteUp(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists site_users_enabled_ai`.execute(db)
  await sql`drop trigger if exists site_users_enabled_ad`.execute(db)
  // A row trigger sees the table with its own row in (insert) or out (delete), and the statement's
  // earlier rows: "other rows" below means the mirror held site users before this one.
  const others = `exists (select 1 from site_users s where s.id <> new.id)`
  await sql
    .raw(
      `create trigger site_users_present_ai after insert on site_users when new.enabled = 0 or ${others}
      begin ${queueMembersOf('new.id')} end`,
    )
    .execute(db)
  await sql
    .raw(`create trigger site_users_first_ai after insert on site_users when not ${others} begin ${queueMembersWithoutRow} end`)
    .execute(db)
  await sql.raw(`create trigger site_users_present_ad after delete on site_users begin ${queueMembersOf('old.id')} end`).execute(db)
  await sql
    .raw(
      `create trigger site_users_last_ad after delete on site_users when not exists (select 1 from site_users)
      begin insert into derive_queue (user_id, torrent_id) select id, cast(null as integer) from users where site_uid is not null; end`,
    )
    .execute(db)
}

async function postgresUp(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists site_users_enabled_queue_ins on site_users`.execute(db)
  await sql`drop trigger if exists site_users_enabled_queue_del on site_users`.execute(db)
  // (site_users_enabled_queue() stays: 0017's update trigger calls it.)
  await sql
    .raw(
      `create function site_users_present_ins() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from site_users s where not exists (select 1 from arrived a where a.id = s.id)) then
        -- The mirror held site users before: every member of an arriving row was judged deleted until now.
        insert into derive_queue (user_id, torrent_id)
          select u.id, cast(null as integer) from users u join arrived a on a.id = u.site_uid;
      else
        -- The first rows into an empty mirror: disabled ones, and every member who still has none.
        insert into derive_queue (user_id, torrent_id)
          select u.id, cast(null as integer) from users u join arrived a on a.id = u.site_uid where a.enabled = 0;
        ${queueMembersWithoutRow}
      end if;
      return null;
    end $$`,
    )
    .execute(db)
  await sql`create trigger site_users_present_ins after insert on site_users
    referencing new table as arrived for each statement execute function site_users_present_ins()`.execute(db)
  await sql
    .raw(
      `create function site_users_present_del() returns trigger language plpgsql as $$
    begin
      insert into derive_queue (user_id, torrent_id)
        select u.id, cast(null as integer) from users u join gone g on g.id = u.site_uid;
      if not exists (select 1 from site_users) then
        -- The last rows out: "no row" no longer means deleted, for any member.
        insert into derive_queue (user_id, torrent_id) select id, cast(null as integer) from users where site_uid is not null;
      end if;
      return null;
    end $$`,
    )
    .execute(db)
  await sql`create trigger site_users_present_del after delete on site_users
    referencing old table as gone for each statement execute function site_users_present_del()`.execute(db)
}
