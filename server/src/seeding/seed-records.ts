/**
 * page-seed (POST /user/page-seed): seed records with filters, a whitelisted sort and an exact
 * total, at millions of rows.
 *
 * - The page: a deferred join. The inner query finds only the page's ids — `order by <sort>, id
 *   limit … offset …` walks the sort's covering index (see migration 0002), so even page 5,000
 *   skips its offset inside the index — and only those ids are joined to records, members and torrents.
 * - The total: a sum over the count cube when the filters are the enumerable ones (any mix of
 *   member, status, seed type, claim state, assignment label); for a torrent name alone, the sum
 *   of the matching torrents' record counts; otherwise an exact count, cached per data version.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { SeedRecord } from '@shared/entities'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { toIso } from '../db/time'
import { inIdList } from '../db/sql-fragments'
import { JsonText } from '../http/envelope'
import type { DerivedCache } from '../paging/derived-cache'
import { BROAD_NAME_MATCH, nameMatch, type NameMatch, recordNamed, recordTorrentIdsNamed } from '../paging/name-search'
import { deferredOrder, offsetOf, type SortColumns, sortOf } from '../paging/order'

/** The parsed page-seed request (the route forces a member's userId to their own). */
export type SeedRecordQuery = ParsedInput<'user.pageSeed'>

const sortColumns: SortColumns<'pageSeed'> = {
  uploaded: sql`r.uploaded`,
  downloaded: sql`r.downloaded`,
  seedTimeSec: sql`r.seed_time_sec`,
  lastAction: sql`r.last_action`,
  assignedAt: sql`r.assigned_at`,
  size: sql`r.size`,
  status: sql`r.status`,
}

/** Without an orderBy: the most recent activity first. */
const defaultSort = { field: 'lastAction', direction: 'DESC' } as const

/**
 * `match` (when the name was looked up): a narrow match filters by its id list; a broad one tests
 * an expression of the torrent id, which keeps the planner off the torrent index (see nameMatch).
 * With a member (userId) the name is not looked up: each of their records' names is tested (see readSeedRecordPage).
 */
function conditions(dialect: DialectName, q: SeedRecordQuery, match: NameMatch | undefined, broadName: boolean): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = []
  if (q.userId !== undefined) parts.push(sql`r.user_id = ${q.userId}`)
  if (q.torrentId !== undefined) parts.push(sql`r.torrent_id = ${q.torrentId}`)
  if (q.status !== undefined) parts.push(sql`r.status = ${q.status}`)
  if (q.seedType !== undefined) parts.push(sql`r.seed_type = ${q.seedType}`)
  if (q.claimState !== undefined) parts.push(sql`r.claim_state = ${q.claimState}`)
  if (q.assigned !== undefined) parts.push(sql`r.assigned = ${q.assigned}`)
  if (q.torrentName !== undefined && q.userId !== undefined) {
    parts.push(recordNamed(dialect, sql`r.torrent_id`, q.torrentName))
  } else if (q.torrentName !== undefined) {
    // Broad: an expression, not the column, so neither planner reads the match through the torrent index.
    const column = broadName ? (dialect === 'sqlite' ? sql`+r.torrent_id` : sql`(r.torrent_id + 0)`) : sql`r.torrent_id`
    parts.push(match?.ids ? inIdList(dialect, column, match.ids) : sql`${column} in (${recordTorrentIdsNamed(dialect, q.torrentName)})`)
  }
  return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``
}

interface Row {
  id: number
  user_id: number
  username: string | null
  torrent_id: number
  torrent_name: string | null
  size: number
  seed_type: number
  status: number
  claim_state: number
  assigned: number
  uploaded: number
  downloaded: number
  seed_time_sec: number
  last_action: number
  assigned_at: number
}

type SeedRecordPage = { list: SeedRecord[]; total: number }

/**
 * The answer reads derived tables only (records, torrent labels) and members' names (fixed once an
 * account exists), so a whole answer is kept per data version, as the JSON text it is sent as: asking
 * a page again costs one read of the version, no query and no serialization.
 */
export function pageSeedRecords(db: Kysely<DB>, dialect: DialectName, counts: DerivedCache, q: SeedRecordQuery): Promise<JsonText> {
  // Keyed without `keyword`: nothing reads it, and a member could send up to the body limit of it
  // per request — each a new key, kept with its answer (1,000 of them: a gigabyte).
  const { keyword: _ignored, ...query } = q
  return counts.get(
    db,
    JSON.stringify(['page', query]),
    async () => new JsonText(JSON.stringify(await readSeedRecordPage(db, dialect, counts, query))),
  )
}

