/**
 * What a NexusPHP sync remembers between runs (sync_state.source_state): watermarks, rolling
 * cursors and the resumable pass over members' rows — and the tuning of page sizes and slices.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/schema'
import { readSourceState } from '../../../db/source-state'

export interface NexusphpSyncTuning {
  /** Source rows per page (one transaction each). */
  pageRows: number
  /** A scan of members' changed rows reads this many id ranges side by side (the source pool has 2 connections; InnoDB only). */
  scanParts: number
  /** Members per IN list. */
  memberGroup: number
  /**
   * On a table with table-level locks (a v1.6 site's MyISAM and MEMORY tables), the tracker's UPDATEs wait
   * for each of our reads of it (announces stall meanwhile): a statement there covers at most this many ids of a
   * primary-key scan — on a hash-keyed table (MEMORY peers), rows of the members a statement reads (member-hash.ts).
   * A scan starts at a quarter of it (2,000 ids: 4–14 ms of MariaDB's time on the bench's shared machine) and
   * follows the site's answers from there (pace.ts)…
   */
  lockedScanIds: number
  /** …aiming at this many ms per statement… */
  lockedStatementMs: number
  /** …looks up at most this many ids by primary key… */
  lockedLookupIds: number
  /**
   * …and at most this many members through a member index: only a hash-keyed table's reads (a v1.6 site's
   * MEMORY peers), and fewer where their rows in the mirror exceed the table's paced span (member-hash.ts: a
   * statement there reads every row of its members; a member heavier than the span, or never read, alone).
   * A MyISAM table is never read through its member index: the index does not carry the id, so a read in
   * (uid, id) order sorts every remaining row of its members for each page (~10,000 snatches a member) — a
   * later member's backfill scans by primary key there (member-index.ts).
   */
  lockedMemberGroup: number
  /** Ids per primary-key lookup. */
  idChunk: number
  /** The seeders/leechers of the torrents that can earn (N of the wages) are all checked once in this many syncs (torrent-refresh.ts). */
  countSyncs: number
  /** The rolling refresh visits every mirror torrent once in this many syncs. */
  refreshSyncs: number
  /** The same when the source has torrents.last_action (changed torrents are read every sync): edits, deletions. */
  slowRefreshSyncs: number
  /** Mirror snatches checked against the source per sync by the rolling check. */
  rollingCheckRows: number
  /** Whole users table re-read this often (ms). */
  usersRefreshMs: number
  /**
   * Overlap of the `last_action` watermark (ms). The watermark is the site database's own clock
   * (UNIX_TIMESTAMP(NOW()) read on the source), but `last_action` is stamped by the tracker's PHP clock
   * (announce.php: `$dt = date("Y-m-d H:i:s")`), not by the database: a row whose last_action was stamped before a
   * slow commit on the site, or by a PHP host whose clock runs behind the database's, can become visible after the
   * watermark was read. A minute covers such commits and NTP-kept clocks (a tracker host further behind would lose
   * announces); a wider overlap re-reads every row changed in it on each sync.
   */
  watermarkSlackMs: number
  /**
   * How far past the site database's clock a row's time may be and still be believed (ms). The tracker's
   * PHP host stamps last_action with its own clock: one that ran years ahead leaves peers the site's cleanup
   * never removes (their last_action is never older than its deadline) — they would count as seeding until
   * that date. A day also lets through a site whose PHP writes in another zone than NEXUSPHP_TIMEZONE says
   * (a setting's error, hours at most), as before.
   */
  futureToleranceMs: number
}

export const defaultTuning: NexusphpSyncTuning = {
  pageRows: 5_000,
  scanParts: 2,
  memberGroup: 500,
  lockedScanIds: 8_000,
  lockedStatementMs: 20,
  lockedLookupIds: 500,
  lockedMemberGroup: 25,
  idChunk: 2_000,
  countSyncs: 3,
  refreshSyncs: 6,
  slowRefreshSyncs: 36,
  rollingCheckRows: 20_000,
  usersRefreshMs: 24 * 3600_000,
  watermarkSlackMs: 60_000,
  futureToleranceMs: 24 * 3600_000,
}

