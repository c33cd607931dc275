/**
 * Found by an outside tester (fixed since; the test keeps it so): a computed month's breakdown (GET /wages/{id}: 我的工资 drawer, 工资计算 detail) showed a torrent the site
 * deleted since (a dupe, a trump — routine on a PT site) as "#<id>" instead of its name, though the month's end
 * snapshot kept the name and the member was paid for that torrent. domain.md §4: "Every wage record stores the rule
 * version it used and its items, so a result can be explained and reproduced."
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { queueTorrents } from '../derive/queue'
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

describe.each(openTestDatabases())('a paid torrent deleted by the site after the month, on $name', (backend) => {
  const clock = testClock(FEB_START + 4 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let token = ''
  let aliceId = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2, name: '星河 Keep.2024.1080p-CedarHD' })
    await w.torrent(2, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 0, 1), seeders: 1, name: '深海 Dupe.2024.2160p-CedarHD' })
    aliceId = await w.member('alice', 1001)
    for (const id of [1, 2]) {
      await w.snatch(1001, id, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
      await w.claim(1001, id, Date.UTC(2025, 6, 1))
    }
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE)
    for (const id of [1, 2]) await w.updateSnatch(1001, id, { seedtime: 1400 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // January's end snapshot

    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)

    // February 5th: the site deletes torrent 2 (a dupe); its snatches and claims go with it.
    await db.deleteFrom('site_claims').where('torrent_id', '=', 2).execute()
    await db.deleteFrom('site_snatched').where('torrentid', '=', 2).execute()
    await db.deleteFrom('site_torrents').where('id', '=', 2).execute()
    await queueTorrents(db, [2])
    await syncAt(t.db.database, FEB_START + 4 * DAY + 600_000, ZONE)
  })

  it('the January breakdown still names the torrent the member was paid for', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: aliceId },
    })
    const record = page.body.data.list[0]!
    expect(record.torrentCount).toBe(2)
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    const names = Object.fromEntries(detail.items.map((i) => [i.torrentId, i.torrentName]))
    expect(detail.items.find((i) => i.torrentId === 2)?.qualified).toBe(true)
    expect(names).toEqual({ 1: '星河 Keep.2024.1080p-CedarHD', 2: '深海 Dupe.2024.2160p-CedarHD' })
  })
})
