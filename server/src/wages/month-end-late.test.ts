/**
 * The server down on the next month's 1st (found by an outside tester): the month's end counters are then the first
 * sync's after it — days of the next month count in the closing one. They are not lost (the next month starts from
 * the same snapshot), but the month is not the month: NexusPHP's cron, which settles on the 1st at 00:00, may pay
 * another amount (a claim reached only in those days). The console says so: every record of the month is 部分月份, as
 * a month whose first snapshot came late is (docs/domain.md "The month's edge").
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRecord } from '@shared/entities'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { computedJanuary, DAY, FEB_START, H, JAN_START, januaryScene, januaryWageAt, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('the server down on February 1st and 2nd on $name', (backend) => {
  const clock = testClock(FEB_START + 5 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let token = ''
  let alice = 0
  let bob = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1])
    alice = await w.member('alice', 1001)
    bob = await w.member('bob', 1002)
    for (const uid of [1001, 1002]) {
      await w.snatch(uid, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - 20 * DAY })
      await w.claim(uid, 1, Date.UTC(2025, 6, 1))
    }
    await syncAt(t.db.database, JAN_START + 20 * 60_000, ZONE) // January's start: 1,000 h each

    await w.updateSnatch(1001, 1, { seedtime: 1266 * H })
    await w.updateSnatch(1002, 1, { seedtime: 1400 * H })
    await syncAt(t.db.database, JAN_START + 30 * DAY + 20 * 60_000, ZONE) // January 31st; then the server goes down

    // The console's next sync: February 3rd (alice 1,338 h, bob 1,448 h).
    await w.updateSnatch(1001, 1, { seedtime: 1338 * H })
    await w.updateSnatch(1002, 1, { seedtime: 1448 * H })
    await syncAt(t.db.database, FEB_START + 2 * DAY + 20 * 60_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('January counts to the first sync after it, and every record says the month was not read on its 1st', async () => {
    const records = new Map<number, WageRecord>()
    for (const id of [alice, bob]) {
      const { record, detail } = await computedJanuary(t, token, id)
      records.set(id, record)
      expect(detail.items.map((i) => i.partial)).toEqual([true])
    }
    expect(records.get(alice)).toMatchObject({ seedHours: 338, amount: januaryWageAt(338), partial: true })
    expect(records.get(bob)).toMatchObject({ seedHours: 448, partial: true }) // its amount: the second keeper's
  })
})
