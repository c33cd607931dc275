/**
 * Found by an outside tester (fixed since; the test keeps it so): on a server that started mid-month (a new install, a new source — the case the estimates'
 * "pace" is written for), the month's estimate believes it has seen the counters since local midnight of the first
 * snapshot's day, not since that snapshot was taken.
 *
 * wages/estimates.ts recompute() had `observedFrom = max(period start, dayStart(first snapshot day))`; a late first
 * snapshot now counts from the end of its day. A first sync at
 * 18:00 on the 15th is taken as observing from 00:00 on the 15th: 18 hours that no counter covers. So, at 00:30 on
 * the 16th — 6.5 hours after the first counters were read — the estimate thinks 24.5 hours have been seen: it passes
 * MIN_OBSERVED_MS ("Below-minimum flags need a day of counters … nobody is flagged below them until a day of the
 * month has been seen"), scales the 300 h standard to 9.9 h, which nobody can have gained in 6.5 h, and flags every
 * member below the minimum. Their claimed, actively seeding records turn 无工资 (5) in 任务分配 / 我的任务, 首页's
 * 本月预计工资总额 and top 10 read 0, until the counters catch up hours later — exactly what the rule is there to
 * prevent. A member seeding all along must not be flagged on 6.5 hours of counters.
 */
import { describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { takeDailySnapshot } from '../snapshots/write'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { createWageEstimates } from './estimates'
import { wageDb } from './tables'

const H = 3600
const TZ = 'Asia/Shanghai'
/** The new install's first sync: 2026-01-15 18:00 Asia/Shanghai. */
const FIRST = Date.UTC(2026, 0, 15, 10, 0, 0)
/** A sync 6.5 hours later: 2026-01-16 00:30 Asia/Shanghai. */
const LATER = FIRST + 6.5 * H * 1000

describe.each(openTestDatabases())('wage estimates on the first day a mid-month server has seen ($name)', (backend) => {
  const t = useSeedingDb(backend)

  it('flags nobody below the minimums before a day of counters has been seen', async () => {
    const { db } = t.db.database
    const w = t.world
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, Date.UTC(2025, 11, 1), null)
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 5, 1), seeders: 2 })
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, uploaded: 5 * GIB, lastAction: FIRST - 60_000 })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await w.peer(1001, 1, { seeder: true, lastAction: FIRST - 60_000 })

    // First sync ever: derivation, then the day's counter snapshot (the month's first: 2026-01-15).
    await derive(t.db.database, { now: FIRST })
    await takeDailySnapshot(t.db.database, { now: FIRST, timeZone: TZ })
    expect((await w.record(alice, 1))?.status).toBe(SeedStatus.Seeding) // control

    // 6.5 hours later alice has seeded all along: +6.5 h of seed time.
    await w.updateSnatch(1001, 1, { seedtime: 1006.5 * H })
    await db
      .updateTable('site_peers')
      .set({ last_action: LATER - 60_000 })
      .where('userid', '=', 1001)
      .execute()
    await derive(t.db.database, { now: LATER })
    await takeDailySnapshot(t.db.database, { now: LATER, timeZone: TZ })

    // The estimates are refreshed (as the sync's statistics refresh does), and the next pass applies their flags.
    const wages = createWageEstimates()
    await wages.refresh(db, LATER, true)
    const estimate = await wageDb(db).selectFrom('wage_estimates').selectAll().where('user_id', '=', alice).executeTakeFirst()
    // Only 6.5 hours of counters: too little to judge anyone below the minimums.
    expect(Number(estimate?.below_minimum ?? 0)).toBe(0)
    await derive(t.db.database, { now: LATER })
    // Her claimed record, seeding right now, stays 做种中 — not 无工资.
    expect((await w.record(alice, 1))?.status).toBe(SeedStatus.Seeding)
  })
})
