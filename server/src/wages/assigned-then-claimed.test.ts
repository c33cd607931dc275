/**
 * Found by an outside tester (fixed since; the test keeps it so): an assigned torrent that the member also claims mid-month is counted only from the claim: the days of the
 * month it was already assigned (and seeded) are dropped.
 *
 * What a member / admin sees (本站规则, mode `team`): alice has been assigned official torrent 1 since July 2025 and
 * seeds it all January (720 h in the month). On January 21st she also claims it on the site (NexusPHP notes the
 * snatch's counters then: ClaimRepository::store `seed_time_begin` / `uploaded_begin`). 生成工资 for January shows the
 * torrent 做种时长不足（240 小时 < 300 小时） and pays her 0 — claiming a torrent she was already responsible for cost
 * her the month. Had she claimed it on February 1st instead, January would have paid all 720 h. (The reverse order —
 * claimed before the month, assigned mid-month — counts the whole month: window.ts uses the claim whenever there is one.)
 *
 * Correct (domain.md §4): "The counting window runs from the later of the period start and the moment the tie began in
 * the period". The record's tie (claimed-or-assigned, §1) began in July with the assignment — before the period — so the
 * window is the whole month: 720 h, qualified, paid the formula's amount for one 20 GiB torrent at 720 h. A claim's
 * `seed_time_begin` is the baseline of a tie that *began* with that claim, not a reason to restart a tie that already
 * existed.
 *
 * Fixed in wages/window.ts `windowGain`: `tieAt = record.claim?.at ?? record.assignedAt` took the claim even when an
 * assignment began earlier; the window now starts at the earliest tie still held, and the claim's begins are used only
 * when the claim is what began it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { DAY, FEB_START, H, JAN_START, januaryScene, januaryWageAt, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('an assigned torrent claimed mid-month on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 3 * DAY) })
  let alice = 0
  let bob = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1, 2])
    alice = await w.member('alice', 1001)
    bob = await w.member('bob', 1002)
    await w.snatch(1002, 2, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    await w.assign(bob, 2, Date.UTC(2025, 6, 1))
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    await w.assign(alice, 1, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 1,000 h

    // January 21st: she claims it on the site at 1,480 h (what NexusPHP notes in the claim).
    const claimedAt = JAN_START + 20 * DAY
    await w.updateSnatch(1001, 1, { seedtime: 1480 * H })
    await w.claim(1001, 1, claimedAt)
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 1480 * H, uploaded_begin: 0 })
      .where('uid', '=', 1001)
      .execute()
    await syncAt(t.db.database, claimedAt + 600_000, ZONE)

    await w.updateSnatch(1001, 1, { seedtime: 1720 * H })
    await w.updateSnatch(1002, 2, { seedtime: 1720 * H })
    // February 1st, 00:10 — after January ended, before the sync that takes its end snapshot: bob claims torrent 2.
    await w.claim(1002, 2, FEB_START + 10 * 60_000)
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 1720 * H, uploaded_begin: 0 })
      .where('uid', '=', 1002)
      .execute()
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // January's end snapshot: 1,720 h
    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
  })

  it('counts the whole month the torrent was assigned: 720 h, qualified and paid', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    expect(detail.items.map((i) => [i.torrentId, i.seedHours, i.qualified, i.reason])).toEqual([[1, 720, true, null]])
    expect(record.amount).toBe(januaryWageAt(720))
  })

  it('a claim made after the month ended does not take away the January of a torrent assigned all month', async () => {
    // Same fault, sharper: the claim's moment (February 1st, 00:10) is after the period, so windowGain drops the
    // record altogether — bob's January has no item for the torrent he was assigned and seeded 720 h.
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: bob },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    expect(detail.items.map((i) => [i.torrentId, i.seedHours, i.qualified, i.reason])).toEqual([[2, 720, true, null]])
    expect(record.amount).toBe(januaryWageAt(720))
  })
})
