/**
 * Found by an outside tester (fixed since; the test keeps it so): a month's end counters were never read, yet 生成工资
 * saved a full month, unmarked.
 *
 * domain.md §4: "Computation reads the snatch counters at the period's start and end"; a month "gives the same numbers
 * whenever it is computed". Here the site's database was unreachable from January 20th (the last sync) until after
 * February 1st. On February 1st 02:00 the admin generated January: with no snapshot on or after February 1st the reader
 * took the live counters of the last sync — January 20th's — as January's end. Alice's last 11 days were cut: 250 h
 * instead of the 350 h NexusPHP's cron counts on February 1st, 做种时长不足, 0 paid, nothing on the record saying so;
 * once the sync was back, the same January computed to the full amount. 预览计算 and 生成工资 of a month that is over
 * now wait, with a 409 saying why, for the first sync after it (routes/wages.ts requireMonthEndRead).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRecord } from '@shared/entities'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { DAY, FEB_START, H, JAN_START, januaryScene, januaryWageAt, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('January generated before any sync read its end on $name', (backend) => {
  const clock = testClock(FEB_START + 2 * 3600_000)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let token = ''
  let alice = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1])
    alice = await w.member('alice_me', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - 20 * DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 20 * 60_000, ZONE) // January's start: 1,000 h
    await w.updateSnatch(1001, 1, { seedtime: 1250 * H })
    await syncAt(t.db.database, JAN_START + 19 * DAY, ZONE) // January 20th: 1,250 h — the last sync for a while
    // The site keeps counting: 1,350 h on February 1st 00:00, when NexusPHP's cron settles January.
    await w.updateSnatch(1001, 1, { seedtime: 1350 * H })
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('refuses to preview or generate January until a sync has read its end, then pays the whole month', async () => {
    for (const path of ['/wages/preview', '/wages/compute']) {
      const res = await t.call('POST', path, { token, body: { period: '2026-01' } })
      expect(res.status, path).toBe(409)
      expect(res.body.msg).toContain('2026-01 月底的做种计数还没有同步到')
    }
    // The site is back: February's first sync reads January's end.
    await syncAt(t.db.database, FEB_START + 3 * 3600_000, ZONE)
    clock.set(FEB_START + 4 * 3600_000)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    expect(page.body.data.list[0]).toMatchObject({ seedHours: 350, amount: januaryWageAt(350), partial: false })
  })
})
