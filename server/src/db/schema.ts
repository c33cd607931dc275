/**
 * Kysely table types. Conventions shared by SQLite and PostgreSQL: times are integer epoch
 * milliseconds (`bigint` on PostgreSQL, parsed back into numbers), booleans are 0/1, and ids are
 * numbers. Conversion to the wire format (ISO-8601 strings) happens at the edge, never in SQL.
 * Long by design: one interface per table, all of them in one place, as the migrations leave them.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { AccountStatus, Role } from '@shared/enums'
import type { MirrorTableType } from '../sources/mirror/columns'

/** Epoch milliseconds. */
export type EpochMs = number

export interface UsersTable {
  id: Generated<number>
  username: string
  /** `username` lower-cased: usernames are unique regardless of case. */
  username_lower: string
  password_hash: string
  role: Role
  status: AccountStatus
  site_uid: number | null
  remark: Generated<string>
  created_at: EpochMs
  admin_since: EpochMs | null
  last_login_at: EpochMs | null
  updated_at: EpochMs
}

export interface SessionsTable {
  id: Generated<number>
  user_id: number
  /** sha256 hex of the token; the token itself is never stored. */
  token_hash: string
  created_at: EpochMs
  last_seen_at: EpochMs
  /** Idle deadline: last_seen_at + the idle time-out, moved forward when last_seen_at is. */
  expires_at: EpochMs
  revoked_at: EpochMs | null
  ip: string
  user_agent: string
}

/** A login's device key (auth/device-keys.ts). */
export interface DeviceKeysTable {
  id: Generated<number>
  user_id: number
  /** sha256 hex of the key; the key itself is never stored. */
  key_hash: string
  /** The last right password that came with the key (or issued it). */
  last_used_at: EpochMs
}

/** One login attempt counted against a scope (auth/login-limiter.ts). */
export interface LoginAttemptsTable {
  id: Generated<number>
  scope: string
  at: EpochMs
}

export interface OperationLogTable {
  id: Generated<number>
  at: EpochMs
  /** Null for actions of the system itself (e.g. the first-start admin). */
  operator_id: number | null
  operator_name: string
  action: string
  target_type: string
  target_id: string | null
  detail: string
  ip: string
}

// ---- Mirror of the site: its columns are listed once, in sources/mirror/columns.ts ----

export type SiteUsersTable = MirrorTableType<'site_users'>
/** Teams, categories and tags. */
export type SiteNamedTable = MirrorTableType<'site_teams'>
export type SiteTorrentsTable = MirrorTableType<'site_torrents'>
export type SiteTorrentTagsTable = MirrorTableType<'site_torrent_tags'>
export type SitePeersTable = MirrorTableType<'site_peers'>
export type SiteSnatchedTable = MirrorTableType<'site_snatched'>
export type SiteClaimsTable = MirrorTableType<'site_claims'>

// ---- System of record ----

export interface AssignmentsTable {
  id: Generated<number>
  torrent_id: number
  user_id: number
  assigned_at: EpochMs
  assigned_by: number | null
}

export interface SeedTypeOverridesTable {
  torrent_id: number
  seed_type: 1 | 2
  set_at: EpochMs
  set_by: number | null
}

export interface RuleVersionsTable {
  version: number
  /** JSON of the Rules without `version`. */
  rules: string
  created_at: EpochMs
  created_by: number | null
}

// ---- Derived ----

export interface SeedRecordsTable {
  id: Generated<number>
  user_id: number
  torrent_id: number
  status: number
  seed_type: number
  claim_state: number
  assigned: number
  seeding: number
  size: number
  uploaded: number
  downloaded: number
  seed_time_sec: number
  /** 0 = never (sort keys are never NULL). */
  last_action: EpochMs
  assigned_at: EpochMs
  claimed_at: EpochMs
  derived_at: EpochMs
}

export interface TorrentLabelsTable {
  torrent_id: number
  seed_type: number
  seed_type_source: 'rule' | 'manual'
  completion: number
  assigned: number
  keepers: number
  /** Seed records of the torrent (migration 0005). */
  records: Generated<number>
  owner: number
  /** The site's ban (`site_torrents.banned`), as of the last pass (migration 0017). */
  banned: Generated<0 | 1>
  name: string
  size: number
  added: EpochMs
  seeders: number
  leechers: number
  team: number | null
  derived_at: EpochMs
}

export interface SeedRecordCountsTable {
  /** 0 = the whole team. */
  user_id: number
  status: number
  seed_type: number
  claim_state: number
  assigned: number
  records: number
  seeding: number
  seeding_size: number
  uploaded: number
}

