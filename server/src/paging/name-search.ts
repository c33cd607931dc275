/**
 * "Name contains" over the torrents of the mirror, as a subquery of matching torrent ids.
 * SQLite: the FTS5 trigram index (substring match, case-insensitive) for 3+ characters; shorter
 * text cannot form a trigram and scans the names with the same folding (foldedContains). PostgreSQL: ILIKE, which the pg_trgm GIN index
 * serves for 3+ characters (a plain scan where the extension was not available).
 *
 * Seed-record searches only care about torrents that have records: on PostgreSQL they search the
 * derived torrent_labels (its own copy of the name, its own trigram index, migration 0020), which
 * gives the matching torrents' record counts in the same scan.
 *
 * A search within one member's records tests each of their records' names instead (recordNamed):
 * the same matches, at a cost of their records, not of every torrent on the site.
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
  if (formsTrigrams(text)) {
    // A quoted FTS5 phrase: the text matches as is, operators and all (quotes doubled).
    return sql<number>`select rowid as id from site_torrents_name_fts where site_torrents_name_fts match ${`"${text.replace(/"/g, '""')}"`}`
  }
  // Shorter text scans the names, folded as the trigram search folds them (LIKE folds ASCII only: `üb` missed `Über`).
  return sql<number>`select id from site_torrents where name glob ${foldedContains(text)}`
}

/** SQLite: whether the text is long enough for the FTS5 trigram index (3 characters, as the tokenizer counts them). */
function formsTrigrams(text: string): boolean {
  return [...text].length >= 3
}

/**
 * "The name of the record's torrent (`torrentId`, a column of the record) contains `text`", tested
 * on that one row: the same matches as `r.torrent_id in (recordTorrentIdsNamed(…))`, for a query that
 * already reads few records — one member's (~10³). recordTorrentIdsNamed searches every torrent's
 * name first (40–150 ms at 200,000 torrents, per distinct text), which a member's own search must
 * not cost: this costs a primary-key read and a pattern test per record of theirs.
 *
 * The name is read by a scalar subquery, which neither planner turns into a join: with a join (or
 * an EXISTS) PostgreSQL may again choose to search all names through the trigram index first.
 */
