/**
 * Found by an outside tester (fixed since; the test keeps it so): POST /config/rules took any `n0` above 1, but the
 * seeding formula raises 10 to (N − 1)/(n0 − 1) with N = 0 for a torrent nobody seeds at month end (domain.md §4: "N is
 * the torrent's seeders … 0 included"): 10^(1/(n0 − 1)) is Infinity for every n0 below ~1.00325. The rules were saved,
 * then 预览计算 answered 500, 确认生成 saved the month, and the saved record's breakdown (GET /wages/{id}, for the member
 * too) answered 500 from then on. n0 is now at least 2 (a seeders count; NexusPHP divides by n0 − 1 as well), and the
 * smallest n0 keeps every figure finite.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Rules, WageDetail, WageRecord } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)

describe.each(openTestDatabases())('a rule n0 just above 1 ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(NOW) })
  let admin = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.member('alice', 1001, { passwordHash: await hashPassword('Member-pass-1', testScrypt) })
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - 86_400_000, null)
    // An official torrent with no seeder at month end: N = 0.
    await w.torrent(1, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 5, 1), seeders: 0 })
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, uploaded: 5 * GIB, lastAction: JAN_START - 86_400_000 })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await derive(t.db.database, { now: JAN_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260101)
    await w.updateSnatch(1001, 1, { seedtime: 1400 * H })
    await derive(t.db.database, { now: FEB_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260201)
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('refuses an n0 below 2 in Chinese, naming the field; at 2 the month can be previewed, generated and opened', async () => {
    const { version: _version, ...rules } = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    const refused = await t.call('POST', '/config/rules', { token: admin, body: { ...rules, n0: 1.001 } })
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toContain('做种人数参数 N0')
    expect(refused.body.msg).toContain('不能小于 2')
    const saved = await t.call('POST', '/config/rules', { token: admin, body: { ...rules, n0: 2 } })
    expect(saved.status, saved.body.msg).toBe(200)

    const preview = await t.call('POST', '/wages/preview', { token: admin, body: { period: '2026-01', userId: 2 } })
    expect(preview.status, preview.body.msg).toBe(200)
    const computed = await t.call('POST', '/wages/compute', { token: admin, body: { period: '2026-01' } })
    expect(computed.status, computed.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', { token: admin, body: { page: 1, pageSize: 10 } })
    expect(page.status, page.body.msg).toBe(200)
    const detail = await t.call<WageDetail>('GET', `/wages/${page.body.data.list[0].id}`, { token: admin })
    expect(detail.status, detail.body.msg).toBe(200)
    expect(detail.body.data.items.length).toBeGreaterThan(0)
    for (const item of detail.body.data.items) expect(Number.isFinite(item.value)).toBe(true)
  })
})
