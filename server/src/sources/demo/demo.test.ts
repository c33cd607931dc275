import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { currentRules } from '../../rules/rules'
import { snapshotDays } from '../../snapshots/read'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { historicSnapshotDays } from './history'
import type { DemoScale } from './scale'
import { bootstrapDemo } from './index'
import { generateTestDemo } from './testing/generate'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0) // 2026-03-10 14:00 in Asia/Shanghai
const tiny: DemoScale = { members: 12, extraAdmins: 2, siteUsers: 150, torrents: 400, recordsPerMember: 40, historyDays: 40 }

describe.each(openTestDatabases())('demo source on $name', (backend) => {
  const opened: TestDatabase[] = []
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.cleanup()
  })

  async function generated(seed = 'test-seed', scale: DemoScale = tiny) {
    const db = await backend.open()
    opened.push(db)
    const outcome = await generateTestDemo(db.database, { seed, scale, now: NOW })
    return { db, outcome }
  }

  /** Everything a user of the demo would see, in a stable order. */
  async function content(db: TestDatabase) {
    const q = async (query: ReturnType<typeof sql>) => (await query.execute(db.database.db)).rows
    return {
      users: await q(sql`select username, role, status, site_uid, remark, created_at from users order by username_lower`),
      torrents: await q(sql`select id, name, size, team, category, added, owner, seeders from site_torrents order by id`),
      snatches: await q(
        sql`select torrentid, userid, uploaded, seedtime, finished, last_action from site_snatched order by userid, torrentid`,
      ),
      peers: await q(sql`select torrent, userid, peer_id, seeder, last_action from site_peers order by id`),
      records: await q(
        sql`select u.username, r.torrent_id, r.status, r.claim_state, r.assigned, r.uploaded from seed_records r join users u on u.id = r.user_id order by u.username_lower, r.torrent_id`,
      ),
      daily: await q(sql`select day, seeding_count, seeding_size from daily_team_stats order by day`),
    }
  }

  it('is deterministic: the same seed and clock give the same community', async () => {
    const a = await generated()
    const b = await generated()
    expect(await content(b.db)).toEqual(await content(a.db))
    const c = await generated('another-seed')
    expect((await content(c.db)).torrents).not.toEqual((await content(a.db)).torrents)
  })

  it('has the documented shape: members, admins, official share, records, history', async () => {
    const { db, outcome } = await generated()
    const { counts } = outcome
    expect(counts).toMatchObject({ members: 12, admins: 2, torrents: 400, siteUsers: 150 })
    // ≈ a quarter of the torrents official (the default community: ≈ 5,000 of 20,000).
    expect(counts.officialCandidates / counts.torrents).toBeGreaterThan(0.15)
    expect(counts.officialCandidates / counts.torrents).toBeLessThan(0.4)
    // ≈ recordsPerMember per member and admin who seeds.
    const expected = (tiny.members + tiny.extraAdmins) * tiny.recordsPerMember
    expect(outcome.records).toBeGreaterThan(expected * 0.6)
    expect(outcome.records).toBeLessThan(expected * 1.6)

    const { db: kdb } = db.database
    const admins = await kdb.selectFrom('users').select(['username', 'site_uid']).where('role', '=', 'admin').execute()
    expect(admins).toHaveLength(3)
    expect(admins.filter((a) => a.site_uid !== null)).toHaveLength(2)
    const rules = await currentRules(kdb)
    expect(rules.officialTeams.length).toBeGreaterThan(0)
    const labels = await sql<{ n: number }>`select count(*) as n from torrent_labels where seed_type = 1`.execute(kdb)
    expect(Number(labels.rows[0].n)).toBe(counts.officialCandidates)

    // Every status shows up somewhere, so every screen has something to show.
    const statuses = await sql<{ status: number }>`select distinct status from seed_records order by status`.execute(kdb)
    expect(statuses.rows.map((r) => r.status)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])

    // Sizes: log-normal within 200 MiB – 80 GiB; ages over years.
    const sizes = await sql<{
      lo: number
      hi: number
      oldest: number
    }>`select min(size) as lo, max(size) as hi, min(added) as oldest from site_torrents`.execute(kdb)
    expect(Number(sizes.rows[0].lo)).toBeGreaterThanOrEqual(200 * 1024 ** 2)
    expect(Number(sizes.rows[0].hi)).toBeLessThanOrEqual(80 * 1024 ** 3)
    expect(NOW - Number(sizes.rows[0].oldest)).toBeGreaterThan(2 * 365 * 86_400_000)

    // History: daily team figures for every day of the window, snapshots per the retention policy.
    const daily = await sql<{ n: number }>`select count(*) as n from daily_team_stats`.execute(kdb)
    expect(Number(daily.rows[0].n)).toBe(tiny.historyDays + 1)
    expect(await snapshotDays(kdb)).toEqual([...historicSnapshotDays(20260310, tiny.historyDays), 20260310])
    // Each month's first day keeps the torrents' seeders too (its previous month's N), as the sync's snapshot does.
    expect(await snapshotDays(kdb, 'torrent_seeder_snapshots')).toEqual([20260129, 20260201, 20260301])
  })

  it("gives each member's history uneven daily uploads that add up to a rising total", async () => {
    const { db } = await generated()
    const rows = await db.database.db
      .selectFrom('daily_member_stats')
      .select(['user_id', 'day', 'uploaded'])
      .where('uploaded', '>', 0)
      .orderBy('user_id')
      .orderBy('day')
      .execute()
    const byMember = new Map<number, typeof rows>()
    for (const row of rows) byMember.set(row.user_id, [...(byMember.get(row.user_id) ?? []), row])
    let checked = 0
    for (const days of byMember.values()) {
      if (days.length < 10) continue
      const gains = days.slice(1).map((row, i) => Number(row.uploaded) - Number(days[i]!.uploaded))
      expect(gains.every((gain) => gain >= 0)).toBe(true)
      // A chart of these gains is not a flat line: many different daily values.
      expect(new Set(gains.map((gain) => Math.round(gain / 1024 ** 2))).size).toBeGreaterThan(gains.length / 2)
      checked++
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('does nothing when the mirror has data already', async () => {
    const { db } = await generated()
    const again = await bootstrapDemo(db.database, { size: tiny, now: NOW + 1000, memberPasswordHash: 'x', adminPasswordHashes: [] })
    expect(again).toBeNull()
  })
})

describe('historicSnapshotDays', () => {
  it('keeps month starts, the rolling window and where history begins', () => {
    expect(historicSnapshotDays(20260310, 40)).toEqual([
      20260129, 20260201, 20260301, 20260302, 20260303, 20260304, 20260305, 20260306, 20260307, 20260308, 20260309,
    ])
  })
})
