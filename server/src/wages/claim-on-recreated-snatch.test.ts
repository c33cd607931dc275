/**
 * Found by an outside tester (fixed since; the test keeps it so): a claim made mid-month on a snatch the site re-created earlier in the month is floored to the OLD snatch's
 * counters: the claim's whole month counts as 0 h.
 *
 * What a member / admin sees (preset 「NexusPHP 认领结算」): alice's old snatch of torrent 1 had 1,000 h on January 1st.
 * On January 5th the site's snatched row is gone and her client's next announce writes a new one (counters from 0,
 * `startdat` = Jan 5th — the 「counters reset (re-downloaded snatch)」 case). On January 10th she claims the torrent:
 * NexusPHP's ClaimRepository::store notes the NEW snatch (`snatched_id`) and its counters then, `seed_time_begin` =
 * 100 h. By February 1st the new snatch has 500 h: 400 h since the claim. NexusPHP's cron on February 1st
 * (ClaimRepository::settleUser: `bcsub($row->snatch->seedtime, $row->seed_time_begin)` = 400 h ≥ 300 h) pays her.
 * The console shows 做种时长不足（0 小时 < 300 小时） and pays 0.
 *
 * Why: wages/window.ts takes a mid-month claim's begins through `noLower(claim.begin, atPeriodStart)` — "counters only
 * grow, so a claim's noted counters are never below the month's start". They are below it when the snatch was
 * re-created after the start snapshot (the start snapshot holds the old snatch's 1,000 h), so the baseline becomes
 * 1,000 h and the gain max(0, 500 h − 1,000 h) = 0. The snatch did not begin inside the claim's window (Jan 5th <
 * Jan 10th), so the "snatch begun in the window starts from 0" rule does not rescue it either.
 *
 * Correct: the claim counts from what NexusPHP noted in it (its begins belong to the snatch the end counters belong to):
 * 400 h, qualified, paid what settleUser pays (testing/nexusphp-settle.ts, transcribed from NexusPHP) to 0.1 point.
 * Fixed in wages/window.ts windowGain (the claim branch): noted begins are not floored with a start snapshot that
 * belongs to an earlier snatch (the snatch's start — `snatchStartedAt` after the period start — says so).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, type WageDetail, type WageRecord } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { DAY, FEB_START, H, JAN_START, ZONE } from './testing/january'
import { settleUser, type NexusTorrent } from './testing/nexusphp-settle'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const torrent: NexusTorrent = { id: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1) / 1000, seeders: 2 }

/** NexusPHP's settlement on February 1st of the claim made January 10th: begins 100 h, snatch 500 h. */
const nexusphpJanuary = () =>
  settleUser(
    [
      {
        id: 1,
        torrentId: 1,
        seedTimeBegin: 100 * H,
        uploadedBegin: 0,
        createdMonth: 2026 * 12,
        lastSettleAt: null,
        snatch: { seedtime: 500 * H, uploaded: 0 },
      },
    ],
    new Map([[1, torrent]]),
    FEB_START / 1000,
    { month: 2026 * 12 + 1, at: FEB_START / 1000 },
  ).bonusFinal

describe.each(openTestDatabases())('a claim on a snatch re-created earlier in the month, on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 3 * DAY) })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], ...nexusphpClaimsPreset }, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: torrent.size, added: torrent.added * 1000, seeders: torrent.seeders })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: the old snatch, 1,000 h

    // January 5th: the old snatched row is gone; the next announce writes a new one (counters from 0).
    const recreatedAt = JAN_START + 4 * DAY
    await w.recreateSnatch(1001, 1, recreatedAt)
    await syncAt(t.db.database, recreatedAt + 30 * 60_000, ZONE)

    // January 10th: 100 h on the new snatch; alice claims it — NexusPHP notes the new snatch and its counters.
    const claimedAt = JAN_START + 9 * DAY
    await w.updateSnatch(1001, 1, { seedtime: 100 * H })
    await w.claim(1001, 1, claimedAt)
    await db
      .updateTable('site_claims')
      .set({ snatched_id: 9001, seed_time_begin: 100 * H, uploaded_begin: 0 })
      .where('uid', '=', 1001)
      .execute()
    await syncAt(t.db.database, claimedAt + 600_000, ZONE)

    // February 1st: 500 h on the new snatch — 400 h since the claim.
    await w.updateSnatch(1001, 1, { seedtime: 500 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
  })

  it('counts the claim from the begins NexusPHP noted (400 h) and pays what NexusPHP paid', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    expect(detail.items.map((i) => [i.torrentId, i.seedHours, i.qualified, i.reason])).toEqual([[1, 400, true, null]])
    const expected = nexusphpJanuary()
    expect(Math.abs(record.amount - expected), `console ${record.amount}, NexusPHP ${expected}`).toBeLessThanOrEqual(0.1)
  })
})
