/** What the steps over members' rows share: their source tables, uid columns, and the filter of changed rows. */
import { sql } from 'kysely'
import { laravelTimestampBound, tableSpecs } from '../reader'
import type { SourceTable } from '../schema-check'
import { fromUnix, type SyncSession } from './session'
import type { PairTable } from './state'

export type ChangedFilter = { where: string; values: unknown[] }
export type ScanTable = 'site_peers' | 'site_snatched' | 'site_claims'

export const sourceOf = (table: PairTable): SourceTable => (table === 'owned' ? 'torrents' : tableSpecs[table].source)

/**
 * The source filter of rows changed since `since` (ms), or null when the table cannot tell. Claims:
 * their times compared as Laravel stored them (reader.ts `laravelTimestamp`), and every claim past the
 * mirror's newest id besides — a new claim is found even should its times still be read wrong.
 */
export async function changedSince(s: SyncSession, table: PairTable, since: number): Promise<ChangedFilter | null> {
  const t = fromUnix(since)
  if (table === 'site_peers' || table === 'site_snatched') return { where: 'last_action >= FROM_UNIXTIME(?)', values: [t] }
  if (table === 'site_claims') {
    const columns = s.schema.claims
    if (!columns.has('updated_at')) return null
    const stored = (column: string) => (columns.get(column) === 'timestamp' ? laravelTimestampBound : 'FROM_UNIXTIME(?)')
    const created = columns.has('created_at') ? ` OR created_at >= ${stored('created_at')}` : ''
    const newest = await s.once('claims: mirror newest id', async () =>
      Number((await sql<{ m: number | null }>`select max(id) as m from site_claims`.execute(s.db)).rows[0]?.m ?? 0),
    )
    return {
      where: `(id > ? OR updated_at >= ${stored('updated_at')} OR updated_at IS NULL${created})`,
      values: created ? [newest, t, t] : [newest, t],
    }
  }
  return null
}

export const uidColumn = (table: PairTable) => (table === 'owned' ? 'owner' : table === 'site_claims' ? 'uid' : 'userid')

/** The distinct uids of a page (whose records to queue). */
export const uidsOf = (rows: readonly unknown[], col: string) => [...new Set(rows.map((r) => Number((r as Record<string, unknown>)[col])))]
