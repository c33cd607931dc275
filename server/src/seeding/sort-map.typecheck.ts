/**
 * Compile-time proof, checked by `npm run typecheck` and never run: the sort maps and the paged
 * queries are typed from the contract. Each `@ts-expect-error` marks a mistake that must not
 * compile; if the protection went away the line would compile, the directive would be unused, and
 * the typecheck would fail.
 */
import { type Kysely, sql } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { DB } from '../db/schema'
import type { DerivedCache } from '../paging/derived-cache'
import { type SortColumns, sortOf } from '../paging/order'
import { pageSeedRecords, type SeedRecordQuery } from './seed-records'
import { pageTorrents, type TorrentQuery } from './torrents'

const seedColumns = {
  uploaded: sql`r.uploaded`,
  downloaded: sql`r.downloaded`,
  seedTimeSec: sql`r.seed_time_sec`,
  lastAction: sql`r.last_action`,
  assignedAt: sql`r.assigned_at`,
  size: sql`r.size`,
}

export function neverCalled(db: Kysely<DB>, counts: DerivedCache): void {
  // `status` is sortable in the contract (sortableFields.pageSeed): a map without its column.
  // @ts-expect-error Property 'status' is missing
  sortOf('pageSeed', undefined, seedColumns, { field: 'lastAction', direction: 'DESC' })

  // A column for a field the contract does not let the call sort by.
  // @ts-expect-error Object literal may only specify known properties
  const extra: SortColumns<'pageSeed'> = { ...seedColumns, status: sql`r.status`, claimState: sql`r.claim_state` }

  // A misspelt filter (`stauts`) is not a field of the query the contract parses.
  // @ts-expect-error Object literal may only specify known properties
  void pageSeedRecords(db, 'sqlite', counts, { page: 1, pageSize: 20, stauts: 3 })

  // A filter value outside the contract's enumeration (torrent.page's seedType is 1 | 2).
  // @ts-expect-error Type '7' is not assignable
  void pageTorrents(db, 'sqlite', counts, { page: 1, pageSize: 20, seedType: 7 }, 3)
  void extra
}

/** The domain's query types are the contract's parsed inputs, not copies written beside them. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
export const queriesAreTheContract: [Same<SeedRecordQuery, ParsedInput<'user.pageSeed'>>, Same<TorrentQuery, ParsedInput<'torrent.page'>>] =
  [true, true]
