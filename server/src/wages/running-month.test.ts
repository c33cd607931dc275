/**
 * 生成工资 only for a month that is over (domain.md §4: a period's wage reads the counters at its end). Before,
 * a running month could be generated and paid: a paid record never changes, so the rest of the month went unpaid,
 * and the half-made month became every member's default 工资排行. Found by an outside tester on a real server.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRankEntry, WageRecord } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'
const H = 3600
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0) // 2026-02-10 12:00 Asia/Shanghai: February is running
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0) // 2026-02-01 00:00 Asia/Shanghai
const MAR_START = Date.UTC(2026, 1, 28, 16, 0) // 2026-03-01 00:00 Asia/Shanghai

type Paged<T> = { list: T[]; total: number }

describe.each(openTestDatabases())('wages of the running month on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let admin = ''
  let member = ''
  let w: SeedingWorld

  beforeAll(async () => {
    const { db } = t.db.database
    w = new SeedingWorld(db)
    const hash = await hashPassword(MEMBER_PASSWORD, testScrypt)
    await w.member('alice', 1001, { passwordHash: hash })
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - 86_400_000, null)
    await w.torrent(1, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 5, 1), seeders: 2, name: 'Official.1.2024.1080p-CedarHD' })
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, uploaded: 5 * GIB, lastAction: JAN_START - 86_400_000 })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await derive(t.db.database, { now: JAN_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260101)
    await w.updateSnatch(1001, 1, { seedtime: 1500 * H })
    await derive(t.db.database, { now: FEB_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260201)
    // Nine days into February: 216 h seeded so far (the standard is 300 h a month).
    await w.updateSnatch(1001, 1, { seedtime: 1716 * H })
    await derive(t.db.database, { now: NOW - 60_000 })
    admin = await t.login('admin', ADMIN_PASSWORD)
    member = await t.login('alice', MEMBER_PASSWORD)
  })

  it('refuses to generate the wages of a month that has not ended, in Chinese; the month before is generated', async () => {
    const january = await t.call('POST', '/wages/compute', { token: admin, body: { period: '2026-01' } })
    expect(january.status, january.body.msg).toBe(200)
    const february = await t.call('POST', '/wages/compute', { token: admin, body: { period: '2026-02' } })
    expect(february.status).toBe(409)
    expect(february.body.msg).toBe('2026-02 尚未结束，月底之后才能生成工资（现在可以先预览计算）')
    // The preview of the running month still answers.
    expect((await t.call('POST', '/wages/preview', { token: admin, body: { period: '2026-02' } })).status).toBe(200)
    const page = await t.call<Paged<WageRecord>>('POST', '/wages/page', {
      token: admin,
      body: { page: 1, pageSize: 10, period: '2026-02' },
    })
    expect(page.body.data.total).toBe(0)
    // Members' 工资排行 opens on the last finished month.
    const rank = await t.call<Paged<WageRankEntry>>('POST', '/wages/rank', { token: member, body: { page: 1, pageSize: 10 } })
    expect(rank.body.data.list[0]?.period).toBe('2026-01')
  })

  it('generates the month once it is over, from the counters at its end', async () => {
    // alice seeds all of February (672 h), then March begins.
    await w.updateSnatch(1001, 1, { seedtime: 2172 * H })
    await derive(t.db.database, { now: MAR_START + 30 * 60_000 })
    await copyRecordCounters(t.db.database.db, 20260301)
    clock.set(MAR_START + 3600_000)
    admin = await t.login('admin', ADMIN_PASSWORD)
    const february = await t.call('POST', '/wages/compute', { token: admin, body: { period: '2026-02' } })
    expect(february.status, february.body.msg).toBe(200)
    const page = await t.call<Paged<WageRecord>>('POST', '/wages/page', {
      token: admin,
      body: { page: 1, pageSize: 10, period: '2026-02' },
    })
    expect(page.body.data.list[0]!.seedHours).toBeCloseTo(672, 0)
    expect(page.body.data.list[0]!.amount).toBeGreaterThan(0)
  })
})