export interface MemberSeedStatsTable {
  user_id: number
  records: number
  seeding_count: number
  seeding_size: number
  assigned_count: number
  uploaded: number
}

/** The summed `uploaded` of a member's records when they left (migration 0040). */
export interface MemberDepartedUploadsTable {
  user_id: number
  uploaded: number
}

export interface CounterSnapshotsTable {
  /** yyyymmdd in the rules' time zone. */
  day: number
  record_id: number
  seed_time_sec: number
  uploaded: number
}

/**
 * A torrent's seeders at a month's first counter snapshot (the previous month's end, `N` of its wage): written on
 * that day only, for torrents with seed records (migration 0031).
 */
/** A peer or claim a push deleted (sources/ingest/deletions.ts), kept a week. */
export interface IngestDeletionsTable {
  table_name: 'site_peers' | 'site_claims' | 'site_torrent_tags'
  row_id: number
  /** The deleted row's last_action (peer) or updated_at (claim; epoch ms) or torrent_id (torrent tag), else the deletion's time. */
  stamp: number
  deleted_at: number
}

export interface TorrentSeederSnapshotsTable {
  /** yyyymmdd in the rules' time zone: a day of counter_snapshots. */
  day: number
  torrent_id: number
  seeders: number
  /** The torrent then (migration 0035); null in rows written before it. */
  name: string | null
  size: number | null
  added: number | null
  seed_type: number | null
  banned: number | null
}

/** A member's 站点 UID change whose records' counters no sync has noted yet (migration 0036). */
export interface SiteUidChangesTable {
  user_id: number
  changed_at: number
  /** The UID before the change (null: none). */
  from_uid: number | null
}

/** A record's counters at the first sync after its member's 站点 UID changed (migration 0036). */
export interface RecordRebasesTable {
  record_id: number
  /** When the UID changed (epoch ms). */
  rebased_at: number
  seed_time_sec: number
  uploaded: number
  /** The last snapshot day taken when these counters were noted (0: none). */
  noted_before_day: number
}

/** A record whose snatch the site re-created (its counters went back), with the new snatch's start (migration 0037). */
export interface SnatchRestartsTable {
  record_id: number
  started_at: number
  noted_at: number
}

/** A member's site account at a month's first snapshot (migration 0038). */
export interface MonthEndAccountsTable {
  day: number
  user_id: number
  site_enabled: number
  site_deleted: number
}

/** A claimed or assigned record at a month's first snapshot (migration 0035): what the closing month is paid by. */
export interface MonthEndTiesTable {
  day: number
  record_id: number
  user_id: number
  torrent_id: number
  seed_type: number
  /** 1 = claimed; claimed_at 0 where the site did not date the claim. */
  claimed: number
  claimed_at: number
  /** What NexusPHP noted with the claim (claim_first_begins first), as the wage reads it for a claim made in the month. */
  claim_seed_time_begin: number | null
  claim_uploaded_begin: number | null
  /** The site's claim id (migration 0041; null in rows kept before, and where unclaimed): orders same-second claims. */
  claim_id: number | null
  /** 1 = assigned. */
  assigned: number
  assigned_at: number
}

/** A claim's begins from before its first settlement: the site's cron resets them (migration 0025). */
export interface ClaimFirstBeginsTable {
  claim_id: number
  created_at: EpochMs
  seed_time_begin: number
  uploaded_begin: number
}

export interface DailyMemberStatsTable {
  user_id: number
  day: number
  seeding_count: number
  seeding_size: number
  uploaded: number
}

export interface DailyTeamStatsTable {
  day: number
  records: number
  seeding_count: number
  seeding_size: number
  active_members: number
}

export interface StatsCacheTable {
  key: string
  payload: string
  computed_at: EpochMs
  data_version: number
  /** Raised by every refresh of the row (migration 0021). */
  revision: Generated<number>
}

export interface SyncStateTable {
  id: number
  source: string
  lock_owner: string | null
  lock_expires_at: EpochMs | null
  last_started_at: EpochMs | null
  last_finished_at: EpochMs | null
  last_error: string | null
  derived_at: EpochMs | null
  derived_rules_version: number | null
  last_snapshot_day: number | null
  data_version: Generated<number>
  rows: Generated<string>
  source_state: Generated<string>
}

export interface DeriveQueueTable {
  id: Generated<number>
  user_id: number | null
  torrent_id: number | null
}

export interface DeriveWorkTable {
  user_id: number
  torrent_id: number
}

