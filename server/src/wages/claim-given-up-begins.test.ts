/**
 * Found by an outside tester (fixed since; the test keeps it so): a claim made mid-month and given up after the month's end is paid from the month's 1st instead of from the
 * claim. The closed month now reads its ties from month_end_ties (the claim is kept there), but the claim's begins
 * (`seed_time_begin` — domain.md §4: "a claim made inside the period starts from its seed_time_begin") are still
 * looked up in the CURRENT site_claims (reader.ts claimBegin joins site_claims through the member's site UID): the row
 * is gone, the begins read as 0, and the window falls back to the start snapshot.
 *
 * alice: 1,000 h on January 1st, claims torrent 1 on January 16th at 1,200 h (seed_time_begin), 1,500 h on February 1st.
 * January = 300 h (what a preview said on February 1st). She gives the claim up on February 2nd; 生成工资 on the 5th
 * pays 500 h.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WagePreviewEntry, WageRecord } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { queuePairs } from '../derive/queue'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { memberAmount, torrentValue } from './formula'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const ZONE = 'Asia/Shanghai'
const H = 3600
const DAY = 86_400_000
const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
const ADDED = Date.UTC(2025, 0, 1)
const rules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }
const wageAt = (hours: number) =>
  memberAmount(
    {
      sumValue: torrentValue({ weeks: (FEB_START - ADDED) / (7 * DAY), sizeGiB: 20, seeders: 2, keeperRank: 1 }, rules),
      qualifiedCount: 1,
      avgSeedHours: hours,
    },
    rules,
  )

describe.each(openTestDatabases())('a mid-month claim given up after the month on $name', (backend) => {
  const clock = testClock(FEB_START + DAY / 2)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''
  let previewed: WagePreviewEntry | undefined

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, rules, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: 20 * GIB, added: ADDED, seeders: 2 })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1_000 * H, lastAction: JAN_START - DAY })
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 1,000 h

    // January 16th: she claims torrent 1; NexusPHP notes the snatch's 1,200 h as the claim's begin.
    const claimedAt = JAN_START + 15 * DAY
    await w.updateSnatch(1001, 1, { seedtime: 1_200 * H })
    await w.claim(1001, 1, claimedAt)
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 1_200 * H, uploaded_begin: 0 })
      .where('uid', '=', 1001)
      .execute()
    await syncAt(t.db.database, claimedAt + 10 * 60_000, ZONE)

    await w.updateSnatch(1001, 1, { seedtime: 1_500 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // January's end snapshot (and its ties)
    token = await t.login('admin', ADMIN_PASSWORD)
    const preview = await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-01' } })
    previewed = preview.body.data.list.find((e) => e.userId === alice)

    // February 2nd: she gives the claim up.
    await db.deleteFrom('site_claims').where('uid', '=', 1001).where('torrent_id', '=', 1).execute()
    await queuePairs(db, [{ userId: alice, torrentId: 1 }])
    await syncAt(t.db.database, FEB_START + DAY + 600_000, ZONE)
    clock.set(FEB_START + 4 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('pays January from the claim (300 h), as it did before the claim was given up', async () => {
    expect(previewed).toMatchObject({ seedHours: 300, amount: wageAt(300) }) // the premise: before the give-up
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    expect(detail.items[0]).toMatchObject({ torrentId: 1, seedHours: 300, qualified: true })
    expect(record.amount).toBe(wageAt(300))
  })
})
