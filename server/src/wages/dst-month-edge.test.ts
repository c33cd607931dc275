/**
 * A rules time zone whose DST starts at local midnight on the 1st (America/Asuncion, 2023-10-01 00:00 → 01:00;
 * Cuba does the same): October 1st has no midnight, and the day starts at the change (local-day.ts dayStart). Before,
 * September "ended" at 23:00 on the 30th: 生成工资 was accepted an hour early, and a claim made at 23:30 that day
 * counted in October. Found by an outside tester.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { derive } from '../derive'
import { localDateTime } from '../domain/local-day'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { monthNotOverMessage, periodBounds, periodOf } from './period'
import { windowGain } from './window'

const ZONE = 'America/Asuncion'
const H = 3600
const ADMIN_PASSWORD = 'Admin-pass-1'
// 2023-09-01 00:00 in Asunción (UTC−4).
const SEP_START = Date.UTC(2023, 8, 1, 4, 0)
// 2023-10-01: clocks go 00:00 → 01:00 (UTC−4 → UTC−3); the first instant of October 1st is 04:00Z.
const OCT_START = Date.UTC(2023, 9, 1, 4, 0)
// 2023-09-30 23:15 local (UTC−4): September is still running.
const SEP_30_2315 = Date.UTC(2023, 9, 1, 3, 15)

describe('month bounds in a zone whose DST starts at midnight on the 1st', () => {
  it('September ends at the first instant of October 1st, not at 23:00 on September 30th', () => {
    expect(localDateTime(SEP_30_2315, ZONE)).toBe('2023-09-30 23:15:00')
    expect(periodOf(SEP_30_2315, ZONE)).toBe('2023-09')
    const sep = periodBounds('2023-09', ZONE)
    // Any instant still in September (by the zone's own clock) must be before the period's end.
    expect(SEP_30_2315 < sep.endMs, `September ends at ${localDateTime(sep.endMs, ZONE)} local`).toBe(true)
    expect(sep.endMs).toBe(OCT_START)
  })

  it('a claim made at 23:30 on the last day counts in September, not in October', () => {
    const claimAt = Date.UTC(2023, 9, 1, 3, 30) // 2023-09-30 23:30 local
    expect(periodOf(claimAt, ZONE)).toBe('2023-09')
    const counters = { seedTimeSec: 0, uploaded: 0 }
    const record = {
      claim: { at: claimAt, begin: { seedTimeSec: 100 * H, uploaded: 0 } },
      assignedAt: null,
      snatchStartedAt: null,
      atPeriodStart: counters,
      atAssignment: null,
      firstSeen: null,
      atEnd: { seedTimeSec: 101 * H, uploaded: 0 },
    }
    // September's window must hold the claim (tie began inside it).
    expect(windowGain(record, periodBounds('2023-09', ZONE))).not.toBeNull()
  })
})

describe.each(openTestDatabases().slice(0, 1))('生成工资 in America/Asuncion at 23:15 on September 30th ($name)', (backend) => {
  const clock = testClock(SEP_30_2315)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let admin = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.member('alice', 1001)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, timezone: ZONE, officialTeams: ['CedarHD'] }, SEP_START - 86_400_000, null)
    await w.torrent(1, { team: 1, size: 10 * GIB, added: Date.UTC(2023, 0, 1), seeders: 2, name: 'Official.1-CedarHD' })
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, uploaded: 0, lastAction: SEP_START - 86_400_000 })
    await w.claim(1001, 1, Date.UTC(2023, 5, 1))
    await derive(t.db.database, { now: SEP_START + 30 * 60_000 })
    await copyRecordCounters(db, 20230901)
    await w.updateSnatch(1001, 1, { seedtime: 1650 * H })
    await derive(t.db.database, { now: SEP_30_2315 - 60_000 })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('refuses: September is not over yet by the rules’ time zone', async () => {
    const res = await t.call('POST', '/wages/compute', { token: admin, body: { period: '2023-09' } })
    expect(res.body.msg).toBe(monthNotOverMessage('2023-09'))
    expect(res.status).toBe(409)
  })
})
