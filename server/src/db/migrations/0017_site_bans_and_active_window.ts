/**
 * What the site's bans, cross-seeded snatches and NexusPHP's peer lifetime change in the derivation
 * (domain.md §2–§3, issue 11 items 5–7):
 *
 * - `torrent_labels.banned`: the site's ban as of the last pass. A ban makes a torrent unofficial by
 *   rule and its claimed seeders 无工资, so a change of it must re-judge the torrent's records; the
 *   incremental pass sees that by comparing this copy with the mirror (derive/torrent-labels.ts).
 * - A change of a site account's `enabled` re-judges its member's records (disabled → 无工资). The
 *   triggers queue it whatever writes the mirror (any source, upsert or bulk load), in the writer's
 *   transaction — the same contract as the queue rows the sources write themselves (derive/queue.ts).
 * - The default active window went from 60 to 80 minutes (NexusPHP keeps a peer 1.3 × its longest
 *   announce interval = 78 min). A site whose rules never left the shipped 60 gets a new rule version
 *   with 80, logged as a change by the system; any other value was an admin's choice and stays.
 *   (Fresh installs have no rule version yet here: version 1 is written later with the new default.)
 * - The status rules themselves changed, so the next pass judges everything.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

const OLD_WINDOW = 60
const NEW_WINDOW = 80

/** `derive_queue` rows (member, all torrents) for the members of site account `uid`. */
const queueMembersOf = (uid: string) =>
  `insert into derive_queue (user_id, torrent_id) select id, cast(null as integer) from users where site_uid = ${uid};`

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('torrent_labels')
        .addColumn('banned', 'smallint', (col) => col.notNull().defaultTo(0))
        .execute()
      await createEnabledTriggers(db, dialect)
      await raiseUntouchedActiveWindow(db)
      await sql`update sync_state set derived_rules_version = null`.execute(db)
    },
    async down(db: Kysely<any>) {
      if (dialect === 'sqlite') {
        for (const suffix of ['ai', 'au', 'ad']) await sql.raw(`drop trigger if exists site_users_enabled_${suffix}`).execute(db)
      } else {
        await sql`drop trigger if exists site_users_enabled_queue on site_users`.execute(db)
        await sql`drop trigger if exists site_users_enabled_queue_ins on site_users`.execute(db)
        await sql`drop trigger if exists site_users_enabled_queue_del on site_users`.execute(db)
        await sql`drop function if exists site_users_enabled_queue()`.execute(db)
      }
      await db.schema.alterTable('torrent_labels').dropColumn('banned').execute()
      // The rule version stays: it is history, and rules are only ever added.
    },
  }
}

/**
 * Only real changes queue: an update that keeps `enabled`, and a new or removed account that is
 * enabled, concern no status. (SQLite's bulk loads drop and restore these with the table's other
 * triggers, db/bulk.ts; a load is followed by a full pass.)
 */
async function createEnabledTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger site_users_enabled_ai after insert on site_users when new.enabled = 0
      begin ${queueMembersOf('new.id')} end`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger site_users_enabled_au after update of enabled on site_users when old.enabled is not new.enabled
      begin ${queueMembersOf('new.id')} end`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger site_users_enabled_ad after delete on site_users when old.enabled = 0
      begin ${queueMembersOf('old.id')} end`,
      )
      .execute(db)
    return
  }
  await sql
    .raw(
      `create function site_users_enabled_queue() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then ${queueMembersOf('old.id')} else ${queueMembersOf('new.id')} end if;
      return null;
    end $$`,
    )
    .execute(db)
  await sql`create trigger site_users_enabled_queue after update of enabled on site_users
    for each row when (old.enabled is distinct from new.enabled) execute function site_users_enabled_queue()`.execute(db)
  await sql`create trigger site_users_enabled_queue_ins after insert on site_users
    for each row when (new.enabled = 0) execute function site_users_enabled_queue()`.execute(db)
  await sql`create trigger site_users_enabled_queue_del after delete on site_users
    for each row when (old.enabled = 0) execute function site_users_enabled_queue()`.execute(db)
}

/** A new rule version with the 80-minute window, when no version ever had anything but the old default. */
async function raiseUntouchedActiveWindow(db: Kysely<any>): Promise<void> {
  const versions = await db.selectFrom('rule_versions').select(['version', 'rules']).orderBy('version').execute()
  if (versions.length === 0) return
  const bodies = versions.map((v) => JSON.parse(String(v.rules)) as Record<string, unknown>)
  if (!bodies.every((b) => b.activeWindowMinutes === undefined || b.activeWindowMinutes === OLD_WINDOW)) return
  const last = versions[versions.length - 1]
  const version = Number(last.version) + 1
  const now = Date.now()
  await db
    .insertInto('rule_versions')
    .values({
      version,
      rules: JSON.stringify({ ...bodies[bodies.length - 1], activeWindowMinutes: NEW_WINDOW }),
      created_at: now,
      created_by: null,
    })
    .execute()
  await db
    .insertInto('operation_log')
    .values({
      at: now,
      operator_id: null,
      operator_name: 'system',
      action: 'config.rules',
      target_type: 'rules',
      target_id: String(version),
      detail: `版本 ${last.version} → ${version}：活跃判定窗口（分钟）：${OLD_WINDOW} → ${NEW_WINDOW}（系统升级：NexusPHP 保留一个 peer 约 78 分钟，窗口须更长，每小时汇报一次的保种员才不会被误判为已停止）`,
      ip: '',
    })
    .execute()
}
