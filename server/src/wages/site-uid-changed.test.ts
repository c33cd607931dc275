/**
 * An admin corrects a member's 站点 UID mid-month (保种员 → 编辑, POST /user/update): January counts from the first sync
 * after the change (部分月份), not from the old account's counters in the start snapshot — domain.md §4: a record "first
 * saw after the window start … takes the counters of its first observation … never its whole history". Found by an
 * outside tester: the record kept its id, so January's wage counted from the OLD account's 100 h to the NEW account's
 * 5,300 h at the month's end — the new account's whole history paid as January's.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import {
  aliceOnWrongUid,
  computedJanuary,
  DAY,
  FEB_START,
  H,
  JAN_START,
  januaryScene,
  januaryWageAt,
  setSiteUid,
  ZONE,
} from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const wageAt = januaryWageAt

describe.each(openTestDatabases())('a member whose site UID is corrected mid-month on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w)
    // alice was added with a wrong UID (1001, someone who once downloaded torrent 1 and stopped at 100 h).
    alice = await aliceOnWrongUid(db, w, 4_800)
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 100 h (account 1001)

    await w.updateSnatch(1002, 1, { seedtime: 5_000 * H })
    await syncAt(t.db.database, JAN_START + 14 * DAY - 3600_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
    // January 15th: the admin corrects alice's UID to 1002.
    await setSiteUid(t, token, alice, 1002)
    await syncAt(t.db.database, JAN_START + 14 * DAY + 600_000, ZONE)

    // She seeds 300 h more on her real account by February 1st.
    await w.updateSnatch(1002, 1, { seedtime: 5_300 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    clock.set(FEB_START + 5 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it("pays January only what was seeded on the new account after the change (部分月份), not the account's history", async () => {
    const { record, detail } = await computedJanuary(t, token, alice)
    expect(detail.items[0]).toMatchObject({ torrentId: 1, seedHours: 300, qualified: true, partial: true })
    expect(record.seedHours).toBe(300)
    expect(record.amount).toBe(wageAt(300))
  })
})
