/**
 * A snatch the site re-created inside the month (its counters start again from 0, `startdat` in the window) is counted
 * from 0, though its record was in the month's start snapshot (domain.md §4: "Only a snatch that itself began inside
 * the window (`startdat` ≥ window start) starts from 0"). Found by an outside tester: the reader read `startdat` only
 * for a record missing from the start snapshot, so the new snatch's 400 h were counted from the old one's 1,000 h —
 * `max(0, 400 h − 1,000 h)` = 0 → 做种时长不足 and a wage of 0.
 *
 * Torrent 2: the old snatch had only 100 h, and the new one has 400 h by the month's end — counters that only grew
 * between the two snapshots, so the reader did not look the start up and counted 300 h (found and left by the same
 * tester, fixed since: the derivation notes the restart, snatch_restarts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { DAY, FEB_START, H, JAN_START, januaryRules, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const rules = januaryRules

describe.each(openTestDatabases())('a snatch re-created mid-month on $name', (backend) => {
  const clock = testClock(FEB_START + 5 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, rules, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await w.torrent(2, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
    await w.snatch(1001, 2, { finished: true, seedtime: 100 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 2, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 1,000 h

    // January 10th: the site's snatched row is gone and a new one is written by the next announce
    // (new id, startdat = now, counters from 0).
    const recreatedAt = JAN_START + 9 * DAY
    for (const torrentId of [1, 2]) await w.recreateSnatch(1001, torrentId, recreatedAt)
    await syncAt(t.db.database, recreatedAt + 30 * 60_000, ZONE)

    // By February 1st each new snatch has 400 h: well over the 300 h standard.
    await w.updateSnatch(1001, 1, { seedtime: 400 * H })
    await w.updateSnatch(1001, 2, { seedtime: 400 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('counts the new snatch from 0 (it began inside the window) and pays the month', async () => {
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    const item = (torrentId: number) => detail.items.find((i) => i.torrentId === torrentId)
    expect(item(1)).toMatchObject({ seedHours: 400, qualified: true, reason: null })
    expect(item(2)).toMatchObject({ seedHours: 400, qualified: true, reason: null })
    expect(record.torrentCount).toBe(2)
  })
})
