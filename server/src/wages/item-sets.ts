/**
 * A member's per-torrent wage items of one month, stored as one JSON row (`wage_item_sets`,
 * migration 0009): `[torrentId, size, seeders, seedHours, uploaded, keeperRank, value, qualified, reason, partial?]`
 * tuples in the breakdown's order (qualified first, then by value, then torrent id).
 *
 * `reason` of an item that does not earn: since 2026-11-25 its kind (formula.ts `Unqualified`), whose
 * text is written when the set is read, from the item's own figures and the standards of the record's
 * rule version — exactly the text the formula gives (item-sets.test.ts). Sets stored before hold the
 * text itself and are shown as they are. The texts were half of a month's bytes: at 2 M records
 * (642,000 items) 64.8 MB of JSON per compute with them, 33.6 MB without.
 *
 * A compute produces the items torrent by torrent; `ItemSetCollector` keeps them in typed columns
 * (~60 bytes an item) and hands them out member by member at the end.
 */
import type { Kysely } from 'kysely'
import type { WageItem } from '@shared/entities'
import type { DB } from '../db/schema'
import { currentRules, ruleVersion, type RuleBody } from '../rules/rules'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { groupBy, NumberColumn } from './columns'
import { reasonText, type UnqualifiedKind, type WageItemResult } from './formula'
import { periodBounds } from './period'
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
  /** Why it does not earn: its kind; the text in sets stored before 2026-11-25; null = qualified. */
  reason: UnqualifiedKind | string | null,
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
  /** 0 = qualified, else why not (UnqualifiedKind), stored as it is. */
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

  /** Each member's items as the stored JSON, members in id order. */
  *sets(): Generator<{ userId: number; items: string }> {
    const { groups, starts, order } = groupBy(this.users)
    for (let g = 0; g < groups.length; g++) {
      const tuples: ItemTuple[] = []
      for (let k = starts[g]!; k < starts[g + 1]!; k++) {
        const i = order[k]!
        const kind = this.unqualified.at(i) as UnqualifiedKind | 0
        tuples.push([
          this.torrents.at(i),
          this.sizes.at(i),
          this.seeders.at(i),
          this.seedHours.at(i),
          this.uploaded.at(i),
          this.keeperRanks.at(i),
          this.values.at(i),
          kind === 0 ? 1 : 0,
          kind === 0 ? null : kind,
          this.partials.at(i) === 1 ? 1 : 0,
        ])
      }
      tuples.sort((a, b) => b[7] - a[7] || b[6] - a[6] || a[0] - b[0])
      yield { userId: groups[g]!, items: JSON.stringify(tuples) }
    }
  }
}

/** One member's items of a month, names from the torrent labels (items keep no copy of them) or the month's end. */
export async function readItemSet(db: Kysely<DB>, period: string, userId: number): Promise<WageItem[]> {
  const row = await wageDb(db)
    .selectFrom('wage_item_sets')
    .select('items')
    .where('period', '=', period)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return []
  const tuples = JSON.parse(row.items) as ItemTuple[]
  const rules = tuples.some((t) => typeof t[8] === 'number') ? await recordRules(db, period, userId) : null
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
  const gone = ids.filter((id) => !names.has(id))
  if (gone.length) for (const [id, name] of await monthEndNames(db, period, userId, gone)) names.set(id, name)
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
    reason: storedReason({ reason, size, seedHours, uploaded }, rules),
    partial: partial === 1,
  }))
}

/** An item's reason as shown: the stored text, or its kind's text with the item's figures and `rules`' standards. */
export function storedReason(
  item: { reason: UnqualifiedKind | string | null; size: number; seedHours: number; uploaded: number },
  rules: RuleBody | null,
): string | null {
  if (typeof item.reason !== 'number') return item.reason
  return reasonText(item.reason, item, rules!)
}

/** The rules the member's record of `period` was computed with (the current ones if that version were gone: versions are only added). */
/**
 * The names of torrents the site has deleted since (no label now) as the month's end kept them (torrent_seeder_snapshots,
 * written with the first snapshot after the month): the member was paid for them, and their message names them.
 */
async function monthEndNames(db: Kysely<DB>, period: string, userId: number, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>()
  const rules = await recordRules(db, period, userId)
  const endDay = await snapshotDayOnOrAfter(db, periodBounds(period, rules.timezone).nextStartDay)
  if (endDay === null) return out
  for (let i = 0; i < ids.length; i += 1_000) {
    const rows = await db
      .selectFrom('torrent_seeder_snapshots')
      .select(['torrent_id', 'name'])
      .where('day', '=', endDay)
      .where('torrent_id', 'in', ids.slice(i, i + 1_000))
      .where('name', 'is not', null)
      .execute()
    for (const row of rows) out.set(Number(row.torrent_id), row.name!)
  }
  return out
}

async function recordRules(db: Kysely<DB>, period: string, userId: number): Promise<RuleBody> {
  const record = await wageDb(db)
    .selectFrom('wage_records')
    .select('rule_version')
    .where('period', '=', period)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return (record ? await ruleVersion(db, Number(record.rule_version)) : null) ?? (await currentRules(db))
}