export interface DeriveTorrentsTable {
  torrent_id: number
  records_affected: Generated<number>
}

/** Indexes and triggers a bulk load dropped, until it puts them back (migration 0010). */
export interface DeferredDefinitionsTable {
  name: string
  kind: 'index' | 'trigger'
  table_name: string
  definition: string
  /** A unique index's columns (JSON array), else null. */
  unique_columns: string | null
}

export type DeriveBatchTable = Omit<SeedRecordsTable, 'id' | 'derived_at'>

// ---- Paying into the site (migration 0015, src/payout) ----

export type PayoutState = 'pending' | 'done' | 'in_doubt' | 'failed'
export type PayoutTargetName = 'nexusphp' | 'demo' | 'webhook'

export interface PayoutLedgerTable {
  id: Generated<number>
  wage_id: number
  ledger_key: string
  period: string
  user_id: number
  site_uid: number | null
  target: PayoutTargetName
  amount: number
  state: PayoutState
  reason: string | null
  /** Decimal strings as the site shows them (NexusPHP's decimal(…,1)). */
  bonus_before: string | null
  bonus_after: string | null
  log_id: number | null
  message_id: number | null
  attempts: Generated<number>
  next_attempt_at: EpochMs | null
  created_at: EpochMs
  created_by_id: number | null
  created_by_name: string
  updated_at: EpochMs
  done_at: EpochMs | null
  settled_by_name: string | null
  /** A MyISAM attempt sent its credit (migration 0027). */
  credit_sent_at: EpochMs | null
  /** A MyISAM attempt sent its claims deduction (migration 0029). */
  claims_sent_at: EpochMs | null
  /** The claim settlement a MyISAM attempt told the member, noted before its message (migration 0030; JSON). */
  claims_plan: string | null
}

export interface PayoutWebhookDeliveriesTable {
  id: Generated<number>
  ledger_id: number
  at: EpochMs
  status: number | null
  error: string | null
  /** The request sent (migration 0032; null before): a retry of the entry sends it again. */
  body: string | null
}

export interface PayoutDemoBonusTable {
  uid: number
  bonus_tenths: number
}

export interface PayoutDemoLogsTable {
  id: Generated<number>
  uid: number
  ledger_key: string
  old_tenths: number
  value_tenths: number
  new_tenths: number
  comment: string
  subject: string
  msg: string
  at: EpochMs
}

export interface DB {
  users: UsersTable
  sessions: SessionsTable
  login_attempts: LoginAttemptsTable
  device_keys: DeviceKeysTable
  operation_log: OperationLogTable
  site_users: SiteUsersTable
  site_teams: SiteNamedTable
  site_categories: SiteNamedTable
  site_tags: SiteNamedTable
  site_torrents: SiteTorrentsTable
  site_torrent_tags: SiteTorrentTagsTable
  site_peers: SitePeersTable
  site_snatched: SiteSnatchedTable
  site_claims: SiteClaimsTable
  assignments: AssignmentsTable
  seed_type_overrides: SeedTypeOverridesTable
  rule_versions: RuleVersionsTable
  seed_records: SeedRecordsTable
  torrent_labels: TorrentLabelsTable
  seed_record_counts: SeedRecordCountsTable
  member_seed_stats: MemberSeedStatsTable
  member_departed_uploads: MemberDepartedUploadsTable
  counter_snapshots: CounterSnapshotsTable
  torrent_seeder_snapshots: TorrentSeederSnapshotsTable
  month_end_ties: MonthEndTiesTable
  month_end_accounts: MonthEndAccountsTable
  site_uid_changes: SiteUidChangesTable
  record_rebases: RecordRebasesTable
  snatch_restarts: SnatchRestartsTable
  ingest_deletions: IngestDeletionsTable
  claim_first_begins: ClaimFirstBeginsTable
  daily_member_stats: DailyMemberStatsTable
  daily_team_stats: DailyTeamStatsTable
  stats_cache: StatsCacheTable
  sync_state: SyncStateTable
  derive_queue: DeriveQueueTable
  derive_work: DeriveWorkTable
  derive_torrents: DeriveTorrentsTable
  derive_batch: DeriveBatchTable
  deferred_definitions: DeferredDefinitionsTable
  payout_ledger: PayoutLedgerTable
  payout_webhook_deliveries: PayoutWebhookDeliveriesTable
  payout_demo_bonus: PayoutDemoBonusTable
  payout_demo_logs: PayoutDemoLogsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type OperationLogRow = Selectable<OperationLogTable>
