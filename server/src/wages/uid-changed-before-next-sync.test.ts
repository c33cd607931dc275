/**
 * Found by an outside tester (fixed since; the test keeps it so): between a 站点 UID change and the next sync, the running month's preview (and the estimates the change's
 * relabel refreshes: 首页, 工资排行) pay the new account's whole history. The change's own derivation pass (relabel)
 * moves the member's records to the new account's counters at once, but the rebase is noted only by the next sync's
 * snapshot step (baselines.ts), so until then the reader has no rebase and counts from the old account's start
 * snapshot. (SOURCE=ingest asks for no sync: it lasts until the next scheduled one.)
 *
 * alice: wrong UID 1001 (100 h), corrected on January 15th to her real 1002 (5,000 h). A preview right after the
 * change: 4,900 h, 45,502.42 — in a month 14 days old.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WagePreviewEntry } from '@shared/entities'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { aliceOnWrongUid, DAY, JAN_START, januaryScene, setSiteUid, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('the running month right after a site UID change on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w)
    alice = await aliceOnWrongUid(db, w, 5_000)
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 100 h (account 1001)
    await syncAt(t.db.database, JAN_START + 14 * DAY - 3600_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
    await setSiteUid(t, token, alice, 1002)
  })

  it("does not show the new account's history as the month's seeding before the next sync", async () => {
    const preview = await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-01' } })
    expect(preview.status).toBe(200)
    const entry = preview.body.data.list.find((e) => e.userId === alice)
    // Before the fix: seedHours 4,900, amount 45,502.42, partial false.
    expect(entry?.seedHours ?? 0).toBeLessThanOrEqual(14 * 24)
  })
})
