/**
 * Figures read from the derived data only — exact totals that have no precomputed count
 * (page-seed by torrent or torrent name, torrent.page), name matches, whole page-seed answers —
 * kept per data version: derived data only changes when a derivation transaction commits (which
 * bumps sync_state.data_version in the same transaction), so a figure cached under the version it
 * was read at stays exact, in this process and whatever another process derives. Paging through one
 * filter then costs the count once, and a page asked again (a refresh, another admin) one read of
 * the version instead of its queries.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { dataVersion } from '../db/data-version'

const MAX_ENTRIES = 1000

export class DerivedCache {
  private version = -1
  private readonly entries = new Map<string, unknown>()

  /** The figure for `key` at the current data version, from the cache or from `count()`. */
  async get<T = number>(db: Kysely<DB>, key: string, count: () => Promise<T>): Promise<T> {
    const before = await dataVersion(db)
    if (before !== this.version) {
      this.entries.clear()
      this.version = before
    }
    const hit = this.entries.get(key) as T | undefined
    if (hit !== undefined) {
      // Most recently used last, so the oldest entry is the first to go.
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit
    }
    const n = await count()
    // Keep it only if no derivation committed while counting (it could belong to either version).
    if ((await dataVersion(db)) === before) {
      this.entries.set(key, n)
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    }
    return n
  }
}
