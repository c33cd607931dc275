/** A source of site data (the demo, a NexusPHP database, pushes): brings the mirror up to a sync time and queues what changed. */
import type { SyncProgress } from '@shared/entities'
import type { SourceKind } from '../config'
import type { AppDatabase } from '../db/database'
import type { Rules } from '../rules/rules'

export interface SourceSyncContext {
  database: AppDatabase
  /** The sync time ("active" is judged against it). */
  now: number
  rules: Rules
  /** Tells /sync/status what the sync is reading now (cheap; call it per batch). */
  progress(progress: SyncProgress): void
}

export interface Source {
  kind: SourceKind
  /**
   * The source's own clock, when it has one: the sync time is then the source database's NOW(),
   * not this server's: peers' last_action is the site's clock, and "active" compares with it, so a
   * server clock that runs ahead or behind must not make peers look stale or fresh.
   */
  clock?(): Promise<number>
  /** Updates the mirror; returns rows written per table (shown by /sync/status). */
  sync(ctx: SourceSyncContext): Promise<Record<string, number>>
  /** Releases connections (server shutdown). */
  close?(): Promise<void>
  /** What /data-sync shows of the site besides the sync (NexusPHP: its time zone and peer lifetime). */
  site?(): SourceSite
}

/** The site as the source last read it (`SyncSite` without the rules' part). */
export interface SourceSite {
  timeZone: string
  /** The site's own peer lifetime, minutes; null until read, or when unreadable. */
  peerLifetimeMinutes: number | null
  /** The site's own wage settings; null until read, or when unreadable. */
  wage?: SiteWageSettings | null
  /** What syncs had to change in the site's rows to store them (values no real row can mean), recent ones. */
  dataNotes?: SiteDataNote[]
}

/** A kind of value a sync could not store as the site holds it, and in how many rows it met it last. */
export interface SiteDataNote {
  message: string
  rows: number
}

/** The rule fields a NexusPHP site has a setting of its own for (bonus formula, claim settlement). */
export type SiteWageField =
  | 't0Weeks'
  | 'n0'
  | 'b0'
  | 'l'
  | 'perSeeding'
  | 'maxSeeding'
  | 'standardSeedHours'
  | 'standardUploadedTimes'
  | 'multiplier'
  | 'claimRemoveDeduction'

export interface SiteWageSettings {
  /** The site's value of each rule field (NexusPHP's default where the site has no row), and the setting it is read from. */
  values: Record<SiteWageField, { setting: string; value: number }>
  /** `bonus.min_size` (bytes; 0 = none): smaller torrents earn no bonus — the rules have no such field. */
  minSizeBytes: number
  /** `bonus.zero_bonus_tag` is set: that tag's torrents count at `bonus.zero_bonus_factor` — no such field either. */
  zeroBonusTag: boolean
}

/**
 * A source that brings nothing itself (SOURCE=ingest: the trackers push into the mirror through
 * /ingest/snapshot). The sync still runs the derivation, so statuses still age with time.
 */
export function idleSource(kind: SourceKind): Source {
  return { kind, sync: async () => ({}) }
}
