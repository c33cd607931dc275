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
import { reasonText, type UnqualifiedKind, type WageItemResult } from './formula'
import type { RuleBody } from '../rules/rules'
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
  /**
   * 0 = qualified, else why not (UnqualifiedKind). The stored text carries the item's figures, so
   * nearly every one differs: kept as text, 355,000 unqualified items of a 2 M-record month held ~40 MB
   * of strings in the compute's thread until the end; they are written member by member instead.
   */
  private readonly unqualified = NumberColumn.int()

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
    this.unqualified.push(item.unqualified ?? 0)
  }

  /** Each member's items as the stored JSON, members in id order; `rules` are the compute's (the reasons' figures). */
  *sets(rules: RuleBody): Generator<{ userId: number; items: string }> {
    const { groups, starts, order } = groupBy(this.users)
    for (let g = 0; g < groups.length; g++) {
      const tuples: ItemTuple[] = []
      for (let k = starts[g]!; k < starts[g + 1]!; k++) {
        const i = order[k]!
        const kind = this.unqualified.at(i) as UnqualifiedKind | 0
        const size = this.sizes.at(i)
        const seedHours = this.seedHours.at(i)
        const uploaded = this.uploaded.at(i)
        const reason = kind === 0 ? null : reasonText(kind, { size, seedHours, uploaded }, rules)
        tuples.push([
          this.torrents.at(i),
          size,
          this.seeders.at(i),
          seedHours,
          uploaded,
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
