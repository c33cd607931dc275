/**
 * Found by an outside tester (fixed since; the test keeps it so): 刷新统计 (statistics.refresh) and the refresh after an admin change compute the figures "afresh … the month's estimates
 * too: brought up to date with the data" (stats/cache.ts refreshAllStats → wages.catchUp, interval 0). But the
 * estimates' refresh is single-flight per process (wages/estimates.ts `refresh`: `if (running) return running`): when
 * any other caller's ordinary refresh is in flight — a member's 首页 asking statistics.user (forMember), which only
 * recomputes when the estimates are older than ESTIMATE_MIN_REFRESH_MS (10 min) — catchUp returns that call's promise,
 * which decided "not stale" and recomputed nothing. The fresh figures were then stored with estimates of an older
 * data version (本月预计工资总额, top 10, the below-minimum flags), until the next sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { dataVersion } from '../db/data-version'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { createWageEstimates } from '../wages/estimates'
import { refreshAllStats } from './cache'

const T1 = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('刷新统计 brings the wage estimates up to date ($name)', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
    await db.database.db
      .insertInto('sync_state')
      .values({ id: 1, source: 'demo' })
      .onConflict((oc) => oc.doNothing())
      .execute()
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  const estimatesVersion = async () => {
    const row = await db.database.db
      .selectFrom('stats_cache')
      .select('payload')
      .where('key', '=', 'wage-estimates')
      .executeTakeFirstOrThrow()
    return (JSON.parse(row.payload) as { dataVersion: number }).dataVersion
  }
  const bumpData = () =>
    db.database.db
      .updateTable('sync_state')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('id', '=', 1)
      .execute()

  it('(control) alone, a refresh of the statistics recomputes estimates of an older data version', async () => {
    const wages = createWageEstimates()
    await refreshAllStats(db.database.db, { now: T1, wages })
    await bumpData() // a derivation pass commits (an admin change, a sync)
    await refreshAllStats(db.database.db, { now: T1 + 60_000, wages })
    expect(await estimatesVersion()).toBe(await dataVersion(db.database.db))
  })

  it('while a member reads their own figures at the same moment, a refresh of the statistics still recomputes them', async () => {
    const wages = createWageEstimates()
    await refreshAllStats(db.database.db, { now: T1 + 120_000, wages })
    await bumpData()
    const now = T1 + 180_000
    // A member's 首页 (statistics.user → forMember) and the admin's 刷新统计 arrive together.
    const member = wages.forMember(db.database.db, 1, now)
    await refreshAllStats(db.database.db, { now, wages })
    await member
    expect(await estimatesVersion()).toBe(await dataVersion(db.database.db))
  })
})