export function recordNamed(dialect: DialectName, torrentId: RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  if (dialect === 'postgres') {
    // Same table, same condition, same ILIKE as recordTorrentIdsNamed.
    return sql<boolean>`(select name from torrent_labels where torrent_id = ${torrentId} and records > 0) ilike ${likeContains(text)} escape '\\'`
  }
  const name = sql`(select name from site_torrents where id = ${torrentId})`
  // What torrentIdsNamed would find, as a pattern on the name: the FTS5 search's folding, for short text too.
  return sql<boolean>`${name} glob ${foldedContains(text)}`
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

/**
 * A GLOB pattern for exactly the names that the FTS5 search for `text` finds (3+ characters; shorter text is matched
 * with it directly). The
 * trigram tokenizer, case-insensitive, folds the names and the text with SQLite's FTS5 case folding,
 * and the phrase matches where the folded name contains the folded text. That folding is Unicode's,
 * not LIKE's ASCII only: Ä/ä, Σ/σ/ς, Ｂ/ｂ, and K/k/K (the Kelvin sign), s/S/ſ (long s). GLOB compares
 * characters as they are, so each character of the text becomes the set of all characters that fold
 * as it does (`[Σςσ]`); one that folds alone stays itself, GLOB's own `*`, `?` and `[` bracketed.
 * (No character of a set is special in brackets: the sets hold letters and a few symbols only.)
 */
export function foldedContains(text: string): string {
  const sets = (foldSets ??= foldSetsOf())
  const chars = [...text].map((ch) => sets.get(ftsFold(ch.codePointAt(0)!)) ?? (/[*?[]/.test(ch) ? `[${ch}]` : ch))
  return `*${chars.join('')}*`
}

/**
 * SQLite's FTS5 case folding (sqlite3Fts5UnicodeFold, as the trigram tokenizer calls it: diacritics
 * kept), from fts5_unicode2.c, as [first, count, step, offset]: `count` code points from `first`,
 * every `step`-th one, fold to the code point + `offset`; every other code point folds to itself
 * (above U+FFFF only the Deseret letters fold: the last rule).
 * name-search.test.ts checks this against SQLite's own tokenizer, code point by code point.
 */
// prettier-ignore
const FTS5_FOLDS: readonly (readonly [first: number, count: number, step: number, offset: number])[] = [
  [65, 26, 1, 32], [181, 1, 1, 775], [192, 23, 1, 32], [216, 7, 1, 32], [256, 24, 2, 1], [306, 3, 2, 1], [313, 8, 2, 1], [330, 23, 2, 1],
  [376, 1, 1, -121], [377, 3, 2, 1], [383, 1, 1, -268], [385, 1, 1, 210], [386, 2, 2, 1], [390, 1, 1, 206], [391, 1, 1, 1],
  [393, 2, 1, 205], [395, 1, 1, 1], [398, 1, 1, 79], [399, 1, 1, 202], [400, 1, 1, 203], [401, 1, 1, 1], [403, 1, 1, 205], [404, 1, 1, 207],
  [406, 1, 1, 211], [407, 1, 1, 209], [408, 1, 1, 1], [412, 1, 1, 211], [413, 1, 1, 213], [415, 1, 1, 214], [416, 3, 2, 1],
  [422, 1, 1, 218], [423, 1, 1, 1], [425, 1, 1, 218], [428, 1, 1, 1], [430, 1, 1, 218], [431, 1, 1, 1], [433, 2, 1, 217], [435, 2, 2, 1],
  [439, 1, 1, 219], [440, 1, 1, 1], [444, 1, 1, 1], [452, 1, 1, 2], [453, 1, 1, 1], [455, 1, 1, 2], [456, 1, 1, 1], [458, 1, 1, 2],
  [459, 9, 2, 1], [478, 9, 2, 1], [497, 1, 1, 2], [498, 2, 2, 1], [502, 1, 1, -97], [503, 1, 1, -56], [504, 20, 2, 1], [544, 1, 1, -130],
  [546, 9, 2, 1], [570, 1, 1, 10795], [571, 1, 1, 1], [573, 1, 1, -163], [574, 1, 1, 10792], [577, 1, 1, 1], [579, 1, 1, -195],
  [580, 1, 1, 69], [581, 1, 1, 71], [582, 5, 2, 1], [837, 1, 1, 116], [880, 2, 2, 1], [886, 1, 1, 1], [902, 1, 1, 38], [904, 3, 1, 37],
  [908, 1, 1, 64], [910, 2, 1, 63], [913, 17, 1, 32], [931, 9, 1, 32], [962, 1, 1, 1], [975, 1, 1, 8], [976, 1, 1, -30], [977, 1, 1, -25],
  [981, 1, 1, -15], [982, 1, 1, -22], [984, 12, 2, 1], [1008, 1, 1, -54], [1009, 1, 1, -48], [1012, 1, 1, -60], [1013, 1, 1, -64],
  [1015, 1, 1, 1], [1017, 1, 1, -7], [1018, 1, 1, 1], [1021, 3, 1, -130], [1024, 16, 1, 80], [1040, 32, 1, 32], [1120, 17, 2, 1],
  [1162, 27, 2, 1], [1216, 1, 1, 15], [1217, 7, 2, 1], [1232, 44, 2, 1], [1329, 38, 1, 48], [4256, 38, 1, 7264], [4295, 1, 1, 7264],
  [4301, 1, 1, 7264], [7680, 75, 2, 1], [7835, 1, 1, -58], [7838, 1, 1, -7615], [7840, 48, 2, 1], [7944, 8, 1, -8], [7960, 6, 1, -8],
  [7976, 8, 1, -8], [7992, 8, 1, -8], [8008, 6, 1, -8], [8025, 4, 2, -8], [8040, 8, 1, -8], [8072, 8, 1, -8], [8088, 8, 1, -8],
  [8104, 8, 1, -8], [8120, 2, 1, -8], [8122, 2, 1, -74], [8124, 1, 1, -9], [8126, 1, 1, -7173], [8136, 4, 1, -86], [8140, 1, 1, -9],
  [8152, 2, 1, -8], [8154, 2, 1, -100], [8168, 2, 1, -8], [8170, 2, 1, -112], [8172, 1, 1, -7], [8184, 2, 1, -128], [8186, 2, 1, -126],
  [8188, 1, 1, -9], [8486, 1, 1, -7517], [8490, 1, 1, -8383], [8491, 1, 1, -8262], [8498, 1, 1, 28], [8544, 16, 1, 16], [8579, 1, 1, 1],
  [9398, 26, 1, 26], [11264, 47, 1, 48], [11360, 1, 1, 1], [11362, 1, 1, -10743], [11363, 1, 1, -3814], [11364, 1, 1, -10727],
  [11367, 3, 2, 1], [11373, 1, 1, -10780], [11374, 1, 1, -10749], [11375, 1, 1, -10783], [11376, 1, 1, -10782], [11378, 1, 1, 1],
  [11381, 1, 1, 1], [11390, 2, 1, -10815], [11392, 50, 2, 1], [11499, 2, 2, 1], [11506, 1, 1, 1], [42560, 23, 2, 1], [42624, 12, 2, 1],
  [42786, 7, 2, 1], [42802, 31, 2, 1], [42873, 2, 2, 1], [42877, 1, 1, -35332], [42878, 5, 2, 1], [42891, 1, 1, 1], [42893, 1, 1, -42280],
  [42896, 2, 2, 1], [42912, 5, 2, 1], [42922, 1, 1, -42308], [65313, 26, 1, 32], [66560, 40, 1, 40],
]

/** The code point as SQLite's FTS5 folds it (exported for the test that compares it with SQLite's). */
export function ftsFold(codePoint: number): number {
  for (const [first, count, step, offset] of FTS5_FOLDS) {
    if (codePoint >= first && codePoint < first + count * step && (codePoint - first) % step === 0) return codePoint + offset
  }
  return codePoint
}

/** Per folded code point shared by several characters, the GLOB set of all of them: `[KkK]`. */
let foldSets: Map<number, string> | undefined

function foldSetsOf(): Map<number, string> {
  const groups = new Map<number, Set<number>>()
  for (const [first, count, step] of FTS5_FOLDS) {
    for (let k = 0; k < count; k++) {
      const from = first + k * step
      const to = ftsFold(from)
      // With the character they fold to, if it folds to itself (each one does; the test checks ftsFold on all).
      if (!groups.has(to)) groups.set(to, new Set(ftsFold(to) === to ? [to] : []))
      groups.get(to)!.add(from)
    }
  }
  return new Map([...groups].map(([to, from]) => [to, `[${String.fromCodePoint(...[...from].sort((a, b) => a - b))}]`]))
}
