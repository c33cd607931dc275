/**
 * Found by an outside tester (fixed since; the test keeps it so): after a mid-month 站点 UID change, whether the new account's snatch that began inside the month is counted
 * from 0 (its startdat, domain.md §4's first rule) or from the change (the rebase) depends on the OLD, wrong account's
 * counters. The reader looks `startdat` up only when the end counters are below the start snapshot's (reader.ts
 * `started`), and window.ts puts a snatch begun in the window before the rebase.
 *
 * alice and carol were added with wrong UIDs: alice's (1001) had 100 h of torrent 1 on January 1st, carol's (2001)
 * 1,000 h of torrent 2. Their real accounts (1002, 2002) each started their torrent on January 3rd, had 250 h when
 * the admin corrected both UIDs on January 15th and 550 h on February 1st. Same seeding, same rules: January counts
 * carol 550 h (from 0: her end counters are below 1,000 h) and alice 300 h (from the change).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { computedJanuary, DAY, FEB_START, H, JAN_START, januaryScene, setSiteUid, siteAccount, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a corrected site UID whose real account began the torrent this month on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, carol: 0 }
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1, 2])
    const people = [
      ['alice', 1001, 1002, 1, 100],
      ['carol', 2001, 2002, 2, 1_000],
    ] as const
    for (const [name, wrong, real, torrent, wrongHours] of people) {
      ids[name] = await w.member(name, wrong)
      await w.snatch(wrong, torrent, { finished: true, seedtime: wrongHours * H, lastAction: JAN_START - 30 * DAY })
      await siteAccount(db, real, `${name}_real`)
      await w.assign(ids[name], torrent, Date.UTC(2025, 6, 1))
    }
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot (the wrong accounts)

    // January 3rd: both real accounts start their torrent (startdat January 3rd); 250 h by the 15th.
    for (const [, , real, torrent] of people)
      await w.snatch(real, torrent, { finished: true, seedtime: 250 * H, lastAction: JAN_START + 3 * DAY })
    token = await t.login('admin', ADMIN_PASSWORD)
    for (const [name, , real] of people) {
      await setSiteUid(t, token, ids[name], real)
    }
    await syncAt(t.db.database, JAN_START + 14 * DAY + 600_000, ZONE)

    for (const [, , real, torrent] of people) await w.updateSnatch(real, torrent, { seedtime: 550 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    clock.set(FEB_START + 5 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it("counts the two the same: the wrong account's history does not decide the month", async () => {
    const hours: Record<string, number> = {}
    for (const name of ['alice', 'carol'] as const) hours[name] = (await computedJanuary(t, token, ids[name])).detail.items[0]!.seedHours
    // Before the fix: { alice: 300, carol: 550 }.
    expect(hours.alice).toBe(hours.carol)
  })
})
