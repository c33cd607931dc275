/**
 * Issue 11 items 5–7 as a NexusPHP site produces them: peers and snatched rows as announce writes
 * them, accounts and torrents as the sync mirrors them (sources/mirror/, the one writer every source
 * uses), then the derivation — full and incremental.
 */
import { describe, expect, it } from 'vitest'
import { CompletionLabel, SeedStatus, SeedType } from '@shared/enums'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { upsertMirror, type MirrorRows } from '../sources/mirror'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { derive } from './index'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000
const ALICE = 1001
const BOB = 1002

describe.each(openTestDatabases())('NexusPHP site scenarios of the derivation on $name', (backend) => {
  const t = useSeedingDb(backend)
  const run = (now = NOW) => derive(t.db.database, { now })
  const db = () => t.db.database.db

  /** A site account as the sync mirrors NexusPHP's `users` row. */
  const account = (id: number, username: string, enabled: 0 | 1): MirrorRows['site_users'] => ({
    id,
    username,
    class: 1,
    enabled,
    status: 'confirmed',
    added: Date.UTC(2024, 0, 1),
    last_access: NOW - MIN,
  })

  /** A torrent as the sync mirrors NexusPHP's `torrents` row. */
  const torrentRow = (id: number, over: Partial<MirrorRows['site_torrents']> = {}): MirrorRows['site_torrents'] => ({
    id,
    info_hash: id.toString(16).padStart(40, '0'),
    name: `Cedar.Story.S01.${id}.2160p.WEB-DL-CedarHD`,
    size: 8 * GIB,
    category: 401,
    team: 1,
    added: Date.UTC(2025, 0, 1),
    seeders: 2,
    leechers: 0,
    times_completed: 5,
    owner: 0,
    visible: 1,
    banned: 0,
    ...over,
  })

  /**
   * A seeding peer as announce keeps it: `last_action` is the last announce, `prev_action` the one
   * before (the client announces every `interval`).
   */
  const seedingPeer = (
    id: number,
    userid: number,
    torrent: number,
    lastAnnounce: number,
    interval = 60 * MIN,
  ): MirrorRows['site_peers'] => ({
    id,
    torrent,
    userid,
    peer_id: `2d7142353030302d${id.toString(16).padStart(24, '0')}`,
    ip: '203.0.113.7',
    port: 51413,
    uploaded: 3 * GIB,
    downloaded: 0,
    to_go: 0,
    seeder: 1,
    started: lastAnnounce - 5 * interval,
    last_action: lastAnnounce,
    prev_action: lastAnnounce - interval,
    connectable: 1,
    agent: 'qBittorrent/5.0.2',
    finishedat: null,
  })

  /** A snatched row: `finished` flips to yes only on the client's `completed` event. */
  const snatchRow = (
    id: number,
    userid: number,
    torrentid: number,
    over: Partial<MirrorRows['site_snatched']>,
  ): MirrorRows['site_snatched'] => ({
    id,
    torrentid,
    userid,
    ip: '203.0.113.7',
    port: 51413,
    uploaded: 3 * GIB,
    downloaded: 8 * GIB,
    to_go: 0,
    seedtime: 86_400,
    leechtime: 1800,
    last_action: NOW - 3 * 3600_000,
    startdat: Date.UTC(2025, 5, 1),
    completedat: Date.UTC(2025, 5, 1, 1),
    finished: 1,
    ...over,
  })

  const claimRow = (id: number, uid: number, torrent_id: number): MirrorRows['site_claims'] => ({
    id,
    uid,
    torrent_id,
    snatched_id: null,
    seed_time_begin: 0,
    uploaded_begin: 0,
    last_settle_at: null,
    created_at: Date.UTC(2025, 11, 1),
    updated_at: Date.UTC(2025, 11, 1),
  })

  async function officialCedarHD() {
    await upsertMirror(db(), 'site_teams', [{ id: 1, name: 'CedarHD', sort_index: 0 }])
    await saveRules(db(), { ...defaultRuleBody, officialTeams: ['CedarHD'] }, NOW, null)
  }

  const status = async (member: number, torrent: number) => (await t.world.record(member, torrent))?.status

  describe('item 5 — the active window outlives NexusPHP’s peer (80 min by default)', () => {
    it('a claimed keeper whose client announces hourly stays 做种中 until the site drops its peer', async () => {
      const alice = await t.world.member('alice', ALICE)
      await upsertMirror(db(), 'site_torrents', [torrentRow(1)])
      await upsertMirror(db(), 'site_snatched', [snatchRow(11, ALICE, 1, {})])
      await upsertMirror(db(), 'site_claims', [claimRow(21, ALICE, 1)])
      // The hourly announce is 15 minutes late: the site still lists the peer (kept 78 min) and counts it.
      await upsertMirror(db(), 'site_peers', [seedingPeer(31, ALICE, 1, NOW - 75 * MIN)])
      await run()
      expect(await status(alice, 1)).toBe(SeedStatus.Seeding)
      expect((await t.world.label(1)).keepers).toBe(1)

      // 81 minutes without an announce: gone at the site, 已停止 here (the next sync re-judges it unasked).
      const later = await run(NOW + 6 * MIN)
      expect(later.full).toBe(false)
      expect(await status(alice, 1)).toBe(SeedStatus.Stopped)
      expect((await t.world.label(1)).keepers).toBe(0)
    })
  })

  describe('item 6 — a complete snatch is finished = yes or to_go = 0', () => {
    it('a cross-seeded torrent (the client started complete, never sent `completed`) is 已停止 once stopped; a partial one stays 下载未完成', async () => {
      const alice = await t.world.member('alice', ALICE)
      await upsertMirror(db(), 'site_torrents', [torrentRow(1), torrentRow(2)])
      await upsertMirror(db(), 'site_snatched', [
        // Cross-seeding: announce recorded left = 0 from the first announce on; nothing was downloaded.
        snatchRow(11, ALICE, 1, { downloaded: 0, to_go: 0, finished: 0, completedat: null }),
        snatchRow(12, ALICE, 2, { downloaded: 2 * GIB, to_go: 6 * GIB, finished: 0, completedat: null }),
      ])
      await run()
      expect(await status(alice, 1)).toBe(SeedStatus.Stopped)
      expect(await status(alice, 2)).toBe(SeedStatus.Incomplete)

      // The partial one finishes later without a `completed` event either (to_go reaches 0): 已停止 on the next sync.
      await upsertMirror(db(), 'site_snatched', [
        snatchRow(12, ALICE, 2, { downloaded: 8 * GIB, to_go: 0, finished: 0, completedat: null }),
      ])
      const next = await run(NOW + MIN)
      expect(next.full).toBe(false)
      expect(await status(alice, 2)).toBe(SeedStatus.Stopped)
    })
  })

  describe('item 7 — disabled site accounts and banned torrents', () => {
    it('a member whose site account is disabled: a claimed, seeding record is 无工资 (5); an unclaimed one still 做种中（未认领）', async () => {
      const alice = await t.world.member('alice', ALICE, { siteEnabled: false })
      await upsertMirror(db(), 'site_torrents', [torrentRow(1), torrentRow(2)])
      await upsertMirror(db(), 'site_claims', [claimRow(21, ALICE, 1)])
      await upsertMirror(db(), 'site_peers', [seedingPeer(31, ALICE, 1, NOW - 5 * MIN), seedingPeer(32, ALICE, 2, NOW - 5 * MIN)])
      await run()
      expect(await status(alice, 1)).toBe(SeedStatus.NoWage)
      expect(await status(alice, 2)).toBe(SeedStatus.SeedingUnclaimed)
    })

    it('disabling and re-enabling a site account in an incremental sync re-judges that member’s records', async () => {
      const alice = await t.world.member('alice', ALICE)
      const bob = await t.world.member('bob', BOB)
      await upsertMirror(db(), 'site_torrents', [torrentRow(1), torrentRow(2)])
      await upsertMirror(db(), 'site_claims', [claimRow(21, ALICE, 1), claimRow(22, ALICE, 2), claimRow(23, BOB, 1)])
      await upsertMirror(db(), 'site_peers', [
        seedingPeer(31, ALICE, 1, NOW - 5 * MIN),
        seedingPeer(32, ALICE, 2, NOW - 5 * MIN),
        seedingPeer(33, BOB, 1, NOW - 5 * MIN),
      ])
      await run()
      expect([await status(alice, 1), await status(alice, 2), await status(bob, 1)]).toEqual([
        SeedStatus.Seeding,
        SeedStatus.Seeding,
        SeedStatus.Seeding,
      ])

      // The site disables alice; the sync mirrors her users row (and nothing else changed).
      await upsertMirror(db(), 'site_users', [account(ALICE, 'alice', 0)])
      const disabled = await run(NOW + MIN)
      expect(disabled.full).toBe(false)
      expect([await status(alice, 1), await status(alice, 2), await status(bob, 1)]).toEqual([
        SeedStatus.NoWage,
        SeedStatus.NoWage,
        SeedStatus.Seeding,
      ])
      expect((await t.world.label(1)).keepers).toBe(1)

      await upsertMirror(db(), 'site_users', [account(ALICE, 'alice', 1)])
      await run(NOW + 2 * MIN)
      expect([await status(alice, 1), await status(alice, 2)]).toEqual([SeedStatus.Seeding, SeedStatus.Seeding])
      expect((await t.world.label(1)).keepers).toBe(2)
    })

    it('a banned torrent is never 官种 by rule, its claimed seeders earn nothing (5), and a manual 官种 override still wins', async () => {
      await officialCedarHD()
      const alice = await t.world.member('alice', ALICE)
      const bob = await t.world.member('bob', BOB)
      await upsertMirror(db(), 'site_torrents', [torrentRow(1, { banned: 1 }), torrentRow(2)])
      await upsertMirror(db(), 'site_claims', [claimRow(21, ALICE, 1)])
      await upsertMirror(db(), 'site_peers', [seedingPeer(31, ALICE, 1, NOW - 5 * MIN), seedingPeer(32, BOB, 1, NOW - 5 * MIN)])
      await run()
      expect(await t.world.label(1)).toMatchObject({
        seed_type: SeedType.Unofficial,
        seed_type_source: 'rule',
        banned: 1,
        keepers: 1,
        completion: CompletionLabel.UnofficialComplete,
      })
      expect(await t.world.label(2)).toMatchObject({
        seed_type: SeedType.Official,
        banned: 0,
        completion: CompletionLabel.OfficialIncomplete,
      })
      expect(await status(alice, 1)).toBe(SeedStatus.NoWage)
      expect(await status(bob, 1)).toBe(SeedStatus.SeedingUnclaimed)

      await t.world.override(1, SeedType.Official)
      await run(NOW + MIN)
      expect(await t.world.label(1)).toMatchObject({ seed_type: SeedType.Official, seed_type_source: 'manual', banned: 1 })
      expect(await status(alice, 1)).toBe(SeedStatus.NoWage)
    })

    it('a ban, and its lifting, arriving with an incremental sync re-judge the torrent’s labels and records', async () => {
      await officialCedarHD()
      const alice = await t.world.member('alice', ALICE)
      await upsertMirror(db(), 'site_torrents', [torrentRow(1)])
      await upsertMirror(db(), 'site_claims', [claimRow(21, ALICE, 1)])
      await upsertMirror(db(), 'site_peers', [seedingPeer(31, ALICE, 1, NOW - 5 * MIN)])
      await run()
      expect(await status(alice, 1)).toBe(SeedStatus.Seeding)

      await upsertMirror(db(), 'site_torrents', [torrentRow(1, { banned: 1 })])
      const banned = await run(NOW + MIN)
      expect(banned.full).toBe(false)
      expect(await t.world.label(1)).toMatchObject({ seed_type: SeedType.Unofficial, banned: 1, keepers: 0 })
      expect(await t.world.record(alice, 1)).toMatchObject({ status: SeedStatus.NoWage, seed_type: SeedType.Unofficial })

      await upsertMirror(db(), 'site_torrents', [torrentRow(1, { banned: 0 })])
      await run(NOW + 2 * MIN)
      expect(await t.world.label(1)).toMatchObject({ seed_type: SeedType.Official, banned: 0, keepers: 1 })
      expect(await status(alice, 1)).toBe(SeedStatus.Seeding)
    })
  })
})