/** Source tables of members' rows, in the order a pass visits them ('owned': members' uploads, from torrents). */
export type PairTable = 'owned' | 'site_peers' | 'site_snatched' | 'site_claims'
export const pairTables: readonly PairTable[] = ['owned', 'site_peers', 'site_snatched', 'site_claims']

/** A pass over members' rows, resumable at (table, step, uid, id). */
export interface PairPass {
  /** The source clock when the pass started: the next pass reads rows changed since then. */
  startedAt: number
  /** The members when the pass started (sorted site uids). */
  members: number[]
  table: PairTable
  /** 'new': members never read (everything); 'known': rows changed since the last pass. */
  step: 'new' | 'known'
  /** The cursor: (uid, id) of a member-index walk; a primary-key scan's id (uid 0). */
  uid: number
  id: number
}

export interface NexusphpState {
  kind: 'nexusphp'
  users: { maxId: number; refreshedAt: number | null; refresh: { afterId: number } | null }
  torrents: {
    maxId: number
    officialKey: string
    refreshAfter: number
    /** The earning torrents' counts check: the last id this pass checked (0: the next sync starts over). */
    countsAfter: number
    /** The rolling sweep of source ids below `maxId` for torrents that became relevant later (torrents.ts). */
    sweepAfter: number
    /** Every member row committed so far had its torrent looked for (else the next sync checks all rows). */
    referencedChecked: boolean
    /** Source `torrents.last_action` pass: changes since `since` (ms), resumable at `afterId`; `startedAt` becomes the next `since`. */
    changed: { since: number | null; startedAt: number | null; afterId: number }
    /**
     * The review rule the mirror's `banned` was read by (`refuses`: announce refuses torrents their review has not
     * approved), and the pass that re-reads the mirrored torrents it changes after the rule changed, resumable
     * after `recheckAfter` (null: none due). torrent-refresh.ts `settleTorrentReview`.
     */
    review: { refuses: boolean; recheckAfter: number | null }
  }
  torrentTags: { maxId: number }
  pairs: { known: number[]; since: number | null; pass: PairPass | null }
  rolling: { site_snatched: number }
  /**
   * What syncs had to change in the site's rows (reader.ts `checkSourceRows`), by message: the rows of the
   * last sync that met it, and when (sync time). A row is met again only when it changes, so each message
   * is reported for `notesKeptMs` after it was last met — not only by the one sync that met it.
   */
  notes: Record<string, { rows: number; at: number }>
}

/** How long /data-sync keeps saying what a sync changed in the site's rows. */
export const notesKeptMs = 7 * 24 * 3600_000

function initialState(): NexusphpState {
  return {
    kind: 'nexusphp',
    users: { maxId: 0, refreshedAt: null, refresh: null },
    torrents: {
      maxId: 0,
      officialKey: '',
      refreshAfter: 0,
      countsAfter: 0,
      sweepAfter: 0,
      referencedChecked: false,
      changed: { since: null, startedAt: null, afterId: 0 },
      review: { refuses: false, recheckAfter: null },
    },
    torrentTags: { maxId: 0 },
    pairs: { known: [], since: null, pass: null },
    rolling: { site_snatched: 0 },
    notes: {},
  }
}

export async function loadState(db: Kysely<DB>): Promise<NexusphpState> {
  const stored = await readSourceState<NexusphpState>(db)
  // Another source's state (e.g. the demo's) means nothing here: start over.
  if (stored.kind !== 'nexusphp') return initialState()
  const fresh = initialState()
  return {
    kind: 'nexusphp',
    users: { ...fresh.users, ...stored.users },
    torrents: { ...fresh.torrents, ...stored.torrents },
    torrentTags: { ...fresh.torrentTags, ...stored.torrentTags },
    pairs: { ...fresh.pairs, ...stored.pairs },
    rolling: { ...fresh.rolling, ...stored.rolling },
    notes: { ...stored.notes },
  }
}
