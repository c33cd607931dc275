/**
 * Found by an outside tester (fixed since; the test keeps it so): a closed month's keeper ranks change when a same-second claim is given up after the month.
 *
 * What an admin sees: alice and bob claimed official torrent 1 in the same second (NexusPHP's created_at has whole
 * seconds); bob's claim was made first (lower claims.id), so January pays bob keeper 1 (f = 1) and alice keeper 2
 * (f = 0.8) — keeper-rank-same-second.test.ts. On February 3rd bob gives up his claim on the site. The admin regenerates
 * January (any reason: another member's fix, a rules tweak not touching these two) — and bob is now keeper 2 and alice
 * keeper 1: their amounts swap, though nothing of January changed.
 *
 * Correct (domain.md §4): "A closed month is paid by the ties and torrents of its end, kept with that first snapshot of
 * the next month (`month_end_ties` …): a claim given up … after the 1st still pays the month it was kept", and
 * "Computing the same month twice with the same data and rules gives the same numbers." `keeperRank` orders the keepers
 * by claim time; the tie-break of one second must come from the month's end too, not from today's site_claims.
 *
 * Cause was: reader.ts `sameSecondClaims` read the current `site_claims` (and the members' current site UIDs): bob's
 * claim row was gone, so no same-second pair was found and the tie fell back to users.id (alice first). A closed month
 * now reads the claim ids kept at its end (month_end_ties.claim_id, migration 0041).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { queuePairs } from '../derive/queue'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { memberAmount, torrentValue } from './formula'
import { DAY, FEB_START, H, JAN_START, januaryRules, januaryScene, TORRENT_ADDED, ZONE } from './testing/january'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('a same-second claim given up after the month on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 5 * DAY) })
  let token = ''
  let alice = 0
  let bob = 0

  const wageAt = (rank: number) =>
    memberAmount(
      {
        sumValue: torrentValue({ weeks: (FEB_START - TORRENT_ADDED) / (7 * DAY), sizeGiB: 20, seeders: 2, keeperRank: rank }, januaryRules),
        qualifiedCount: 1,
        avgSeedHours: 400,
      },
      januaryRules,
    )

  async function record(userId: number): Promise<{ record: WageRecord; detail: WageDetail }> {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId },
    })
    const r = page.body.data.list[0]!
    return { record: r, detail: (await t.call<WageDetail>('GET', `/wages/${r.id}`, { token })).body.data }
  }

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1])
    alice = await w.member('alice_gu', 1001)
    bob = await w.member('bob_gu', 1002)
    for (const uid of [1001, 1002]) await w.snatch(uid, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    const sameSecond = Date.UTC(2025, 6, 1, 4, 0, 0)
    await w.claim(1002, 1, sameSecond) // bob first: lower claims.id
    await w.claim(1001, 1, sameSecond)
    await syncAt(t.db.database, JAN_START + 20 * 60_000, ZONE)
    for (const uid of [1001, 1002]) await w.updateSnatch(uid, 1, { seedtime: 1400 * H })
    await syncAt(t.db.database, FEB_START + 20 * 60_000, ZONE) // January's end snapshot: both claims kept
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('January computed before the claim is given up: bob keeper 1, alice keeper 2 (as keeper-rank-same-second)', async () => {
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    expect((await record(bob)).detail.items[0]!.keeperRank).toBe(1)
    expect((await record(alice)).detail.items[0]!.keeperRank).toBe(2)
  })

  it('regenerating January after bob gives up his claim (February 3rd) gives the same ranks and amounts', async () => {
    const { db } = t.db.database
    await db.deleteFrom('site_claims').where('uid', '=', 1002).where('torrent_id', '=', 1).execute()
    await queuePairs(db, [{ userId: bob, torrentId: 1 }])
    await syncAt(t.db.database, FEB_START + 2 * DAY + 20 * 60_000, ZONE)

    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const b = await record(bob)
    const a = await record(alice)
    // bob's claim was first at January's end: still keeper 1, f = 1.
    expect(b.detail.items[0]!.keeperRank, 'bob claimed first (January as kept at its end)').toBe(1)
    expect(a.detail.items[0]!.keeperRank, 'alice claimed second').toBe(2)
    expect(b.record.amount).toBe(wageAt(1))
    expect(a.record.amount).toBe(wageAt(2))
  })
})
