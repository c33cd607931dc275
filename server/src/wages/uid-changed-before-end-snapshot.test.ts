/**
 * Found by an outside tester (fixed since; the test keeps it so): a 站点 UID corrected after the month's end but before the month's first sync (the end snapshot) pays the new
 * account's whole history as the closing month's seeding.
 *
 * January's end counters are the first snapshot of February 1st (taken by its first sync, 00:20). The change at 00:05
 * is dated in February, so January's read skips its rebase (reader.ts keeps only rebases with rebased_at < endMs),
 * yet the end snapshot it reads already holds the NEW account's counters: January = new account's 5,000 h − old
 * account's 100 h = 4,900 h, in a month of 744 hours.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { aliceOnWrongUid, computedJanuary, DAY, FEB_START, H, JAN_START, januaryScene, setSiteUid, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a site UID corrected between the month end and its end snapshot on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w)
    // alice was added with a wrong UID (1001: stopped at 100 h long ago); her real account 1002 has 5,000 h.
    alice = await aliceOnWrongUid(db, w, 4_700)
    await syncAt(t.db.database, JAN_START + 20 * 60_000, ZONE) // January's start snapshot: 100 h (account 1001)
    await syncAt(t.db.database, JAN_START + 20 * DAY, ZONE)

    await w.updateSnatch(1002, 1, { seedtime: 5_000 * H })
    // February 1st, 00:05 — after the month's end, before the day's first sync: the admin corrects the UID.
    clock.set(FEB_START + 5 * 60_000)
    token = await t.login('admin', ADMIN_PASSWORD)
    await setSiteUid(t, token, alice, 1002)
    await syncAt(t.db.database, FEB_START + 20 * 60_000, ZONE) // January's end snapshot: 5,000 h (account 1002)
    clock.set(FEB_START + 4 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it("does not pay January the new account's history (at most the month's 744 hours, 部分月份)", async () => {
    const { detail } = await computedJanuary(t, token, alice)
    const item = detail.items.find((i) => i.torrentId === 1)!
    // Before the fix: seedHours 4,900 (5,000 h of account 1002 − 100 h of account 1001), qualified, partial false.
    expect(item.seedHours).toBeLessThanOrEqual(31 * 24)
    expect(item.partial).toBe(true)
  })
})
