/**
 * Found by an outside tester (fixed since; the test keeps it so): a 站点 UID changed and changed straight back (an admin's slip, undone a minute later, before any sync) cuts
 * the member's month at the change: both changes are noted as rebases at the next sync, with the counters of the
 * account she had all along, and January counts only from there (部分月份) — though the start snapshot counted the
 * same account and no sync ever saw another one. domain.md §4 rebases because "the start snapshot counted another
 * account (or none)"; here it did not.
 *
 * alice (UID 1001): 100 h on January 1st, 400 h on January 15th, 700 h on February 1st — 600 h in January. On January
 * 15th the admin sets her UID to 1002 by mistake and back to 1001 a minute later. January pays 300 h.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
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
const rules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }

describe.each(openTestDatabases())('a site UID changed and changed back on $name', (backend) => {
  const clock = testClock(JAN_START + 14 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, rules, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 100 * H, lastAction: JAN_START - DAY })
    await db
      .insertInto('site_users')
      .values({ id: 1002, username: 'someone_else', enabled: 1, added: Date.UTC(2020, 0, 1), last_access: null })
      .execute()
    await w.snatch(1002, 1, { finished: true, seedtime: 3_000 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot: 100 h
    await w.updateSnatch(1001, 1, { seedtime: 400 * H })
    await syncAt(t.db.database, JAN_START + 14 * DAY - 3600_000, ZONE)

    token = await t.login('admin', ADMIN_PASSWORD)
    for (const siteUid of [1002, 1001]) {
      const res = await t.call('POST', '/user/update', { token, body: { id: alice, siteUid } })
      expect(res.status, res.body.msg).toBe(200)
      clock.advance(60_000)
    }
    await syncAt(t.db.database, JAN_START + 14 * DAY + 600_000, ZONE)

    await w.updateSnatch(1001, 1, { seedtime: 700 * H })
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE)
    clock.set(FEB_START + 5 * DAY)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('pays January all 600 h of the account she had all month', async () => {
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    // Now: seedHours 300, partial true.
    expect(detail.items[0]).toMatchObject({ torrentId: 1, seedHours: 600, partial: false })
  })
})
