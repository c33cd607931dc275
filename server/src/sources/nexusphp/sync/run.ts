/**
 * One sync from a NexusPHP database into the mirror, read-only and only what concerns the team's
 * members and the torrents that matter to them, step by step:
 *
 * - teams, categories, tags: whole tables (small), every sync; users: new ids every sync, everything
 *   once a day (site-tables.ts);
 * - torrents that matter and their tags (torrents.ts: new ids, and a rolling sweep of older ones), kept
 *   up to date (torrent-refresh.ts) — `banned` as announce has it, review included (`settleTorrentReview`);
 * - peers, snatched, claims of members only (member-rows.ts, by member-scan.ts or member-index.ts);
 * - rows the site deleted (deletions.ts).
 *
 * Writes: rows that cannot be in the mirror yet (first import, a member's backfill) take the mirror
 * writer's bulk path (`insertMirrorFresh`), everything else the upsert.
 *
 * Every page is read first, then written in one transaction of our database together with the
 * cursor that says how far it got (sync_state.source_state): a failure keeps every committed page
 * whole and the next sync resumes from the last one. The derivation is queued by the mirror writer
 * (sources/mirror/).
 */
import { channel } from 'node:diagnostics_channel'
import { refreshPlannerStats, withDeferredIndexes } from '../../../db/bulk'
import { nextPassIsFull } from '../../mirror'
import type { SiteDataNote, SourceSyncContext } from '../../source'
import type { NexusphpConnection } from '../connection'
import { readMemberIndexes, readSourceEngines, readSourceSchema } from '../schema-check'
import type { SiteSettings } from '../site-settings'
import { readAheadDeletions, removeDeletedRows } from './deletions'
import { memberTablesEmpty, memberUids, readAheadMemberRows, syncMemberRows } from './member-rows'
import { SyncSession } from './session'
import { syncMemberAccounts, syncNamedTables, syncSiteUsers } from './site-tables'
import { defaultTuning, loadState, type NexusphpSyncTuning } from './state'
import { readAheadTorrents, refreshTorrents, settleTorrentReview } from './torrent-refresh'
import { snapshotTagWatermark, sweepOldTorrents, syncNewTorrents, syncNewTorrentTags, syncReferencedTorrents } from './torrents'

export { defaultTuning, type NexusphpSyncTuning } from './state'

/** What a finished sync publishes on the `seeding:nexusphp-sync` diagnostics channel (benchmarks and tests listen). */
export interface NexusphpSyncReport {
  rows: Record<string, number>
  /** Wall milliseconds per step ('first import' holds the steps inside it, and the index builds). */
  steps: Record<string, number>
  /** Source reads started early that a step took, step reads nobody had started, started reads no step took. */
  readAhead: { taken: number; direct: number; unused: number }
  /** Where the paced scan windows of tables with table-level locks ended, in ids (pace.ts); empty on InnoDB. */
  windows: Record<string, number>
}
const syncDone = channel('seeding:nexusphp-sync')

const bulkTables = ['site_torrents', 'site_torrent_tags', 'site_peers', 'site_snatched', 'site_claims']
/**
 * The first import keeps one index of the tables it loads: the torrent tags' unique key (writeTorrents
 * looks tags up by torrent). The members' tables' unique keys are built after the load like the other
 * indexes: kept, each page's random inserts into them dirtied thousands of index pages per commit
 * (SQLite: ~1 GB of WAL for 850,000 snatches) — rebuilt, they take a sort, and db/bulk.ts keeps the
 * newest row of a key the site re-created meanwhile.
 */
const keptDuringImport = ['site_torrent_tags_torrent_tag_key']
const keysDeferredDuringImport = new Set(['site_peers', 'site_snatched', 'site_claims'] as const)

export async function syncNexusphp(
  source: NexusphpConnection,
  ctx: SourceSyncContext,
  tuning: NexusphpSyncTuning = defaultTuning,
  /** What the site's settings say (site-settings.ts) that decides how torrents are read. */
  settings: Pick<SiteSettings, 'hidesUnapproved'> = { hidesUnapproved: null },
): Promise<{ rows: Record<string, number>; dataNotes: SiteDataNote[] }> {
  const state = await loadState(ctx.database.db)
  const s = new SyncSession(
    source,
    ctx,
    tuning,
    await readSourceSchema(source),
    await readMemberIndexes(source),
    state,
    await readSourceEngines(source),
  )
  // Before the first torrent is read: every read of this sync takes `banned` by the same rule.
  await settleTorrentReview(s, settings.hidesUnapproved)
  // Wall time per step (published with the report below).
  const steps: Record<string, number> = {}
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now()
    try {
      return await work()
    } finally {
      steps[name] = (steps[name] ?? 0) + Math.round(performance.now() - t0)
    }
  }
  await step('site tables', () => syncNamedTables(s))
  await step('site users', () => syncSiteUsers(s))
  const members = await memberUids(s)
  await step('member accounts', () => syncMemberAccounts(s, members))
  s.fullPass = await nextPassIsFull(s.db, ctx.rules.version)
  // Cleared (with the first commit) until syncReferencedTorrents has looked at this sync's rows.
  // (Mirror tables of members' rows empty at the start: every row is written in this sync, so the
  // rows noted here are all there is to look at — the first import.)
  const referencedChecked = state.torrents.referencedChecked || (await memberTablesEmpty(s))
  state.torrents.referencedChecked = false
  await snapshotTagWatermark(s)
  const firstImport = state.pairs.since === null
  s.freshTorrents = s.fullPass && firstImport
  const importing = async () => {
    await step('new torrents', () => syncNewTorrents(s, members))
    // An incremental sync reads little per step: every later step's first read starts now, and the
    // source answers them while the mirror is written (read-ahead.ts). (The first import's pages are
    // large, and read one ahead by each step.)
    if (!firstImport) {
      await step('read-ahead', async () => {
        await readAheadMemberRows(s, members)
        await readAheadTorrents(s)
        await readAheadDeletions(s, members)
      })
    }
    await step("members' rows", () => syncMemberRows(s, members))
    await step('referenced torrents', () => syncReferencedTorrents(s, referencedChecked))
    await step('new torrent tags', () => syncNewTorrentTags(s))
  }
  // The first import fills empty tables: their secondary indexes (and the torrent-name index) are
  // built once at the end instead of row by row (db/bulk.ts; see keptDuringImport).
  if (firstImport) {
    s.keysDeferred = keysDeferredDuringImport
    await step('first import', () => withDeferredIndexes(ctx.database, bulkTables, keptDuringImport, importing))
    s.keysDeferred = new Set()
    await step('planner statistics', () => refreshPlannerStats(ctx.database, bulkTables))
  } else await importing()
  s.freshTorrents = false
  await step('torrent refresh', () => refreshTorrents(s))
  await step('torrent sweep', () => sweepOldTorrents(s, members))
  await step('deleted rows', () => removeDeletedRows(s, members))
  if (syncDone.hasSubscribers)
    syncDone.publish({
      rows: s.rows,
      steps,
      readAhead: { ...s.ahead.counts, unused: s.ahead.unused },
      windows: s.pacedSpans,
    } satisfies NexusphpSyncReport)
  return { rows: s.rows, dataNotes: s.reportNotes() }
}
