/**
 * torrent.page (POST /torrent/page): torrents with their labels. Filters and sorts run on
 * `torrent_labels` alone (it carries copies of the mirror's sortable columns, each indexed with
 * the id), then the page's rows are joined to the mirror for names, hashes, team and category.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { Torrent } from '@shared/entities'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { binaryOrder, foldCase } from '../db/sql-fragments'
import { toIso } from '../db/time'
import type { DerivedCache } from '../paging/derived-cache'
import { torrentIdsNamed } from '../paging/name-search'
import { deferredOrder, offsetOf, type SortColumns, sortOf } from '../paging/order'

/** The parsed torrent.page request (`team`: a release group, matched by its exact name, case-insensitive). */
export type TorrentQuery = ParsedInput<'torrent.page'>

function conditions(dialect: DialectName, q: TorrentQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = []
  if (q.seedType !== undefined) parts.push(sql`l.seed_type = ${q.seedType}`)
  if (q.completion !== undefined) parts.push(sql`l.completion = ${q.completion}`)
  if (q.assigned !== undefined) parts.push(sql`l.assigned = ${q.assigned}`)
  if (q.team !== undefined)
    // Both sides folded by the database: JavaScript's toLowerCase and PostgreSQL's lower() disagree on a final Σ and on İ.
    parts.push(
      // trim: the filter arrives trimmed, and a site's staff may have typed the name with a space at its end (derive/context.ts).
      sql`l.team in (select id from site_teams where ${foldCase(dialect, sql`trim(name)`)} = ${foldCase(dialect, sql`${q.team}`)})`,
    )
  if (q.name !== undefined) parts.push(sql`l.torrent_id in (${torrentIdsNamed(dialect, q.name)})`)
  return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``
}

interface Row {
  torrent_id: number
  name: string
  info_hash: string | null
  size: number
  team_name: string | null
  category_name: string | null
  added: number
  seed_type: number
  seed_type_source: 'rule' | 'manual'
  seeders: number
  leechers: number
  keepers: number
  completion: number
  assigned: number
  owner_user_id: number | null
  banned: number
}

export async function pageTorrents(
  db: Kysely<DB>,
  dialect: DialectName,
  counts: DerivedCache,
  q: TorrentQuery,
  targetKeepers: number,
): Promise<{ list: Torrent[]; total: number }> {
  const sortColumns: SortColumns<'torrentPage'> = {
    addedAt: sql`l.added`,
    size: sql`l.size`,
    seeders: sql`l.seeders`,
    leechers: sql`l.leechers`,
    keepers: sql`l.keepers`,
    name: binaryOrder(dialect, sql`l.name`),
  }
  const where = conditions(dialect, q)
  const order = deferredOrder(sortOf('torrentPage', q.orderBy, sortColumns, { field: 'addedAt', direction: 'DESC' }), sql`l.torrent_id`)
  const { rows } = await sql<Row>`select l.torrent_id, l.name, t.info_hash, l.size, tm.name as team_name, c.name as category_name, l.added,
      l.seed_type, l.seed_type_source, l.seeders, l.leechers, l.keepers, l.completion, l.assigned, l.banned,
      (select min(u.id) from users u where u.site_uid = l.owner and l.owner > 0) as owner_user_id
    from (select l.torrent_id as id, ${order.key} from torrent_labels l ${where} ${order.inner} limit ${q.pageSize} offset ${offsetOf(q.page, q.pageSize)}) p
      join torrent_labels l on l.torrent_id = p.id
      left join site_torrents t on t.id = l.torrent_id
      left join site_teams tm on tm.id = l.team
      left join site_categories c on c.id = t.category
    ${order.outer}`.execute(db)

  const key = JSON.stringify(['torrent', q.seedType, q.completion, q.assigned, q.name, q.team])
  const total = await counts.get(db, key, async () => {
    const { rows: counted } = await sql<{ n: number }>`select count(*) as n from torrent_labels l ${where}`.execute(db)
    return Number(counted[0].n)
  })

  return {
    list: rows.map((r) => ({
      id: r.torrent_id,
      siteTorrentId: r.torrent_id,
      name: r.name,
      infoHash: r.info_hash ?? '',
      size: Number(r.size),
      team: r.team_name,
      category: r.category_name,
      addedAt: toIso(Number(r.added)),
      seedType: r.seed_type as Torrent['seedType'],
      seedTypeSource: r.seed_type_source,
      seeders: Number(r.seeders),
      leechers: Number(r.leechers),
      keepers: Number(r.keepers),
      targetKeepers,
      completion: r.completion as Torrent['completion'],
      assigned: r.assigned as Torrent['assigned'],
      ownerUserId: r.owner_user_id === null ? null : Number(r.owner_user_id),
      banned: Number(r.banned) === 1,
    })),
    total,
  }
}
