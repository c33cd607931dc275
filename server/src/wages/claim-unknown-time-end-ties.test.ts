/**
 * Found by an outside tester (fixed since; the test keeps it so): a claim whose creation time the site did not give (NexusPHP `claims.created_at` NULL: the reader maps it to 0,
 * sources/nexusphp/reader.ts) drops out of a closed month once its end snapshot keeps the month's ties. copyMonthEndTies
 * writes `claimed_at` 0 for it, and the reader takes `claimed_at > 0` as "claimed" (reader.ts tieSource): the record is
 * no longer claimed. The same month, read before its end snapshot (current ties: claim_state = 已认领), paid it.
 *
 * Preset 「NexusPHP 认领结算」: alice's only claim (torrent 1, created_at unknown) seeds 300 h in January. A preview on
 * January 31st (current ties) pays it; 生成工资 after February's first sync paid nothing for it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, type WagePreviewEntry, type WageRecord } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const ZONE = 'Asia/Shanghai'
const H = 3600
const DAY = 86_400_000
const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)

describe.each(openTestDatabases())('a claim of unknown creation time in a closed month on $name', (backend) => {
  const clock = testClock(JAN_START + 30 * DAY + 10 * 60_000)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''
  let before: WagePreviewEntry | undefined

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], ...nexusphpClaimsPreset }, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1_000 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 1, 0) // created_at NULL on the site: 0 in the mirror
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot
    await w.updateSnatch(1001, 1, { seedtime: 1_300 * H })
    await syncAt(t.db.database, JAN_START + 30 * DAY, ZONE)

    token = await t.login('admin', ADMIN_PASSWORD)
    const preview = await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-01' } })
    before = preview.body.data.list.find((e) => e.userId === alice)

    await syncAt(t.db.database, FEB_START + 20 * 60_000, ZONE) // January's end snapshot, with its ties
    clock.set(FEB_START + 4 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('pays the claim once the end snapshot is taken, as it did before', async () => {
    expect(before).toMatchObject({ seedHours: 300, torrentCount: 1 }) // the premise
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]
    expect(record).toMatchObject({ seedHours: 300, torrentCount: 1, amount: before!.amount })
  })
})
