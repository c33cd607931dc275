/**
 * Exact totals that have no precomputed count (page-seed by torrent or torrent name, torrent.page)
 * are counted once per data version and filter: derived data only changes when a derivation batch
 * commits (which bumps sync_state.data_version), so a total cached under the version it was
 * counted at stays exact. Paging through one filter then costs the count once, not per page.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { dataVersion } from '../db/data-version'

const MAX_ENTRIES = 1000

export class CountCache {
  private version = -1
  private readonly entries = new Map<string, unknown>()

  /** The count (or any figure of the derived data) for `key` at the current data version, from the cache or from `count()`. */
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
