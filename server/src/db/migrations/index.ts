/**
 * Every migration, in order. A static map (not a folder scan) so that it survives bundling.
 * Add a file `NNNN_name.ts` and one line here; never edit a migration that has shipped.
 */
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import m0001 from './0001_users_sessions'
import m0002 from './0002_seeding_data'
import m0004 from './0004_wages'
import m0005 from './0005_torrent_record_counts'
import m0006 from './0006_member_activity_index'
import m0007 from './0007_torrent_activity_index'
import m0008 from './0008_site_user_search'
import m0009 from './0009_wage_item_sets'
import m0010 from './0010_deferred_definitions'
import m0011 from './0011_mirror_rowid_keys'
import m0012 from './0012_torrent_name_trigger_when_changed'
import m0013 from './0013_site_peers_user_key'
import m0014 from './0014_wage_baselines'
import m0015 from './0015_payout_ledger'
import m0017 from './0017_site_bans_and_active_window'
import m0019 from './0019_login_attempts'
import m0020 from './0020_torrent_labels_name_trgm'
import m0021 from './0021_stats_cache_revision'
import m0022 from './0022_torrent_labels_stats_index'
import m0023 from './0023_site_account_deleted'
import m0025 from './0025_claim_first_begins'
import m0026 from './0026_device_keys'
import m0027 from './0027_payout_credit_sent'
import m0028 from './0028_snatch_start_unknown'
import m0029 from './0029_payout_claims_sent'
import m0030 from './0030_payout_claims_plan'
import m0031 from './0031_torrent_seeder_snapshots'
import m0032 from './0032_webhook_delivery_body'
import m0033 from './0033_uploader_keepers'
import m0034 from './0034_ingest_deletions'
import m0035 from './0035_month_end_ties'
import m0036 from './0036_site_uid_rebases'
import m0037 from './0037_snatch_restarts'
import m0038 from './0038_month_end_accounts'
import m0039 from './0039_inactive_member_keepers'
import m0040 from './0040_member_departed_uploads'
import m0041 from './0041_month_end_claim_ids'

export function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_users_sessions': m0001(dialect),
    '0002_seeding_data': m0002(dialect),
    '0004_wages': m0004(dialect),
    '0005_torrent_record_counts': m0005(dialect),
    '0006_member_activity_index': m0006(dialect),
    '0007_torrent_activity_index': m0007(dialect),
    '0008_site_user_search': m0008(dialect),
    '0009_wage_item_sets': m0009(dialect),
    '0010_deferred_definitions': m0010(dialect),
    '0011_mirror_rowid_keys': m0011(dialect),
    '0012_torrent_name_trigger_when_changed': m0012(dialect),
    '0013_site_peers_user_key': m0013(dialect),
    '0014_wage_baselines': m0014(dialect),
    '0015_payout_ledger': m0015(dialect),
    '0017_site_bans_and_active_window': m0017(dialect),
    '0019_login_attempts': m0019(dialect),
    '0020_torrent_labels_name_trgm': m0020(dialect),
    '0021_stats_cache_revision': m0021(dialect),
    '0022_torrent_labels_stats_index': m0022(dialect),
    '0023_site_account_deleted': m0023(dialect),
    '0025_claim_first_begins': m0025(dialect),
    '0026_device_keys': m0026(dialect),
    '0027_payout_credit_sent': m0027(dialect),
    '0028_snatch_start_unknown': m0028(dialect),
    '0029_payout_claims_sent': m0029(dialect),
    '0030_payout_claims_plan': m0030(dialect),
    '0031_torrent_seeder_snapshots': m0031(dialect),
    '0032_webhook_delivery_body': m0032(dialect),
    '0033_uploader_keepers': m0033(dialect),
    '0034_ingest_deletions': m0034(dialect),
    '0035_month_end_ties': m0035(dialect),
    '0036_site_uid_rebases': m0036(dialect),
    '0037_snatch_restarts': m0037(dialect),
    '0038_month_end_accounts': m0038(dialect),
    '0039_inactive_member_keepers': m0039(dialect),
    '0040_member_departed_uploads': m0040(dialect),
    '0041_month_end_claim_ids': m0041(dialect),
  }
}
