/**
 * The counting window and baseline (window.ts), as a site runs: syncs
 * (derivation + the sync's snapshot step) on the 1st, mid-month and on the next 1st, with snatches and
 * claims written the way NexusPHP writes them (a claim notes the snatch's counters when it is made).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { upsertMirror } from '../sources/mirror'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const ZONE = 'Asia/Shanghai'
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
const DAY = 86_400_000
const rules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }

describe.each(openTestDatabases())('counting window and baseline on $name', (backend) => {
  const clock = testClock(FEB_START + 10 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, bob: 0, carol: 0, dave: 0, erin: 0, frank: 0 }
  let token = ''

  const sync = (now: number) => syncAt(t.db.database, now, ZONE)

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, rules, JAN_START - DAY, null)
    for (let id = 1; id <= 6; id++) await w.torrent(id, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 3 })
    const old = { finished: true, lastAction: JAN_START - DAY }
    ids.alice = await w.member('alice', 1001)
    ids.carol = await w.member('carol', 1003)
    ids.dave = await w.member('dave', 1004)
    ids.erin = await w.member('erin', 1005)
    ids.frank = await w.member('frank', 1006)
    // Bob seeds on the site all along, but becomes a console member only on January 15th.
    await db
      .insertInto('site_users')
      .values({ id: 1002, username: 'bob', added: Date.UTC(2024, 0, 1), last_access: null })
      .execute()
    await w.snatch(1001, 1, { ...old, seedtime: 1000 * H })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await w.snatch(1002, 2, { ...old, seedtime: 284 * H, uploaded: 10 * GIB })
    await w.claim(1002, 2, Date.UTC(2025, 6, 1))
    await w.snatch(1003, 3, { ...old, seedtime: 2000 * H })
    await w.snatch(1005, 5, { ...old, seedtime: 500 * H })
    await w.snatch(1006, 6, { ...old, seedtime: 100 * H })
    await sync(JAN_START + 30 * 60_000)

    // Jan 10: carol claims torrent 3; NexusPHP notes the snatch's counters then (2,100 h).
    await w.updateSnatch(1003, 3, { seedtime: 2100 * H })
    await w.claim(1003, 3, JAN_START + 9 * DAY)
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 2100 * H, uploaded_begin: 0 })
      .where('uid', '=', 1003)
      .execute()
    // Jan 10: dave downloads torrent 4 (a new snatch) and claims it; by the next sync it has 20 h.
    await w.snatch(1004, 4, { finished: true, seedtime: 20 * H, lastAction: JAN_START + 10 * DAY })
    await db
      .updateTable('site_snatched')
      .set({ startdat: JAN_START + 9 * DAY })
      .where('userid', '=', 1004)
      .execute()
    await w.claim(1004, 4, JAN_START + 9 * DAY + 3600_000)
    await db.updateTable('site_claims').set({ seed_time_begin: 0, uploaded_begin: 0 }).where('uid', '=', 1004).execute()
    // Jan 10: frank claims torrent 6 at 120 h.
    await w.updateSnatch(1006, 6, { seedtime: 120 * H })
    await w.claim(1006, 6, JAN_START + 9 * DAY + 7200_000)
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 120 * H, uploaded_begin: 0 })
      .where('uid', '=', 1006)
      .execute()
    await sync(JAN_START + 10 * DAY)

    // Jan 15: bob is added (his lifetime is 844 h by now); Jan 20: erin is assigned torrent 5 (600 h by then).
    await w.updateSnatch(1002, 2, { seedtime: 844 * H, uploaded: 201 * GIB })
    ids.bob = await w.member('bob', 1002)
    await sync(JAN_START + 14 * DAY)
    await w.updateSnatch(1005, 5, { seedtime: 600 * H })
    await w.assign(ids.erin, 5, JAN_START + 19 * DAY)
    await sync(JAN_START + 19 * DAY + 600_000)

    // February 1st: the month's end counters.
    await w.updateSnatch(1001, 1, { seedtime: 1400 * H })
    await w.updateSnatch(1002, 2, { seedtime: 844 * H + 390 * H, uploaded: 201 * GIB + 5 * GIB })
    await w.updateSnatch(1003, 3, { seedtime: 2100 * H + 310 * H })
    await w.updateSnatch(1004, 4, { seedtime: 320 * H })
    await w.updateSnatch(1005, 5, { seedtime: 600 * H + 305 * H })
    await w.updateSnatch(1006, 6, { seedtime: 450 * H })
    // NexusPHP's cron at 00:00 settles frank's claim — begins = the counters then, last_settle_at = now —
    // and the sync copies it into the mirror before the month is computed.
    const frankClaim = await db.selectFrom('site_claims').selectAll().where('uid', '=', 1006).executeTakeFirstOrThrow()
    await upsertMirror(db, 'site_claims', [
      { ...frankClaim, seed_time_begin: 450 * H, uploaded_begin: 0, last_settle_at: FEB_START, updated_at: FEB_START },
    ])
    await sync(FEB_START + 30 * 60_000)

    token = await t.login('admin', ADMIN_PASSWORD)
  })

  async function detailOf(userId: number): Promise<WageDetail> {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 50, period: '2026-01', userId },
    })
    const record = page.body.data.list[0]!
    return (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
  }

  it('a member added mid-month is paid only what was seeded after the server first saw them (部分月份)', async () => {
    expect((await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })).status).toBe(200)
    const bob = await detailOf(ids.bob)
    // 390 h since his first observation on the 15th — not his 1,234 h lifetime.
    expect(bob.items).toHaveLength(1)
    expect(bob.items[0]).toMatchObject({ torrentId: 2, seedHours: 390, uploaded: 5 * GIB, qualified: true, partial: true })
    expect(bob.seedHours).toBe(390)
    expect(bob.partial).toBe(true)
    const alice = await detailOf(ids.alice)
    expect(alice.items[0]).toMatchObject({ seedHours: 400, partial: false })
    expect(alice.partial).toBe(false)
  })

  it('a claim made mid-month counts from the counters NexusPHP noted when it was claimed', async () => {
    const carol = await detailOf(ids.carol)
    expect(carol.items[0]).toMatchObject({ torrentId: 3, seedHours: 310, qualified: true, partial: false })
  })

  it("a claim made mid-month still counts from its begins once the site's cron on the 1st has reset them", async () => {
    const frank = await detailOf(ids.frank)
    expect(frank.items[0]).toMatchObject({ torrentId: 6, seedHours: 330, qualified: true, partial: false })
  })

  it('a snatch begun inside the window counts from 0, even when first seen later', async () => {
    const dave = await detailOf(ids.dave)
    expect(dave.items[0]).toMatchObject({ torrentId: 4, seedHours: 320, qualified: true, partial: false })
  })

  it('an assignment made mid-month counts from the first sync after it', async () => {
    const erin = await detailOf(ids.erin)
    expect(erin.items[0]).toMatchObject({ torrentId: 5, seedHours: 305, qualified: true, partial: false })
  })

  it('the preview says the same', async () => {
    const res = await t.call<{ list: { userId: number; seedHours: number; partial?: boolean }[] }>('POST', '/wages/preview', {
      token,
      body: { period: '2026-01' },
    })
    const bob = res.body.data.list.find((e) => e.userId === ids.bob)!
    expect(bob).toMatchObject({ seedHours: 390, partial: true })
  })

  it('a reason is shown with the standards of the rules its month was computed with, after the rules change', async () => {
    const { db } = t.db.database
    await saveRules(db, { ...rules, standardSeedHours: 700 }, FEB_START + 10 * DAY, null)
    expect((await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })).status).toBe(200)
    const expected = '做种时长不足（390 小时 < 700 小时），上传量也不足（0.25 倍 < 2 倍体积）'
    expect((await detailOf(ids.bob)).items[0]).toMatchObject({ qualified: false, reason: expected })
    // The month stays as computed until it is computed again: its reasons keep the standards it was judged by.
    await saveRules(db, rules, FEB_START + 10 * DAY + 1, null)
    expect((await detailOf(ids.bob)).items[0]).toMatchObject({ qualified: false, reason: expected })
  })
})
