/**
 * Found by an outside tester (fixed since; the test keeps it so): a wage record's 做种时长 (WageRecord.seedHours, "summed over the qualified torrents", docs/api.md
 * WageRecord) was not the sum of the qualified items its own breakdown shows (GET /wages/{id}): the record rounds the
 * sum of the unrounded hours, each item rounds its own, so the drawer's rows add up to 0.01 h less (or more) than
 * the total above them — and 平均做种时长 / 累计做种时长 in the export are derived from the total, not the rows.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const ZONE = 'Asia/Shanghai'
const DAY = 86_400_000
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)

describe.each(openTestDatabases())('a record’s seed hours vs its rows, on $name', (backend) => {
  const clock = testClock(FEB_START + 4 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let token = ''
  let aliceId = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - DAY, null)
    aliceId = await w.member('alice', 1001)
    for (const id of [1, 2, 3]) {
      await w.torrent(id, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
      await w.snatch(1001, id, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
      await w.claim(1001, id, Date.UTC(2025, 6, 1))
    }
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE)
    // Each torrent: 300 h 15 s in January (300.004166… h, shown 300.00).
    for (const id of [1, 2, 3]) await w.updateSnatch(1001, id, { seedtime: 1000 * H + 300 * H + 15 })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
  })

  it('the record’s seedHours equals the sum of its qualified rows', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: aliceId },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    const rows = detail.items.filter((i) => i.qualified)
    expect(rows.map((i) => i.seedHours)).toEqual([300, 300, 300])
    const sum = Math.round(rows.reduce((s, i) => s + i.seedHours * 100, 0)) / 100
    expect(record.seedHours).toBe(sum)
  })
})
