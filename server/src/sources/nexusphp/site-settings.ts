/**
 * What the site's own settings (NexusPHP `settings`, name → value) say that the console must agree with:
 *
 * - peers: a peer that stops announcing stays in `peers`, counted in `seeders`, for 1.3 ×
 *   `main.anninterthree` (its longest announce interval; `deadtime()` in include/functions.php);
 * - wages: the seeding-bonus formula (`bonus.*`, read by `calculate_seed_bonus`) and the claim settlement
 *   (`torrent.claim_*`, App\Models\Claim), which the rules' 「NexusPHP 认领结算」 promises to reproduce;
 * - torrent review: whether announce refuses torrents the review has not approved
 *   (`torrent.approval_status_none_visible`, see `hidesUnapproved`).
 *
 * Read tolerantly: the table may be missing (an older version, a fork) or not granted — the sync never
 * fails over it. A row that is absent means NexusPHP's own default.
 */
import { DEFAULT_CLAIM_REMOVE_DEDUCTION, nexusphpWageDefaults } from '@shared/entities'
import type { SiteWageField, SiteWageSettings } from '../source'
import type { NexusphpConnection } from './connection'

/** NexusPHP's own default of `main.anninterthree` when the row is absent (seconds). */
const DEFAULT_ANNINTERTHREE_SEC = 3600
/** NexusPHP keeps a silent peer this many longest announce intervals. */
const PEER_LIFE_FACTOR = 1.3

/** The wage settings of the site under the rules' field names, with NexusPHP's default of each (an absent row). */
const d = nexusphpWageDefaults
export const wageSettingNames: Record<SiteWageField, readonly [string, number]> = {
  t0Weeks: ['bonus.tzero', d.t0Weeks],
  n0: ['bonus.nzero', d.n0],
  b0: ['bonus.bzero', d.b0],
  l: ['bonus.l', d.l],
  perSeeding: ['bonus.perseeding', d.perSeeding],
  maxSeeding: ['bonus.maxseeding', d.maxSeeding],
  standardSeedHours: ['torrent.claim_reach_standard_seed_time', d.standardSeedHours],
  standardUploadedTimes: ['torrent.claim_reach_standard_uploaded', d.standardUploadedTimes],
  multiplier: ['torrent.claim_bonus_multiplier', d.multiplier],
  claimRemoveDeduction: ['torrent.claim_remove_deduct_user_bonus', DEFAULT_CLAIM_REMOVE_DEDUCTION],
}

export interface SiteSettings {
  /** The site's peer lifetime in minutes; null when its settings cannot be read. */
  peerLifetimeMinutes: number | null
  wage: SiteWageSettings | null
  /**
   * The site hides torrents its review has not approved, and its announce refuses them: the setting
   * `torrent.approval_status_none_visible` is 'no' (NexusPHP compares `get_setting(…) == 'no'`; its install
   * writes 'yes', an absent row shows them too). Null when the settings cannot be read. For the sync
   * (sync/torrent-refresh.ts `settleTorrentReview`), not shown by /data-sync.
   */
  hidesUnapproved: boolean | null
}

const PEER_LIFETIME = 'main.anninterthree'
const MIN_SIZE = 'bonus.min_size'
const ZERO_BONUS_TAG = 'bonus.zero_bonus_tag'
const UNAPPROVED_VISIBLE = 'torrent.approval_status_none_visible'
const readNames = [PEER_LIFETIME, MIN_SIZE, ZERO_BONUS_TAG, UNAPPROVED_VISIBLE, ...Object.values(wageSettingNames).map(([name]) => name)]

/** A number the site set, or the default (absent, empty or not a number: NexusPHP's get_setting falls back too). */
export function numberOr(value: string | null | undefined, fallback: number): number {
  if (value === null || value === undefined || value.trim() === '') return fallback
  const n = Number(value)
  return Number.isFinite(n) ? n : fallback
}

export async function readSiteSettings(connection: NexusphpConnection): Promise<SiteSettings> {
  let rows: { name: string; value: string | null }[]
  try {
    rows = await connection.query<{ name: string; value: string | null }>(
      `SELECT name, value FROM settings WHERE name IN (${readNames.map(() => '?').join(', ')})`,
      readNames,
      'settings',
    )
  } catch {
    return { peerLifetimeMinutes: null, wage: null, hidesUnapproved: null }
  }
  const setting = new Map(rows.map((r) => [r.name, r.value]))
  const anninterthree = numberOr(setting.get(PEER_LIFETIME), DEFAULT_ANNINTERTHREE_SEC)
  const seconds = anninterthree > 0 ? anninterthree : DEFAULT_ANNINTERTHREE_SEC
  const values = Object.fromEntries(
    Object.entries(wageSettingNames).map(([field, [name, fallback]]) => [
      field,
      { setting: name, value: numberOr(setting.get(name), fallback) },
    ]),
  ) as SiteWageSettings['values']
  return {
    peerLifetimeMinutes: Math.floor(seconds * PEER_LIFE_FACTOR) / 60,
    wage: {
      values,
      minSizeBytes: Math.max(0, numberOr(setting.get(MIN_SIZE), 0)),
      zeroBonusTag: (setting.get(ZERO_BONUS_TAG) ?? '').trim() !== '',
    },
    hidesUnapproved: setting.get(UNAPPROVED_VISIBLE) === 'no',
  }
}