async function readSeedRecordPage(db: Kysely<DB>, dialect: DialectName, counts: DerivedCache, q: SeedRecordQuery): Promise<SeedRecordPage> {
  const text = q.torrentName
  // With a member (a member's own page always: the route forces their userId) the name is tested on
  // their records only (recordNamed), never looked up among all torrents: that search costs 40–150 ms
  // per distinct name at 200,000 torrents, and a member could ask for one new name after another.
  // Their records are few (~10³), and they are read through the member's index anyway.
  const match =
    text === undefined || q.userId !== undefined
      ? undefined
      : await counts.get<NameMatch>(db, JSON.stringify(['name', text]), () => nameMatch(db, dialect, text))
  const broadName = match !== undefined && q.torrentId === undefined && match.torrents > BROAD_NAME_MATCH
  const where = conditions(dialect, q, match, broadName)
  const sort = sortOf('pageSeed', q.orderBy, sortColumns, defaultSort)
  const order = deferredOrder(sort, sql`r.id`)
  const pageIds = readMatchFirst(dialect, match, broadName)
    ? // Every matching record through the torrent index (a fence: the subquery is planned on its own), then sorted.
      sql`select m.id, m.sort_key from (select r.id, ${order.key} from seed_records r ${where} offset 0) m
        order by m.sort_key ${order.dir}, m.id ${order.dir}`
    : sql`select r.id, ${order.key} from seed_records r ${where} ${order.inner}`
  const { rows } = await sql<Row>`select r.id, r.user_id, u.username, r.torrent_id, t.name as torrent_name, r.size, r.seed_type, r.status,
      r.claim_state, r.assigned, r.uploaded, r.downloaded, r.seed_time_sec, r.last_action, r.assigned_at
    from (${pageIds} limit ${q.pageSize} offset ${offsetOf(q.page, q.pageSize)}) p
      join seed_records r on r.id = p.id
      left join users u on u.id = r.user_id
      left join torrent_labels t on t.torrent_id = r.torrent_id
    ${order.outer}`.execute(db)

  // Counting always goes through the torrent index: it reads only the matching records.
  const nameOnly =
    match !== undefined && [q.userId, q.torrentId, q.status, q.seedType, q.claimState, q.assigned].every((v) => v === undefined)
  const total = nameOnly ? match.records : await totalOf(db, counts, q, broadName ? conditions(dialect, q, match, false) : where)
  return {
    list: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      username: r.username ?? '',
      torrentId: r.torrent_id,
      // The mirror keeps the site's torrent ids: ours and the site's are the same number.
      siteTorrentId: r.torrent_id,
      torrentName: r.torrent_name ?? '',
      size: Number(r.size),
      seedType: r.seed_type as SeedRecord['seedType'],
      status: r.status as SeedRecord['status'],
      claimState: r.claim_state as SeedRecord['claimState'],
      assigned: r.assigned as SeedRecord['assigned'],
      uploaded: Number(r.uploaded),
      downloaded: Number(r.downloaded),
      seedTimeSec: Number(r.seed_time_sec),
      lastAction: r.last_action ? toIso(Number(r.last_action)) : null,
      assignedAt: r.assigned_at ? toIso(Number(r.assigned_at)) : null,
    })),
    total,
  }
}

/**
 * PostgreSQL, a narrow name match: the planner estimates the matching records as a share of the whole
 * table and walks the sort index backwards testing each record's torrent — when the matching torrents'
 * records are not among the newest it reads ~100,000 records for 20 (150 ms for a name matching 27
 * torrents). Their record count is known from the match, so when it is small they are read through the
 * torrent index and sorted, whatever the planner guesses. SQLite plans this case well already.
 */
const READ_MATCH_FIRST_RECORDS = 20_000

function readMatchFirst(dialect: DialectName, match: NameMatch | undefined, broadName: boolean): boolean {
  return dialect === 'postgres' && match !== undefined && !broadName && match.records <= READ_MATCH_FIRST_RECORDS
}

async function totalOf(db: Kysely<DB>, counts: DerivedCache, q: SeedRecordQuery, where: RawBuilder<unknown>): Promise<number> {
  if (q.torrentId === undefined && q.torrentName === undefined) {
    const parts: RawBuilder<unknown>[] = [sql`user_id = ${q.userId ?? 0}`]
    if (q.status !== undefined) parts.push(sql`status = ${q.status}`)
    if (q.seedType !== undefined) parts.push(sql`seed_type = ${q.seedType}`)
    if (q.claimState !== undefined) parts.push(sql`claim_state = ${q.claimState}`)
    if (q.assigned !== undefined) parts.push(sql`assigned = ${q.assigned}`)
    const { rows } = await sql<{
      n: number | null
    }>`select sum(records) as n from seed_record_counts where ${sql.join(parts, sql` and `)}`.execute(db)
    return Number(rows[0]?.n ?? 0)
  }
  const key = JSON.stringify(['seed', q.userId, q.torrentId, q.status, q.seedType, q.claimState, q.assigned, q.torrentName])
  return counts.get(db, key, async () => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from seed_records r ${where}`.execute(db)
    return Number(rows[0].n)
  })
}
