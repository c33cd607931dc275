/**
 * A member's per-torrent wage items of one month, stored as one JSON row (`wage_item_sets`,
 * migration 0009): `[torrentId, size, seeders, seedHours, uploaded, keeperRank, value, qualified, reason, partial?]`
 * tuples in the breakdown's order (qualified first, then by value, then torrent id).
 *
 * A compute produces the items torrent by torrent; `ItemSetCollector` keeps them in typed columns
 * (~60 bytes an item) and hands them out member by member at the end.
 */
import type { Kysely } from 'kysely'
import type { WageItem } from '@shared/entities'
import type { DB } from '../db/schema'
import { groupBy, NumberColumn } from './columns'
import type { WageItemResult } from './formula'
import { wageDb } from './tables'

type ItemTuple = [
  torrentId: number,
  size: number,
  seeders: number,
  seedHours: number,
  uploaded: number,
  keeperRank: number,
  value: number,
  qualified: 0 | 1,
  reason: string | null,
  /** 1 = counted from a first observation (部分月份); absent in sets saved before migration 0014. */
  partial?: 0 | 1,
]

export class ItemSetCollector {
  private readonly users = NumberColumn.int()
  private readonly torrents = NumberColumn.int()
  private readonly sizes = NumberColumn.float()
  private readonly seeders = NumberColumn.int()
  private readonly seedHours = NumberColumn.float()
  private readonly uploaded = NumberColumn.float()
  private readonly keeperRanks = NumberColumn.int()
  private readonly values = NumberColumn.float()
  private readonly partials = NumberColumn.int()
  /** null = qualified. The texts carry the item's figures, so nearly every one differs. */
  private readonly reasons: (string | null)[] = []

  add(item: WageItemResult): void {
    this.users.push(item.userId)
    this.torrents.push(item.torrentId)
    this.sizes.push(item.size)
    this.seeders.push(item.seeders)
    this.seedHours.push(item.seedHours)
    this.uploaded.push(item.uploaded)
    this.keeperRanks.push(item.keeperRank)
    this.values.push(item.value)
    this.partials.push(item.partial ? 1 : 0)
    this.reasons.push(item.qualified ? null : (item.reason ?? ''))
  }

  /** Each member's items as the stored JSON, members in id order. */
  *sets(): Generator<{ userId: number; items: string }> {
    const { groups, starts, order } = groupBy(this.users)
    for (let g = 0; g < groups.length; g++) {
      const tuples: ItemTuple[] = []
      for (let k = starts[g]!; k < starts[g + 1]!; k++) {
        const i = order[k]!
        const reason = this.reasons[i] ?? null
        tuples.push([
          this.torrents.at(i),
          this.sizes.at(i),
          this.seeders.at(i),
          this.seedHours.at(i),
          this.uploaded.at(i),
          this.keeperRanks.at(i),
          this.values.at(i),
          reason === null ? 1 : 0,
          reason,
          this.partials.at(i) === 1 ? 1 : 0,
        ])
      }
      tuples.sort((a, b) => b[7] - a[7] || b[6] - a[6] || a[0] - b[0])
      yield { userId: groups[g]!, items: JSON.stringify(tuples) }
    }
  }
}

/** One member's items of a month, names from the torrent labels (items keep no copy of them). */
export async function readItemSet(db: Kysely<DB>, period: string, userId: number): Promise<WageItem[]> {
  const row = await wageDb(db)
    .selectFrom('wage_item_sets')
    .select('items')
    .where('period', '=', period)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return []
  const tuples = JSON.parse(row.items) as ItemTuple[]
  const names = new Map<number, string>()
  const ids = tuples.map((t) => t[0])
  for (let i = 0; i < ids.length; i += 1_000) {
    const labels = await db
      .selectFrom('torrent_labels')
      .select(['torrent_id', 'name'])
      .where('torrent_id', 'in', ids.slice(i, i + 1_000))
      .execute()
    for (const label of labels) names.set(Number(label.torrent_id), label.name)
  }
  return tuples.map(([torrentId, size, seeders, seedHours, uploaded, keeperRank, value, qualified, reason, partial]) => ({
    torrentId,
    torrentName: names.get(torrentId) ?? `#${torrentId}`,
    size,
    seeders,
    seedHours,
    uploaded,
    keeperRank,
    value,
    qualified: qualified === 1,
    reason,
    partial: partial === 1,
  }))
}
