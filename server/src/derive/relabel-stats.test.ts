/**
 * The background refresh of 首页's figures after an admin change's pass is not ordered with a sync's own refresh (under
 * its lease) or 刷新统计: one that read the labels before a sync's pass committed, and writes after that sync's refresh,
 * must not put the older figures back (stats/cache.ts writes only over figures of the same or an older data version).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { cachedAllStats, refreshAllStats } from '../stats/cache'
import { pendingWageEstimates, type WageEstimates } from '../wages/estimates'
import type { DeriveOutcome } from './index'
import { relabel, STATS_REFRESH_QUIET_MS, statsRefreshSettled } from './relabel'

const T1 = Date.UTC(2026, 0, 15, 4, 0, 0)
const T2 = T1 + 60_000

describe.each(openTestDatabases())('the background stats refresh after a relabel vs a sync ($name)', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
    await db.database.db.insertInto('sync_state').values({ id: 1, source: 'nexusphp' }).execute()
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  const label = (id: number) => ({
    torrent_id: id,
    seed_type: 1,
    seed_type_source: 'rule' as const,
    completion: 1,
    assigned: 2,
    keepers: 1,
    owner: 0,
    name: `t${id}`,
    size: 1,
    added: T1 - 86_400_000,
    seeders: 1,
    leechers: 0,
    team: null,
    derived_at: T1,
  })

  it('never puts figures older than a later refresh back into the cache', async () => {
    const database = db.database
    await database.db.insertInto('torrent_labels').values(label(1)).execute()

    // The month's estimates take seconds at 2 M records: the background refresh is inside them, its labels read.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let entered!: () => void
    const inEstimates = new Promise<void>((resolve) => (entered = resolve))
    const slow: WageEstimates = {
      ...pendingWageEstimates,
      top: async () => {
        entered()
        await gate
        return []
      },
    }
    const sync = { derivePass: async () => ({}) as DeriveOutcome }
    expect((await relabel({ database, sync, wages: slow }, T1)).ran).toBe(true)
    await inEstimates

    // A sync's pass commits (a second official torrent, a new data version) and its refresh, under the lease, writes
    // the figures.
    await database.db.insertInto('torrent_labels').values(label(2)).execute()
    await database.db
      .updateTable('sync_state')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('id', '=', 1)
      .execute()
    const fresh = await refreshAllStats(database.db, { now: T2, wages: pendingWageEstimates })
    expect(fresh.officialTorrents).toBe(2)

    // The background refresh ends: its figures (the older data version) are not written.
    release()
    await statsRefreshSettled(database)

    const row = await database.db
      .selectFrom('stats_cache')
      .select(['computed_at'])
      .where('key', '=', 'all-seeding')
      .executeTakeFirstOrThrow()
    const shown = await cachedAllStats(database.db, { now: T2, wages: pendingWageEstimates })
    expect({ official: shown.officialTorrents, computedAt: Number(row.computed_at) }).toEqual({ official: 2, computedAt: T2 })
  })

  it('takes a burst of changes in one refresh once they pause; closing runs a waiting one', async () => {
    const database = db.database
    let refreshes = 0
    const counting: WageEstimates = { ...pendingWageEstimates, catchUp: async () => void refreshes++ }
    const sync = { derivePass: async () => ({}) as DeriveOutcome }
    const burst = Date.now()
    for (let i = 0; i < 3; i++) expect((await relabel({ database, sync, wages: counting }, T2 + i)).ran).toBe(true)
    expect(refreshes).toBe(0)
    await vi.waitFor(() => expect(refreshes).toBe(1), { timeout: 10_000, interval: 20 })
    expect(Date.now() - burst).toBeGreaterThanOrEqual(STATS_REFRESH_QUIET_MS)

    // Closing does not leave a waiting refresh behind: it has run when statsRefreshSettled resolves.
    expect((await relabel({ database, sync, wages: counting }, T2 + 10)).ran).toBe(true)
    await statsRefreshSettled(database)
    expect(refreshes).toBe(2)
  })
})
