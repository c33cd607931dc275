/**
 * Seeding data: the mirror of the site, the system of record around it, and the derived tables the
 * read side serves from (docs/architecture.md "Seeding data").
 *
 * - Mirror (`site_*`): refreshed by a sync, never edited by hand. Table and column names follow
 *   NexusPHP's (domain.md §5) so that a connector maps them 1:1, and the site's own ids are kept.
 *   Conventions as everywhere: times are epoch ms, `enum('yes','no')` columns are 0/1, binary
 *   hashes are lower-case hex.
 * - System of record: assignments, manual seed-type overrides, rule versions.
 * - Derived: `seed_records` (one row per member × torrent tie, denormalised for every filter and
 *   sort of page-seed), `torrent_labels`, the count cube `seed_record_counts`, `member_seed_stats`,
 *   counter snapshots for the wage engine, daily aggregates for the charts, the statistics cache.
 * - Bookkeeping: `sync_state`, the derivation queue and its scratch tables.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  /** Scratch tables of the derivation: PostgreSQL need not WAL-log what is rebuilt on every pass. */
  const scratch = <T extends { modifyFront(s: ReturnType<typeof sql>): T }>(builder: T): T =>
    pg ? builder.modifyFront(sql`unlogged`) : builder
  /** Clustered on the primary key: SQLite stores such tables without a separate rowid b-tree. */
  const clustered = <T extends { modifyEnd(s: ReturnType<typeof sql>): T }>(builder: T): T =>
    pg ? builder : builder.modifyEnd(sql`without rowid`)

  return {
    async up(db: Kysely<any>) {
      // ---------------------------------------------------------------- mirror of the site
      await db.schema
        .createTable('site_users')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('username', 'text', notNull)
        .addColumn('class', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('enabled', 'smallint', (col) => col.notNull().defaultTo(1))
        .addColumn('status', 'text', (col) => col.notNull().defaultTo('confirmed'))
        .addColumn('added', epochMs, notNull)
        .addColumn('last_access', epochMs)
        .execute()

      for (const table of ['site_teams', 'site_categories', 'site_tags']) {
        await db.schema
          .createTable(table)
          .addColumn('id', 'integer', (col) => col.primaryKey())
          .addColumn('name', 'text', notNull)
          .addColumn('sort_index', 'integer', (col) => col.notNull().defaultTo(0))
          .execute()
      }

      await db.schema
        .createTable('site_torrents')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('info_hash', 'text', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('size', 'bigint', notNull)
        .addColumn('category', 'integer')
        .addColumn('team', 'integer')
        .addColumn('added', epochMs, notNull)
        .addColumn('seeders', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('leechers', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('times_completed', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('owner', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('visible', 'smallint', (col) => col.notNull().defaultTo(1))
        .addColumn('banned', 'smallint', (col) => col.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('site_torrents_owner_idx').on('site_torrents').column('owner').execute()

      await db.schema
        .createTable('site_torrent_tags')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('tag_id', 'integer', notNull)
        .execute()
      await db.schema
        .createIndex('site_torrent_tags_torrent_tag_key')
        .on('site_torrent_tags')
        .columns(['torrent_id', 'tag_id'])
        .unique()
        .execute()
      await db.schema.createIndex('site_torrent_tags_tag_idx').on('site_torrent_tags').column('tag_id').execute()

      await db.schema
        .createTable('site_peers')
        .addColumn('id', 'bigint', (col) => col.primaryKey())
        .addColumn('torrent', 'integer', notNull)
        .addColumn('peer_id', 'text', notNull)
        .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('port', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('uploaded', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('downloaded', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('to_go', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('seeder', 'smallint', (col) => col.notNull().defaultTo(0))
        .addColumn('started', epochMs, notNull)
        .addColumn('last_action', epochMs, notNull)
        .addColumn('prev_action', epochMs, notNull)
        .addColumn('connectable', 'smallint', (col) => col.notNull().defaultTo(1))
        .addColumn('userid', 'integer', notNull)
        .addColumn('agent', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('finishedat', epochMs)
        .execute()
      await db.schema.createIndex('site_peers_torrent_peer_key').on('site_peers').columns(['torrent', 'peer_id']).unique().execute()
      await db.schema.createIndex('site_peers_user_torrent_idx').on('site_peers').columns(['userid', 'torrent']).execute()
      // Finds the peers that crossed the active window between two syncs without changing.
      await db.schema.createIndex('site_peers_last_action_idx').on('site_peers').column('last_action').execute()

      await db.schema
        .createTable('site_snatched')
        .addColumn('id', 'bigint', (col) => col.primaryKey())
        .addColumn('torrentid', 'integer', notNull)
        .addColumn('userid', 'integer', notNull)
        .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('port', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('uploaded', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('downloaded', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('to_go', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('seedtime', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('leechtime', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('last_action', epochMs, notNull)
        .addColumn('startdat', epochMs, notNull)
        .addColumn('completedat', epochMs)
        .addColumn('finished', 'smallint', (col) => col.notNull().defaultTo(0))
        .execute()
      // NexusPHP's unique key is (torrentid, userid); ours leads with the user, which the
      // derivation's per-member batches read by.
      await db.schema.createIndex('site_snatched_user_torrent_key').on('site_snatched').columns(['userid', 'torrentid']).unique().execute()
      await db.schema.createIndex('site_snatched_torrent_idx').on('site_snatched').column('torrentid').execute()

      await db.schema
        .createTable('site_claims')
        .addColumn('id', 'bigint', (col) => col.primaryKey())
        .addColumn('uid', 'integer', notNull)
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('snatched_id', 'bigint')
        .addColumn('seed_time_begin', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('uploaded_begin', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('last_settle_at', epochMs)
        .addColumn('created_at', epochMs, notNull)
        .addColumn('updated_at', epochMs, notNull)
        .execute()
      await db.schema.createIndex('site_claims_uid_torrent_key').on('site_claims').columns(['uid', 'torrent_id']).unique().execute()
      await db.schema.createIndex('site_claims_torrent_idx').on('site_claims').column('torrent_id').execute()

      // Torrent names are searched by "contains" (page-seed torrentName, torrent.page name).
      if (pg) {
        // Trigram GIN makes ILIKE '%…%' an index lookup. The extension ships with PostgreSQL but a
        // locked-down server may refuse CREATE EXTENSION: then the search scans (slower, still correct).
        // The migration runs in a transaction, so the attempt goes in a savepoint: a refusal must not
        // abort the rest.
        await sql`savepoint pg_trgm_attempt`.execute(db)
        const created = await sql`create extension if not exists pg_trgm`.execute(db).then(
          async () => (await sql`release savepoint pg_trgm_attempt`.execute(db), true),
          async () => (await sql`rollback to savepoint pg_trgm_attempt`.execute(db), false),
        )
        if (created) await sql`create index site_torrents_name_trgm_idx on site_torrents using gin (name gin_trgm_ops)`.execute(db)
      } else {
        // FTS5 trigram index over site_torrents.name (external content: the names are stored once),
        // kept in step by triggers whoever writes the mirror.
        await sql`create virtual table site_torrents_name_fts using fts5(name, content='site_torrents', content_rowid='id', tokenize='trigram')`.execute(
          db,
        )
        await sql`create trigger site_torrents_name_fts_ai after insert on site_torrents begin
            insert into site_torrents_name_fts(rowid, name) values (new.id, new.name);
          end`.execute(db)
        await sql`create trigger site_torrents_name_fts_ad after delete on site_torrents begin
            insert into site_torrents_name_fts(site_torrents_name_fts, rowid, name) values ('delete', old.id, old.name);
          end`.execute(db)
        await sql`create trigger site_torrents_name_fts_au after update of name on site_torrents begin
            insert into site_torrents_name_fts(site_torrents_name_fts, rowid, name) values ('delete', old.id, old.name);
            insert into site_torrents_name_fts(rowid, name) values (new.id, new.name);
          end`.execute(db)
      }

      // ---------------------------------------------------------------- system of record
      await withId(db.schema.createTable('assignments'), dialect)
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('assigned_at', epochMs, notNull)
        // No foreign key: an assignment outlives the admin who made it.
        .addColumn('assigned_by', 'integer')
        .execute()
      await db.schema.createIndex('assignments_user_torrent_key').on('assignments').columns(['user_id', 'torrent_id']).unique().execute()
      await db.schema.createIndex('assignments_torrent_idx').on('assignments').column('torrent_id').execute()

      await db.schema
        .createTable('seed_type_overrides')
        .addColumn('torrent_id', 'integer', (col) => col.primaryKey())
        .addColumn('seed_type', 'smallint', (col) => col.notNull().check(sql`seed_type in (1, 2)`))
        .addColumn('set_at', epochMs, notNull)
        .addColumn('set_by', 'integer')
        .execute()

      await db.schema
        .createTable('rule_versions')
        .addColumn('version', 'integer', (col) => col.primaryKey())
        /** The Rules of api.md without `version`, as JSON. */
        .addColumn('rules', 'text', notNull)
        .addColumn('created_at', epochMs, notNull)
        .addColumn('created_by', 'integer')
        .execute()

      // ---------------------------------------------------------------- derived
      await withId(db.schema.createTable('seed_records'), dialect)
        .addColumn('user_id', 'integer', notNull)
        .addColumn('torrent_id', 'integer', notNull)
        .addColumn('status', 'smallint', (col) => col.notNull().check(sql`status between 1 and 8`))
        .addColumn('seed_type', 'smallint', (col) => col.notNull().check(sql`seed_type in (1, 2)`))
        .addColumn('claim_state', 'smallint', (col) => col.notNull().check(sql`claim_state in (1, 2)`))
        .addColumn('assigned', 'smallint', (col) => col.notNull().check(sql`assigned in (1, 2)`))
        /** 1 while the member has an active seeding peer (whatever the status says). */
        .addColumn('seeding', 'smallint', (col) => col.notNull().check(sql`seeding in (0, 1)`))
        .addColumn('size', 'bigint', notNull)
        .addColumn('uploaded', 'bigint', notNull)
        .addColumn('downloaded', 'bigint', notNull)
        .addColumn('seed_time_sec', 'bigint', notNull)
        // Sort keys are never NULL (0 = never): NULLs sort differently on SQLite and PostgreSQL,
        // and a NULL-free column keeps one index order for both directions.
        .addColumn('last_action', epochMs, notNull)
        .addColumn('assigned_at', epochMs, notNull)
        .addColumn('claimed_at', epochMs, notNull)
        .addColumn('derived_at', epochMs, notNull)
        .execute()
      const recordIndexes: [string, string[]][] = [
        ['seed_records_user_torrent_key', ['user_id', 'torrent_id']],
        // Filters that pin a member or a torrent: a member has ~10³ records, sorting them is cheap.
        ['seed_records_user_status_idx', ['user_id', 'status']],
        ['seed_records_torrent_status_idx', ['torrent_id', 'status']],
        // One index per sort (id breaks ties so that OFFSET pages are stable). Each covers its
        // own `ORDER BY x, id LIMIT … OFFSET …`, which is what makes deep pages cheap: the offset
        // is skipped inside the index and only the page's ids reach the table (deferred join).
        ['seed_records_uploaded_idx', ['uploaded', 'id']],
        ['seed_records_downloaded_idx', ['downloaded', 'id']],
        ['seed_records_seed_time_idx', ['seed_time_sec', 'id']],
        ['seed_records_last_action_idx', ['last_action', 'id']],
        ['seed_records_assigned_at_idx', ['assigned_at', 'id']],
        ['seed_records_size_idx', ['size', 'id']],
        // The status filter with the sorts people use on it (seeding/lost records by volume or age).
        ['seed_records_status_uploaded_idx', ['status', 'uploaded', 'id']],
        ['seed_records_status_last_action_idx', ['status', 'last_action', 'id']],
      ]
      for (const [name, columns] of recordIndexes) {
        const index = db.schema.createIndex(name).on('seed_records').columns(columns)
        await (name.endsWith('_key') ? index.unique() : index).execute()
      }

      await db.schema
        .createTable('torrent_labels')
        .addColumn('torrent_id', 'integer', (col) => col.primaryKey())
        .addColumn('seed_type', 'smallint', (col) => col.notNull().check(sql`seed_type in (1, 2)`))
        .addColumn('seed_type_source', 'text', (col) => col.notNull().check(sql`seed_type_source in ('rule', 'manual')`))
        .addColumn('completion', 'smallint', (col) => col.notNull().defaultTo(4))
        .addColumn('assigned', 'smallint', (col) => col.notNull().defaultTo(2))
        .addColumn('keepers', 'integer', (col) => col.notNull().defaultTo(0))
        /** The owner's site uid: a change re-judges the torrent's records (status 6). */
        .addColumn('owner', 'integer', (col) => col.notNull().defaultTo(0))
        // Copies of the mirror's sortable columns, so that filter + sort is one index walk.
        .addColumn('name', 'text', notNull)
        .addColumn('size', 'bigint', notNull)
        .addColumn('added', epochMs, notNull)
        .addColumn('seeders', 'integer', notNull)
        .addColumn('leechers', 'integer', notNull)
        .addColumn('team', 'integer')
        .addColumn('derived_at', epochMs, notNull)
        .execute()
      for (const [name, columns] of [
        ['torrent_labels_added_idx', ['added', 'torrent_id']],
        ['torrent_labels_size_idx', ['size', 'torrent_id']],
        ['torrent_labels_seeders_idx', ['seeders', 'torrent_id']],
        ['torrent_labels_leechers_idx', ['leechers', 'torrent_id']],
        ['torrent_labels_keepers_idx', ['keepers', 'torrent_id']],
        ['torrent_labels_labels_idx', ['seed_type', 'completion', 'assigned']],
        ['torrent_labels_team_idx', ['team']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('torrent_labels')
          .columns([...columns])
          .execute()
      }
      // Name order must be the same on both databases: byte order (SQLite's BINARY, PostgreSQL's "C").
      if (pg) await sql`create index torrent_labels_name_idx on torrent_labels (name collate "C", torrent_id)`.execute(db)
      else await db.schema.createIndex('torrent_labels_name_idx').on('torrent_labels').columns(['name', 'torrent_id']).execute()

      // Count cube: exact totals of page-seed for any mix of the enumerable filters are a sum over
      // at most 64 rows. user_id 0 is the whole team. Maintained by the derivation with deltas.
      await clustered(
        db.schema
          .createTable('seed_record_counts')
          .addColumn('user_id', 'integer', notNull)
          .addColumn('status', 'smallint', notNull)
          .addColumn('seed_type', 'smallint', notNull)
          .addColumn('claim_state', 'smallint', notNull)
          .addColumn('assigned', 'smallint', notNull)
          .addColumn('records', 'bigint', notNull)
          .addColumn('seeding', 'bigint', notNull)
          .addColumn('seeding_size', 'bigint', notNull)
          .addColumn('uploaded', 'bigint', notNull)
          .addPrimaryKeyConstraint('seed_record_counts_pk', ['user_id', 'status', 'seed_type', 'claim_state', 'assigned']),
      ).execute()

      await db.schema
        .createTable('member_seed_stats')
        .addColumn('user_id', 'integer', (col) => col.primaryKey())
        .addColumn('records', 'integer', notNull)
        .addColumn('seeding_count', 'integer', notNull)
        .addColumn('seeding_size', 'bigint', notNull)
        .addColumn('assigned_count', 'integer', notNull)
        .addColumn('uploaded', 'bigint', notNull)
        .execute()

      // Counter snapshots for the wage engine (src/snapshots): one row per record and snapshot day.
      await clustered(
        db.schema
          .createTable('counter_snapshots')
          /** Local date in the rules' time zone as yyyymmdd (e.g. 20260101). */
          .addColumn('day', 'integer', notNull)
          .addColumn('record_id', 'integer', notNull)
          .addColumn('seed_time_sec', 'bigint', notNull)
          .addColumn('uploaded', 'bigint', notNull)
          .addPrimaryKeyConstraint('counter_snapshots_pk', ['day', 'record_id']),
      ).execute()

      await clustered(
        db.schema
          .createTable('daily_member_stats')
          .addColumn('user_id', 'integer', notNull)
          .addColumn('day', 'integer', notNull)
          .addColumn('seeding_count', 'integer', notNull)
          .addColumn('seeding_size', 'bigint', notNull)
          /** Total uploaded of the member's records at the day's last sync (the API answers the daily gain). */
          .addColumn('uploaded', 'bigint', notNull)
          .addPrimaryKeyConstraint('daily_member_stats_pk', ['user_id', 'day']),
      ).execute()

      await db.schema
        .createTable('daily_team_stats')
        .addColumn('day', 'integer', (col) => col.primaryKey())
        .addColumn('records', 'integer', notNull)
        .addColumn('seeding_count', 'integer', notNull)
        .addColumn('seeding_size', 'bigint', notNull)
        .addColumn('active_members', 'integer', notNull)
        .execute()

      await db.schema
        .createTable('stats_cache')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('payload', 'text', notNull)
        .addColumn('computed_at', epochMs, notNull)
        .addColumn('data_version', 'bigint', notNull)
        .execute()

      // ---------------------------------------------------------------- bookkeeping
      await db.schema
        .createTable('sync_state')
        .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
        .addColumn('source', 'text', notNull)
        /** Cross-process lock: whoever holds an unexpired lease runs the sync. */
        .addColumn('lock_owner', 'text')
        .addColumn('lock_expires_at', epochMs)
        .addColumn('last_started_at', epochMs)
        .addColumn('last_finished_at', epochMs)
        .addColumn('last_error', 'text')
        /** The sync time the last derivation judged "active" against (domain.md §2). */
        .addColumn('derived_at', epochMs)
        .addColumn('derived_rules_version', 'integer')
        .addColumn('last_snapshot_day', 'integer')
        /** Bumped by every derivation commit; caches of derived figures are keyed by it. */
        .addColumn('data_version', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('rows', 'text', (col) => col.notNull().defaultTo('{}'))
        /** The source's own resume state (JSON): demo clock and seed, connector cursors. */
        .addColumn('source_state', 'text', (col) => col.notNull().defaultTo('{}'))
        .execute()

      // Work queue of the incremental derivation: writers of any input add the keys they touched,
      // in the same transaction. user_id null = every record of the torrent; torrent_id null =
      // every record of the member; both set = one record.
      await withId(db.schema.createTable('derive_queue'), dialect, 'bigint')
        .addColumn('user_id', 'integer')
        .addColumn('torrent_id', 'integer')
        .execute()

      await clustered(
        scratch(
          db.schema
            .createTable('derive_work')
            .addColumn('user_id', 'integer', notNull)
            .addColumn('torrent_id', 'integer', notNull)
            .addPrimaryKeyConstraint('derive_work_pk', ['user_id', 'torrent_id']),
        ),
      ).execute()
      await scratch(
        db.schema
          .createTable('derive_torrents')
          .addColumn('torrent_id', 'integer', (col) => col.primaryKey())
          .addColumn('records_affected', 'smallint', (col) => col.notNull().defaultTo(0)),
      ).execute()
      await clustered(
        scratch(
          db.schema
            .createTable('derive_batch')
            .addColumn('user_id', 'integer', notNull)
            .addColumn('torrent_id', 'integer', notNull)
            .addColumn('status', 'smallint', notNull)
            .addColumn('seed_type', 'smallint', notNull)
            .addColumn('claim_state', 'smallint', notNull)
            .addColumn('assigned', 'smallint', notNull)
            .addColumn('seeding', 'smallint', notNull)
            .addColumn('size', 'bigint', notNull)
            .addColumn('uploaded', 'bigint', notNull)
            .addColumn('downloaded', 'bigint', notNull)
            .addColumn('seed_time_sec', 'bigint', notNull)
            .addColumn('last_action', epochMs, notNull)
            .addColumn('assigned_at', epochMs, notNull)
            .addColumn('claimed_at', epochMs, notNull)
            .addPrimaryKeyConstraint('derive_batch_pk', ['user_id', 'torrent_id']),
        ),
      ).execute()
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'derive_batch',
        'derive_torrents',
        'derive_work',
        'derive_queue',
        'sync_state',
        'stats_cache',
        'daily_team_stats',
        'daily_member_stats',
        'counter_snapshots',
        'member_seed_stats',
        'seed_record_counts',
        'torrent_labels',
        'seed_records',
        'rule_versions',
        'seed_type_overrides',
        'assignments',
        'site_claims',
        'site_snatched',
        'site_peers',
        'site_torrent_tags',
        'site_torrents',
        'site_tags',
        'site_categories',
        'site_teams',
        'site_users',
      ]) {
        if (table === 'site_torrents' && !pg) await sql`drop table if exists site_torrents_name_fts`.execute(db)
        await db.schema.dropTable(table).ifExists().execute()
      }
    },
  }
}
