/**
 * Found by an outside tester (fixed since; the test keeps it so): a member's site account disabled AFTER a month ended
 * took that closed month's whole wage away.
 *
 * What a member / admin sees: alice keeps her claimed torrent all January and is enabled on the site the whole month.
 * NexusPHP's own cron settles January at 00:00 on February 1st (app/Repositories/ClaimRepository.php settleCronjob →
 * settleUser, which never looks at `users.enabled`) and credits her. On February 2nd the site disables her account
 * (its cleanup's ratio / inactivity rule, or a moderator). The admin runs 生成工资 for January on February 5th under
 * the preset 「NexusPHP 认领结算」: alice gets 0 with 站点账号已禁用 on a torrent she kept all month — and computing
 * the same closed month on February 1st would have paid her. The closed month's answer depends on the day it is
 * computed, though the console freezes everything else of a closed month at its end (month_end_ties: the claims and
 * assignments; torrent_seeder_snapshots: the torrent's seeders, size, age, official label and even its *ban*):
 * a torrent the site bans on February 2nd still pays January, an account the site disables on February 2nd does not.
 *
 * Correct: a closed month judges the member's site account as it was at the month's end (as the torrent's ban is),
 * so alice is paid what NexusPHP credited her — settleUser over her claim (testing/nexusphp-settle.ts, transcribed
 * from NexusPHP's code) — to 0.1 point (docs/domain.md §4 "Parity").
 *
 * Fixed: wages/reader.ts `wageMembers` read site_users.enabled (and the deleted-by-site question) as they are now; a
 * closed month now reads them as kept with its end snapshot (month_end_accounts, migration 0038), as the torrents'
 * `banned` already was.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, type WageDetail, type WageRecord } from '@shared/entities'
import { queueMembers, queueTorrents } from '../derive/queue'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { settleUser, type NexusTorrent } from './testing/nexusphp-settle'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const ZONE = 'Asia/Shanghai'
const DAY = 86_400_000
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0) // NexusPHP's cron settles (and pays) January now

const torrent: NexusTorrent = { id: 1, size: 20 * GIB, added: Date.UTC(2025, 0, 1) / 1000, seeders: 2 }

/** What NexusPHP's settleUser credited alice at 00:00 on February 1st: her claim, 1,000 h → 1,400 h. */
const nexusphpJanuary = () =>
  settleUser(
    [
      {
        id: 1,
        torrentId: 1,
        seedTimeBegin: 1000 * H,
        uploadedBegin: 0,
        createdMonth: 2025 * 12 + 6,
        lastSettleAt: JAN_START / 1000,
        snatch: { seedtime: 1400 * H, uploaded: 0 },
      },
    ],
    new Map([[1, torrent]]),
    FEB_START / 1000,
    { month: 2026 * 12 + 1, at: FEB_START / 1000 },
  ).bonusFinal

describe.each(openTestDatabases())('a site account disabled after the month ended, on $name', (backend) => {
  const clock = testClock(FEB_START + 4 * DAY)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let alice = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], ...nexusphpClaimsPreset }, JAN_START - DAY, null)
    await w.torrent(1, { team: 1, size: torrent.size, added: torrent.added * 1000, seeders: torrent.seeders })
    alice = await w.member('alice', 1001)
    await w.snatch(1001, 1, { finished: true, seedtime: 1000 * H, lastAction: JAN_START - DAY })
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 1000 * H, uploaded_begin: 0, last_settle_at: JAN_START })
      .where('uid', '=', 1001)
      .execute()
    await syncAt(t.db.database, JAN_START + 30 * 60_000, ZONE) // January's start snapshot

    await w.updateSnatch(1001, 1, { seedtime: 1400 * H })
    // NexusPHP's cron at 00:00 on February 1st settles and pays January, resetting the begins.
    await db
      .updateTable('site_claims')
      .set({ seed_time_begin: 1400 * H, last_settle_at: FEB_START, updated_at: FEB_START })
      .where('uid', '=', 1001)
      .execute()
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // January's end snapshot: alice enabled

    // February 2nd: the site disables alice's account (users.enabled = 'no'); the next sync mirrors it.
    await db.updateTable('site_users').set({ enabled: 0 }).where('id', '=', 1001).execute()
    await queueMembers(db, [alice])
    await queueTorrents(db, [1])
    await syncAt(t.db.database, FEB_START + DAY + 600_000, ZONE)

    token = await t.login('admin', ADMIN_PASSWORD)
    const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
    expect(res.status, res.body.msg).toBe(200)
  })

  it('January is paid as NexusPHP paid it on February 1st, while the account was enabled', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', userId: alice },
    })
    const record = page.body.data.list[0]!
    const detail = (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data
    const expected = nexusphpJanuary()
    expect(expected).toBeGreaterThan(1000)
    expect(detail.items.map((i) => [i.torrentId, i.qualified, i.reason])).toEqual([[1, true, null]])
    expect(Math.abs(record.amount - expected), `console ${record.amount}, NexusPHP ${expected}`).toBeLessThanOrEqual(0.1)
  })
})
