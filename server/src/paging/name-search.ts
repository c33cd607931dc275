/**
 * "Name contains" over the torrents of the mirror, as a subquery of matching torrent ids.
 * SQLite: the FTS5 trigram index (substring match, case-insensitive) for 3+ characters; shorter
 * text cannot form a trigram and scans the names. PostgreSQL: ILIKE, which the pg_trgm GIN index
 * serves for 3+ characters (a plain scan where the extension was not available).
 *
 * Seed-record searches only care about torrents that have records: on PostgreSQL they search the
 * derived torrent_labels (its own copy of the name, its own trigram index, migration 0020), which
 * gives the matching torrents' record counts in the same scan.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'
import type { DialectName } from '../db/database'
import { likeContains } from '../db/sql-fragments'

/** The ids of the torrents with seed records whose name contains `text`. */
export function recordTorrentIdsNamed(dialect: DialectName, text: string): RawBuilder<number> {
  if (dialect === 'postgres') {
    return sql<number>`select torrent_id as id from torrent_labels where name ilike ${likeContains(text)} escape '\\' and records > 0`
  }
  return torrentIdsNamed(dialect, text)
}

export function torrentIdsNamed(dialect: DialectName, text: string): RawBuilder<number> {
  if (dialect === 'postgres') return sql<number>`select id from site_torrents where name ilike ${likeContains(text)} escape '\\'`
  if ([...text].length >= 3) {
    // A quoted FTS5 phrase: the text matches as is, operators and all (quotes doubled).
    return sql<number>`select rowid as id from site_torrents_name_fts where site_torrents_name_fts match ${`"${text.replace(/"/g, '""')}"`}`
  }
  return sql<number>`select id from site_torrents where name like ${likeContains(text)} escape '\\'`
}

/**
 * Above this many matching torrents (with records) a name filter counts as broad. Reading m
 * torrents' records costs ~m·(records per torrent) lookups plus a sort; walking the sort index
 * costs ~20 / (share of matching records) lookups. At 10 records per torrent they cross near a
 * few hundred torrents.
 */
export const BROAD_NAME_MATCH = 300

export interface NameMatch {
  /** Matching torrents that have seed records. */
  torrents: number
  /** Their seed records (torrent_labels.records, kept exact by the derivation). */
  records: number
  /**
   * The matching torrents' ids when there are few (≤ NAME_IDS_KEPT): the page and count queries
   * then use the list instead of running the name search again (a long phrase costs an FTS
   * query of 10–20 ms at 200,000 torrents).
   */
  ids: number[] | null
}

export const NAME_IDS_KEPT = 2000

/**
 * How many torrents and records a name matches. It decides the plan (SQLite cannot estimate an
 * FTS or LIKE match: a narrow one is best read through the torrent index, a broad one by walking
 * the sort index and testing each record's torrent), it is the exact total when the name is the
 * only filter, and for a narrow match it keeps the ids.
 */
export async function nameMatch(db: Kysely<DB>, dialect: DialectName, text: string): Promise<NameMatch> {
  // One search, one pass: count, sum and (used only when few) the ids.
  const { rows } = await sql<{
    torrents: number
    records: number | null
    ids: number[] | string | null
  }>`${dialect === 'postgres' ? postgresNameMatch(text) : sqliteNameMatch(text)}`.execute(db)
  const row = rows[0]
  const list = row.ids === null ? null : typeof row.ids === 'string' ? (JSON.parse(row.ids) as number[]) : row.ids.map(Number)
  return { torrents: Number(row.torrents), records: Number(row.records ?? 0), ids: list }
}

/** One bitmap scan of torrent_labels through its trigram index: the labels hold the name and the record count. */
function postgresNameMatch(text: string): RawBuilder<unknown> {
  return sql`select count(*) as torrents, sum(records) as records, case when count(*) <= ${NAME_IDS_KEPT} then array_agg(torrent_id) end as ids
    from torrent_labels where name ilike ${likeContains(text)} escape '\\' and records > 0`
}

/** The FTS5 search first (materialized: SQLite cannot estimate it), then each match's labels by key. */
function sqliteNameMatch(text: string): RawBuilder<unknown> {
  return sql`with m as materialized (${torrentIdsNamed('sqlite', text)})
    select count(*) as torrents, sum(records) as records, case when count(*) <= ${NAME_IDS_KEPT} then json_group_array(torrent_id) end as ids
    from torrent_labels where torrent_id in (select id from m) and records > 0`
}
