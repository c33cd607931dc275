/**
 * Found by an outside tester (fixed since; the test keeps it so): two members claim the same official torrent in the
 * same second. NexusPHP writes claims.created_at in whole seconds, so the two claims carry the same time; which one was
 * made first is still known — `claims.id` is AUTO_INCREMENT (ClaimRepository::store → Claim::create).
 *
 * domain.md §4: "`keeperRank` = order of the member among the torrent's qualified keepers by claim time (1 = first)",
 * with f = keeperRankFactors[rank − 1] = [1, 0.8, 0.6, 0.3]. Bob claimed first (lower claim id): keeper 1 (f = 1), alice
 * keeper 2 (f = 0.8). The console broke the tie by its own users.id, so alice, added to the console first, was ranked 1
 * and the two amounts were swapped. Ties of one second now go by the site's claim order (reader.ts sameSecondClaims).
 *
 * Also found by an outside tester: once bob gave up his claim after the month (February 3rd), regenerating January read
 * the tie-break from the claims there now — bob's was gone — and swapped the two again, though nothing of January had
 * changed (domain.md §4: a claim given up after the 1st still pays the month it was kept; the same month computed twice
 * gives the same numbers). A closed month reads the claim ids kept at its end (month_end_ties.claim_id, migration 0041).
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

describe.each(openTestDatabases())('two claims of one torrent in the same second on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 5 * DAY) })
  let token = ''
  let alice = 0
  let bob = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await januaryScene(db, w, [1])
    // alice is added to the console first (lower users.id) …
    alice = await w.member('alice_kr', 1001)
    bob = await w.member('bob_kr', 1002)
    for (const uid of [1001, 1002]) await w.snatch(uid, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    // … but bob claimed first: both claims at 2025-07-01 12:00:00 (TIMESTAMP seconds), bob's row inserted first (lower
    // claims.id — SeedingWorld gives ids in call order).
    const sameSecond = Date.UTC(2025, 6, 1, 4, 0, 0)
    await w.claim(1002, 1, sameSecond)
    await w.claim(1001, 1, sameSecond)
    const claims = await db.selectFrom('site_claims').select(['id', 'uid']).orderBy('id').execute()
    expect(claims.map((c) => c.uid)).toEqual([1002, 1001])
    await syncAt(t.db.database, JAN_START + 20 * 60_000, ZONE)
    for (const uid of [1001, 1002]) await w.updateSnatch(uid, 1, { seedtime: 1400 * H })
    await syncAt(t.db.database, FEB_START + 20 * 60_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

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

  it('the member whose claim was made first (lower claims.id) is keeper 1 and paid f = 1', async () => {
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const b = await record(bob)
    const a = await record(alice)
    expect(b.detail.items[0]!.keeperRank, 'bob claimed first').toBe(1)
    expect(a.detail.items[0]!.keeperRank, 'alice claimed second').toBe(2)
    expect(b.record.amount).toBe(wageAt(1))
    expect(a.record.amount).toBe(wageAt(2))
    expect(b.record.amount).toBeGreaterThan(a.record.amount)
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
