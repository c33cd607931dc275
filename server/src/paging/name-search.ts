/**
 * "Name contains" over the torrents of the mirror, as a subquery of matching torrent ids.
 * SQLite: the FTS5 trigram index (substring match, case-insensitive) for 3+ characters; shorter
 * text cannot form a trigram and scans the names. PostgreSQL: ILIKE, which the pg_trgm GIN index
 * serves for 3+ characters (a plain scan where the extension was not available).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'
import type { DialectName } from '../db/database'
import { likeContains } from '../db/sql-fragments'

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
  // One search, one pass: count, sum and (used only when few) the ids. Materialized: otherwise
  // PostgreSQL may walk the torrents in id order testing the name on each (a parallel scan,
  // ~200 ms) instead of asking the trigram index (~20 ms).
  const ids = dialect === 'postgres' ? sql`array_agg(torrent_id)` : sql`json_group_array(torrent_id)`
  const { rows } = await sql<{
    torrents: number
    records: number | null
    ids: number[] | string | null
  }>`with m as materialized (${torrentIdsNamed(dialect, text)})
    select count(*) as torrents, sum(records) as records, case when count(*) <= ${NAME_IDS_KEPT} then ${ids} end as ids
    from torrent_labels where torrent_id in (select id from m) and records > 0`.execute(db)
  const row = rows[0]
  const list = row.ids === null ? null : typeof row.ids === 'string' ? (JSON.parse(row.ids) as number[]) : row.ids.map(Number)
  return { torrents: Number(row.torrents), records: Number(row.records ?? 0), ids: list }
}

/** `column in (ids)` with the list as one parameter (SQLite: a JSON array; PostgreSQL: an int array). */
export function inIdList(dialect: DialectName, column: RawBuilder<unknown>, ids: readonly number[]): RawBuilder<boolean> {
  if (ids.length === 0) return sql<boolean>`1 = 0`
  return dialect === 'postgres'
    ? sql<boolean>`${column} = any(cast(${`{${ids.join(',')}}`} as integer[]))`
    : sql<boolean>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
}
