/**
 * Found by an outside tester (fixed since; the test keeps it so): a member's daily series (user-seeding-sta `daily`, the chart of the member detail on 保种员
 * and of the member's own 首页 block) drops the days after their last seed record left.
 *
 * stats/daily.ts recordDailyStats wrote daily_member_stats only for members that have a member_seed_stats row, and
 * derive/counts.ts deletes that row once a member has no record left (an assignment taken back, a peer gone with no
 * snatch). From that sync on, nothing was written for the member: their series simply ends on the last day they had
 * a record — the chart's last point still shows them seeding, while the same answer's `seedingCount` (and 保种员's
 * row) says 0. The day the record left must be in the series, with 0.
 */
import { describe, expect, it } from 'vitest'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { currentRules } from '../rules/rules'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { pendingWageEstimates } from '../wages/estimates'
import { recordDailyStats } from './daily'
import { computeUserStats } from './user'

// 2026-01-14 12:00 and 2026-01-15 12:00 in Asia/Shanghai.
const DAY1 = Date.UTC(2026, 0, 14, 4, 0, 0)
const DAY2 = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('a member whose last record left keeps a daily series ($name)', (backend) => {
  const t = useSeedingDb(backend)

  it("shows the day the member's last record left, with 0 seeding", async () => {
    const { db } = t.db.database
    const w = t.world
    const alice = await w.member('alice', 1001)
    await w.member('bob', 1002)
    await w.torrent(1, { size: 5 * GIB })
    await w.torrent(2, { size: 3 * GIB })
    // Day 1: alice seeds torrent 1 (a peer only: her one tie to it); bob seeds torrent 2 throughout.
    const peer = await w.peer(1001, 1, { seeder: true, lastAction: DAY1 - 60_000 })
    await w.peer(1002, 2, { seeder: true, lastAction: DAY1 - 60_000 })
    await derive(t.db.database, { now: DAY1 })
    await recordDailyStats(db, 20260114)

    // Day 2: alice's client left the swarm; bob's is still announcing. The sync derives and records the day.
    await w.removePeer(peer)
    await db
      .updateTable('site_peers')
      .set({ last_action: DAY2 - 60_000 })
      .where('userid', '=', 1002)
      .execute()
    await derive(t.db.database, { now: DAY2 })
    await recordDailyStats(db, 20260115)

    const rules = await currentRules(db)
    const stats = await computeUserStats(db, alice, { now: DAY2, days: 2, rules, wages: pendingWageEstimates })
    // (control) her current figures already say she seeds nothing.
    expect(stats.seedingCount).toBe(0)
    expect(stats.seedingSize).toBe(0)
    // The series must cover 2026-01-15 too, with the same 0 — not end on 01-14 showing her still seeding 5 GiB.
    expect(stats.daily.map((d) => d.date)).toEqual(['2026-01-14', '2026-01-15'])
    expect(stats.daily.at(-1)).toMatchObject({ date: '2026-01-15', seedingCount: 0, seedingSize: 0 })
  })
})
