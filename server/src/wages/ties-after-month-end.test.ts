/**
 * A closed month is paid by the ties and torrents of its end (kept with its end snapshot: month_end_ties,
 * torrent_seeder_snapshots), not of the day it is computed. Found by an outside tester: a claim the member gave up —
 * or a torrent the site deleted (a dupe, a trump) — after the month ended but before 生成工资 took that torrent's whole
 * month out of the wage, though the member kept it all month. Under the preset 「NexusPHP 认领结算」 the console
 * promises NexusPHP's own numbers to 0.1 point (domain.md §4 "Parity"): NexusPHP's cron settles at 00:00 on the 1st
 * (ClaimRepository::settleCronjob → settleUser), so both claims below were paid for January before either was removed.
 *
 * alice: claims on torrents 1 and 2, both reached in January; she gives up the claim on torrent 2 on February 2nd.
 * bob:   claims on torrents 1 and 3, both reached; the site deletes torrent 3 on February 2nd.
 * Computed February 5th, each is paid for torrent 1 only.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, type WageDetail, type WageRecord } from '@shared/entities'
import { queuePairs, queueTorrents } from '../derive/queue'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { settleUser, type NexusClaim, type NexusTorrent } from './testing/nexusphp-settle'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const ZONE = 'Asia/Shanghai'
const DAY = 86_400_000
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0) // NexusPHP's cron settles January now

const torrents: NexusTorrent[] = [
  { id: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1) / 1000, seeders: 2 },
  { id: 2, size: 10 * GIB, added: Date.UTC(2025, 5, 1) / 1000, seeders: 1 },
  { id: 3, size: 30 * GIB, added: Date.UTC(2025, 8, 1) / 1000, seeders: 0 },
]
/** [site uid, torrent, seed hours at January 1st, at February 1st] */
const claims: [number, number, number, number][] = [
  [1001, 1, 1000, 1400],
  [1001, 2, 2000, 2350],
  [1002, 1, 500, 860],
  [1002, 3, 300, 640],
]

/** What NexusPHP's settleUser credited `uid` at 00:00 on February 1st (testing/nexusphp-settle.ts, transcribed from its code). */
function nexusphpJanuary(uid: number): number {
  const rows: NexusClaim[] = claims
    .filter(([u]) => u === uid)
    .map(([, torrentId, jan, feb], i) => ({
      id: i + 1,
      torrentId,
      seedTimeBegin: jan * H,
      uploadedBegin: 0,
      createdMonth: 2025 * 12 + 6,
      lastSettleAt: JAN_START / 1000,
      snatch: { seedtime: feb * H, uploaded: 0 },
    }))
  const byId = new Map(torrents.map((t) => [t.id, t]))
  return settleUser(rows, byId, FEB_START / 1000, { month: 2026 * 12 + 1, at: FEB_START / 1000 }).bonusFinal
}

describe.each(openTestDatabases())('ties that end after the month, before 生成工资, on $name', (backend) => {
  const clock = testClock(FEB_START + 4 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, bob: 0 }
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], ...nexusphpClaimsPreset }, JAN_START - DAY, null)
    for (const tor of torrents) await w.torrent(tor.id, { team: 1, size: tor.size, added: tor.added * 1000, seeders: tor.seeders })
    ids.alice = await w.member('alice', 1001)
    ids.bob = await w.member('bob', 1002)
    for (const [uid, torrentId, jan] of claims) {
      await w.snatch(uid, torrentId, { finished: true, seedtime: jan * H, lastAction: JAN_START - DAY })
      await w.claim(uid, torrentId, Date.UTC(2025, 6, 1))
      // Settled by the site's cron on January 1st: begins = the counters then.
      await db
        .updateTable('site_claims')
        .set({ seed_time_begin: jan * H, uploaded_begin: 0, last_settle_at: JAN_START })
        .where('uid', '=', uid)
        .where('torrent_id', '=', torrentId)
        .execute()
    }
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE)

    for (const [uid, torrentId, , feb] of claims) {
      await w.updateSnatch(uid, torrentId, { seedtime: feb * H })
      // NexusPHP's cron at 00:00 on February 1st settles January (and pays it), resetting the begins.
      await db
        .updateTable('site_claims')
        .set({ seed_time_begin: feb * H, last_settle_at: FEB_START, updated_at: FEB_START })
        .where('uid', '=', uid)
        .where('torrent_id', '=', torrentId)
        .execute()
    }
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // January's end snapshot

    // February 2nd: alice gives up her claim on torrent 2; the site deletes torrent 3 (its snatches and claims go with it).
    await db.deleteFrom('site_claims').where('uid', '=', 1001).where('torrent_id', '=', 2).execute()
    await queuePairs(db, [{ userId: ids.alice, torrentId: 2 }])
    await db.deleteFrom('site_claims').where('torrent_id', '=', 3).execute()
    await db.deleteFrom('site_snatched').where('torrentid', '=', 3).execute()
    await db.deleteFrom('site_torrents').where('id', '=', 3).execute()
    await queueTorrents(db, [2, 3])
    await syncAt(t.db.database, FEB_START + DAY + 600_000, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
  })

  async function january(userId: number): Promise<{ record: WageRecord; detail: WageDetail }> {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId },
    })
    const record = page.body.data.list[0]!
    return { record, detail: (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data }
  }

  it('a claim given up on February 2nd still pays its January, as NexusPHP paid it on February 1st', async () => {
    const { record, detail } = await january(ids.alice)
    expect(
      detail.items
        .filter((i) => i.qualified)
        .map((i) => i.torrentId)
        .sort(),
    ).toEqual([1, 2])
    expect(record.torrentCount).toBe(2)
    expect(Math.abs(record.amount - nexusphpJanuary(1001))).toBeLessThan(0.1)
  })

  it('a torrent the site deletes on February 2nd still pays its keeper’s January, as NexusPHP paid it on February 1st', async () => {
    const { record, detail } = await january(ids.bob)
    expect(
      detail.items
        .filter((i) => i.qualified)
        .map((i) => i.torrentId)
        .sort(),
    ).toEqual([1, 3])
    expect(record.torrentCount).toBe(2)
    expect(Math.abs(record.amount - nexusphpJanuary(1002))).toBeLessThan(0.1)
  })
})
