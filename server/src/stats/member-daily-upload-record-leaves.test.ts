/**
 * Found by an outside tester (fixed since; the test keeps it so): a member's daily upload (user-seeding-sta `daily[].uploaded`, the member's 首页 chart and
 * the member detail on 保种员) shows 0 for a day they uploaded gigabytes, whenever one of their records left that day.
 *
 * stats/user.ts computes a day's upload as "the member's total uploaded over their current records" minus the day
 * before's (clamped at 0). When a record leaves — the site deletes a torrent (删种: its snatches and peers go with
 * it) — its whole lifetime upload drops out of the total, and the difference no longer is what was uploaded that day:
 * here 20 GiB uploaded on torrent 2 reads 0 because torrent 1's 100 GiB of history left. A record's departure is not
 * a negative upload; the day must show what the member's remaining records gained (20 GiB). The derivation now keeps what
 * leaving records had uploaded (derive/departed.ts) and the daily total counts it.
 */
import { describe, expect, it } from 'vitest'
import { derive } from '../derive'
import { currentRules, GIB } from '../rules/rules'
import { deleteMirror } from '../sources/mirror/delete'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { pendingWageEstimates } from '../wages/estimates'
import { recordDailyStats } from './daily'
import { computeUserStats } from './user'

// Noon in Asia/Shanghai on 2026-01-13, -14 and -15.
const DAY0 = Date.UTC(2026, 0, 13, 4, 0, 0)
const DAY1 = Date.UTC(2026, 0, 14, 4, 0, 0)
const DAY2 = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())("a member's daily upload when a record leaves ($name)", (backend) => {
  const t = useSeedingDb(backend)

  // An incremental pass judges the records of what changed; a full one (PostgreSQL: the whole-table pass) all of them.
  it.each([false, true])('counts what the remaining records uploaded that day (full pass: %s)', async (full) => {
    const { db } = t.db.database
    const w = t.world
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { size: 10 * GIB })
    await w.torrent(2, { size: 10 * GIB })
    await w.snatch(1001, 1, { finished: true, uploaded: 100 * GIB, seedtime: 500 * 3600, lastAction: DAY0 - 60_000 })
    await w.snatch(1001, 2, { finished: true, uploaded: 10 * GIB, seedtime: 100 * 3600, lastAction: DAY0 - 60_000 })
    await derive(t.db.database, { now: DAY0 })
    await recordDailyStats(db, 20260113)

    // Day 1: torrent 2 uploads 5 GiB (control: a plain day reads 5 GiB).
    await w.updateSnatch(1001, 2, { uploaded: 15 * GIB })
    await derive(t.db.database, { now: DAY1 })
    await recordDailyStats(db, 20260114)

    // Day 2: the site deletes torrent 1 (its snatched row goes with it); torrent 2 uploads 20 GiB more.
    const snatch1 = await db.selectFrom('site_snatched').select('id').where('torrentid', '=', 1).executeTakeFirstOrThrow()
    await deleteMirror(db, 'site_snatched', [snatch1.id])
    await deleteMirror(db, 'site_torrents', [1])
    await w.updateSnatch(1001, 2, { uploaded: 35 * GIB })
    await derive(t.db.database, { now: DAY2, full })
    await recordDailyStats(db, 20260115)
    // (control) torrent 1's record is gone from 我的任务 / 任务分配.
    expect(await w.record(alice, 1)).toBeUndefined()

    const rules = await currentRules(db)
    const stats = await computeUserStats(db, alice, { now: DAY2, days: 2, rules, wages: pendingWageEstimates })
    expect(stats.daily.map((d) => d.date)).toEqual(['2026-01-14', '2026-01-15'])
    expect(stats.daily[0].uploaded).toBe(5 * GIB) // control
    // She uploaded 20 GiB on 01-15 (torrent 2: 15 → 35 GiB); the chart must not read 0.
    expect(stats.daily[1].uploaded).toBe(20 * GIB)
  })
})
