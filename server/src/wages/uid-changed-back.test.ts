/**
 * Found by an outside tester (fixed since; the test keeps it so): a 站点 UID changed and changed straight back (an admin's slip, undone a minute later, before any sync) cuts
 * the member's month at the change: both changes are noted as rebases at the next sync, with the counters of the
 * account she had all along, and January counts only from there (部分月份) — though the start snapshot counted the
 * same account and no sync ever saw another one. domain.md §4 rebases because "the start snapshot counted another
 * account (or none)"; here it did not.
 *
 * alice (UID 1001): 100 h on January 1st, 400 h on January 15th, 700 h on February 1st — 600 h in January. On January
 * 15th the admin sets her UID to 1002 by mistake and back to 1001 a minute later. January pays 300 h.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { computedJanuary, DAY, FEB_START, H, JAN_START, januaryScene, setSiteUid, siteAccount, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a site UID changed and changed back on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w)
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 100 * H, lastAction: JAN_START - DAY })
    await siteAccount(db, 1002, 'someone_else')
    await w.snatch(1002, 1, { finished: true, seedtime: 3_000 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 100 h
    await w.updateSnatch(1001, 1, { seedtime: 400 * H })
    await syncAt(t.db.database, JAN_START + 14 * DAY - 3600_000, ZONE)

    token = await t.login('admin', ADMIN_PASSWORD)
    for (const siteUid of [1002, 1001]) {
      await setSiteUid(t, token, alice, siteUid)
      clock.advance(60_000)
    }
    await syncAt(t.db.database, JAN_START + 14 * DAY + 600_000, ZONE)

    await w.updateSnatch(1001, 1, { seedtime: 700 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    clock.set(FEB_START + 5 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('pays January all 600 h of the account she had all month', async () => {
    const { detail } = await computedJanuary(t, token, alice)
    // Before the fix: seedHours 300, partial true.
    expect(detail.items[0]).toMatchObject({ torrentId: 1, seedHours: 600, partial: false })
  })
})
