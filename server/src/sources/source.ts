/** A source of site data (domain.md §5): brings the mirror up to a sync time and queues what changed. */
import type { SourceKind } from '../config'
import type { AppDatabase } from '../db/database'
import type { Rules } from '../rules/rules'

export interface SourceSyncContext {
  database: AppDatabase
  /** The sync time. */
  now: number
  rules: Rules
}

export interface Source {
  kind: SourceKind
  /** Updates the mirror; returns rows written per table (shown by /sync/status later). */
  sync(ctx: SourceSyncContext): Promise<Record<string, number>>
}

/**
 * A source whose connector is not built yet (nexusphp, ingest: later issues). It changes nothing,
 * but the sync still runs the derivation, so statuses still age with time.
 */
export function idleSource(kind: SourceKind): Source {
  return { kind, sync: async () => ({}) }
}
