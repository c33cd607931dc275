/**
 * Found by an outside tester (fixed since; the test keeps it so): a closed month's wage changed when the site re-created
 * a snatch AFTER the month ended, and then paid the snatch's whole history.
 *
 * alice is added to the console on January 10th (her January counts from that first observation, 部分月份: domain.md
 * §4). Her snatch of torrent 1 is old (1,000 h on January 10th) and has 1,350 h on February 1st: January = 350 h.
 * On February 10th the site re-creates her snatched row (`startdat` = February 10th, counters from 0); January's data is
 * unchanged. The reader looks the CURRENT snatch's start up, and window.ts took a start after the period's end as "the
 * snatch began inside the window" — baseline 0, the end snapshot's whole counters (1,350 h). A start after the period
 * is not the month's snatch.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { computedJanuary, DAY, FEB_START, H, JAN_START, januaryScene, januaryWageAt, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a snatch re-created after the month ended on $name', (backend) => {
  const clock = testClock(FEB_START + 5 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''
  let before: { seedHours: number; amount: number; partial: boolean } | null = null

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1])
    // bob, a member since long ago, so January has its start snapshot.
    await w.member('bob', 2001)
    await w.snatch(2001, 1, { finished: true, seedtime: 10 * H, lastAction: JAN_START - DAY })
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE)

    // January 10th: alice is added; her snatch (since 2025) has 1,000 h, her claim is from July 2025.
    alice = await w.member('alice', 1001)
    // Her snatch began long before January (startdat in December 2025).
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - 20 * DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 9 * DAY + 600_000, ZONE)

    // February 1st: 1,350 h (350 h since she was first seen).
    await w.updateSnatch(1001, 1, { seedtime: 1350 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)

    token = await t.login('admin', ADMIN_PASSWORD)
    const first = await computedJanuary(t, token, alice)
    before = { seedHours: first.detail.items[0]!.seedHours, amount: first.record.amount, partial: first.record.partial === true }

    // February 10th: the site re-creates the snatched row (new id, startdat now, counters from 0).
    const recreatedAt = FEB_START + 9 * DAY
    await w.recreateSnatch(1001, 1, recreatedAt)
    await w.updateSnatch(1001, 1, { seedtime: 2 * H }) // 2 h seeded since
    await syncAt(t.db.database, recreatedAt + 2 * 3600_000, ZONE)
    clock.set(FEB_START + 11 * DAY)
  })

  it('January first computed as 350 h from her first observation (部分月份)', () => {
    expect(before).toEqual({ seedHours: 350, amount: januaryWageAt(350), partial: true })
  })

  it('recomputing January after the site re-created the snatch in February pays the same, never the whole history', async () => {
    const again = await computedJanuary(t, token, alice)
    // Before the fix: 1,350 h (the whole snatch) and januaryWageAt(1350).
    expect(again.detail.items[0]!.seedHours).toBe(350)
    expect(again.record.amount).toBe(januaryWageAt(350))
    expect(again.record.partial).toBe(true)
  })
})
