/**
 * Issue 11 as site scenarios: rows written the way NexusPHP writes them (announce's peers and
 * snatched, Laravel's claims, its settings), synced by the console as a site would run it. Runs on
 * the MariaDB/MySQL of NEXUSPHP_TEST_DATABASE_URL (skipped without it); the console side on SQLite,
 * and on PostgreSQL too when DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { beforeEach, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, syncStatusSchema } from '@shared/entities'
import type { AppDatabase } from '../../db/database'
import { readSyncStatus } from '../../jobs/sync-status'
import { currentRules, defaultRuleBody, saveRules } from '../../rules/rules'
import { previewInProcess } from '../../wages/engine'
import { periodOf } from '../../wages/period'
import { type FixtureShape } from './testing/fixture'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations, statuses } from './testing/scenarios'

const MIN = 60_000
const Seeding = 3
const SeedingUnclaimed = 4
const NoWage = 5
const Stopped = 7

const kit = scenarioKit()

/** The shape of the site the running scenario builds (set per describe block): a v1.6 install or a migrated InnoDB one. */
let siteShape: FixtureShape = 'innodb'
const site = (options: { timeZone?: string } = {}) => kit.site(siteShape, options)

/** torrent → "keepers/completion". */
async function labels(db: AppDatabase): Promise<Record<number, string>> {
  const { rows } = await sql<{
    torrent_id: number
    keepers: number
    completion: number
  }>`select torrent_id, keepers, completion from torrent_labels order by torrent_id`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [Number(r.torrent_id), `${r.keepers}/${r.completion}`]))
}

async function sync(app: FastifyInstance): Promise<void> {
  const result = await app.services.sync.runOnce()
  if (!result.ran) throw new Error('the sync did not run')
}

describe.skipIf(!serverUrl).each(siteCombinations)('NexusPHP site scenarios on $name', ({ backend, shape }) => {
  beforeEach(() => void (siteShape = shape))

  /** A console on SOURCE=nexusphp, its settings as loadConfig reads them from `env`. */
  const console_ = (env: Record<string, string>) => kit.console_(backend, env)

  it('two members sharing a peer_id on one torrent both stay seeding, sync after sync', async () => {
    const nx = await site()
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.user({ id: 1002, username: 'bob' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1 })
    // One client identity announced by two accounts (a shared seedbox): NexusPHP keeps both peers.
    const peerId = Buffer.concat([Buffer.from('-qB4650-'), randomBytes(12)])
    for (const userid of [1001, 1002]) {
      await nx.peer({ userid, torrent: 1, seeder: true, lastAction: now - 2 * MIN, peerId })
      await nx.snatch({ userid, torrent: 1, finished: true, lastAction: now - 2 * MIN })
    }
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await addMember(db.database, 'bob', 1002)

    for (let round = 1; round <= 5; round++) {
      // Each member's client announces again between syncs, in turn (as announce.php updates its own row).
      const announcer = round % 2 === 0 ? 1001 : 1002
      await nx.exec('UPDATE peers SET last_action = NOW(), uploaded = uploaded + 1048576 WHERE torrent = 1 AND userid = ?', [announcer])
      await nx.exec('UPDATE snatched SET last_action = NOW(), uploaded = uploaded + 1048576 WHERE torrentid = 1 AND userid = ?', [
        announcer,
      ])
      await sync(app)
      expect(await statuses(db.database), `sync ${round}`).toEqual({ 'alice:1': SeedingUnclaimed, 'bob:1': SeedingUnclaimed })
      // Two keepers, official, target 2 reached.
      expect(await labels(db.database), `sync ${round}`).toEqual({ 1: '2/1' })
      const peers = await db.database.db.selectFrom('site_peers').select('userid').orderBy('userid').execute()
      expect(peers.map((p) => p.userid)).toEqual([1001, 1002])
    }
  })

  it('a seeder whose second client rechecks or downloads the torrent stays 做种中 and a keeper, as the site counts it in seeders', async () => {
    const nx = await site()
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.user({ id: 1002, username: 'bob' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1, seeders: 2 })
    for (const userid of [1001, 1002]) {
      await nx.snatch({ userid, torrent: 1, finished: true, lastAction: now - 2 * MIN })
      await nx.peer({ userid, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    }
    // bob's home client joins and rechecks the same torrent: a second peer, seeder = 'no', bytes to go.
    await nx.peer({ userid: 1002, torrent: 1, seeder: false, toGo: 2 * 1024 ** 3, lastAction: now - 1 * MIN })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await addMember(db.database, 'bob', 1002)
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': SeedingUnclaimed, 'bob:1': SeedingUnclaimed })
    expect(await labels(db.database)).toEqual({ 1: '2/1' })
  })

  it('a member whose site account the site disables shows 无工资 after the next sync, and 做种中 again once re-enabled', async () => {
    const nx = await site()
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1 })
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    await nx.snatch({ userid: 1001, torrent: 1, finished: true, lastAction: now - 2 * MIN })
    await nx.claim({ uid: 1001, torrent: 1, createdAt: now - 60 * MIN })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Seeding })

    // The site's staff disable the account (users.enabled = 'no'); her client still announces.
    await nx.exec("UPDATE users SET enabled = 'no' WHERE id = 1001")
    await nx.exec('UPDATE peers SET last_action = NOW() WHERE userid = 1001')
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': NoWage })

    await nx.exec("UPDATE users SET enabled = 'yes' WHERE id = 1001")
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Seeding })
  })

  it('a member whose disabled account the site then deletes (its cleanup) stays 无工资 and is paid nothing: 站点账号已删除', async () => {
    const nx = await site()
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.user({ id: 1002, username: 'bob' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1 })
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    await nx.snatch({ userid: 1001, torrent: 1, finished: true, lastAction: now - 2 * MIN })
    await nx.claim({ uid: 1001, torrent: 1, createdAt: now - 60 * MIN })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    // Added before the first sync has mirrored the site's users: that alone disqualifies nobody.
    const alice = await addMember(db.database, 'alice', 1001)
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Seeding })

    await nx.exec("UPDATE users SET enabled = 'no' WHERE id = 1001")
    await nx.exec('UPDATE peers SET last_action = NOW() WHERE userid = 1001')
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': NoWage })

    // The site's cleanup deletes the disabled account (newest: UserRepository::destroy after
    // `account.destroy_disabled` days; v1.6: inactive accounts) — her peer and snatch rows stay a while.
    await nx.exec('DELETE FROM users WHERE id = 1001')
    await nx.exec('UPDATE peers SET last_action = NOW() WHERE userid = 1001')
    // The next sync sees it (the members' own accounts are read every sync, not only by the daily refresh).
    await sync(app)
    expect(await db.database.db.selectFrom('site_users').select('id').execute()).toEqual([{ id: 1002 }])
    expect(await statuses(db.database)).toEqual({ 'alice:1': NoWage })
    // And the month's wages pay her nothing, saying why (a wage would fail at the payout: 站点上找不到该会员).
    const rules = await currentRules(db.database.db)
    const answer = await previewInProcess(db.database.db, periodOf(await nx.now(), rules.timezone), Date.now(), alice)
    expect(answer.list).toEqual([expect.objectContaining({ userId: alice, amount: 0, torrentCount: 0 })])
    expect(answer.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, qualified: false, reason: '站点账号已删除' })])
  })

  it("a claim Laravel wrote while the database server runs ahead of the site's zone is picked up by the next incremental sync", async () => {
    // The site's PHP runs at -10:00; the database server's own zone (the test server's, UTC or
    // whatever it is) is ahead of it: Laravel's wall-clock text stored as the server's time looks old.
    const zone = '-10:00'
    const nx = await site({ timeZone: zone })
    const [{ ahead }] = await nx.rows<{ ahead: number }>(
      "SELECT TIMESTAMPDIFF(MINUTE, CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', @@global.time_zone), CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', '-10:00')) < 0 AS ahead",
    )
    expect(Number(ahead)).toBe(1)
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1 })
    await nx.torrent({ id: 2, team: 1 })
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    await nx.peer({ userid: 1001, torrent: 2, seeder: true, lastAction: now - 2 * MIN })
    const oldClaim = now - 30 * 86_400_000
    await nx.claim({ uid: 1001, torrent: 2, createdAt: oldClaim })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url, NEXUSPHP_TIMEZONE: zone })
    await addMember(db.database, 'alice', 1001)
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': SeedingUnclaimed, 'alice:2': Seeding })

    const claimedAt = await nx.now()
    await nx.claim({ uid: 1001, torrent: 1, createdAt: claimedAt })
    await nx.exec('UPDATE peers SET last_action = NOW() WHERE userid = 1001')
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Seeding, 'alice:2': Seeding })
    // And the claims' times are the instants the site meant, whatever the server's zone.
    const claims = await db.database.db
      .selectFrom('site_claims')
      .select(['torrent_id', 'created_at', 'updated_at'])
      .orderBy('torrent_id')
      .execute()
    const second = (ms: number) => Math.floor(ms / 1000) * 1000
    expect(claims).toEqual([
      { torrent_id: 1, created_at: second(claimedAt), updated_at: second(claimedAt) },
      { torrent_id: 2, created_at: second(oldClaim), updated_at: second(oldClaim) },
    ])
  })

  it("NEXUSPHP_TIMEZONE unset reads the site's times as Asia/Shanghai, not in the database server's zone", async () => {
    // The fixture writes in +08:00 (NexusPHP's shipped PRC); the database server's zone differs.
    const nx = await site()
    const [{ differs }] = await nx.rows<{ differs: number }>(
      "SELECT TIMESTAMPDIFF(MINUTE, CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', @@global.time_zone), CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', '+08:00')) <> 0 AS differs",
    )
    expect(Number(differs)).toBe(1)
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.torrent({ id: 1 })
    await nx.torrent({ id: 2 })
    // Past the window by a minute: stopped. Inside it: seeding.
    const window = defaultRuleBody.activeWindowMinutes
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - (window + 1) * MIN })
    await nx.snatch({ userid: 1001, torrent: 1, finished: true, lastAction: now - (window + 1) * MIN })
    await nx.peer({ userid: 1001, torrent: 2, seeder: true, lastAction: now - (window - 1) * MIN })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await sync(app)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Stopped, 'alice:2': SeedingUnclaimed })
  })
  it("/data-sync shows the site's time zone and its own peer lifetime against the active window, settings or none", async () => {
    const nx = await site()
    await nx.user({ id: 1001, username: 'alice' })
    // Torrents older than anninterthreeage announce every 7,200 s: NexusPHP keeps their peers 156 minutes.
    await nx.setting('main.anninterthree', '7200')
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    const status = async () => syncStatusSchema.parse(await readSyncStatus({ db: db.database.db, services: app.services, now: Date.now() }))
    // Before any sync: the zone is known, the lifetime not yet.
    expect((await status()).site).toEqual({
      timeZone: 'Asia/Shanghai',
      peerLifetimeMinutes: null,
      activeWindowMinutes: defaultRuleBody.activeWindowMinutes,
    })
    await sync(app)
    expect((await status()).site).toEqual({
      timeZone: 'Asia/Shanghai',
      peerLifetimeMinutes: 156,
      activeWindowMinutes: defaultRuleBody.activeWindowMinutes,
    })
    // No row: NexusPHP's default of 3,600 s (78 minutes). No table (an older version): unknown, and the sync still runs.
    await nx.exec("DELETE FROM settings WHERE name = 'main.anninterthree'")
    await sync(app)
    expect((await status()).site?.peerLifetimeMinutes).toBe(78)
    await nx.exec('DROP TABLE settings')
    await sync(app)
    const last = await status()
    expect(last.lastError).toBeNull()
    expect(last.site?.peerLifetimeMinutes).toBeNull()
    // Rules in another zone than the site's: the wage month and the site's claim settlement would part at the edges.
    const { version: _version, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, timezone: 'UTC' }, Date.now(), null)
    expect((await status()).site?.zoneMismatch).toEqual({ rulesTimeZone: 'UTC', siteOffset: '+08:00', rulesOffset: '+00:00' })
  })

  it("/data-sync names the site's bonus and claim settings that 「NexusPHP 认领结算」 does not match", async () => {
    const nx = await site()
    await nx.user({ id: 1001, username: 'alice' })
    // The site's formula: T0 5 weeks; its claims pay double; bonus only from 1 GiB up. The rest at NexusPHP's defaults.
    await nx.setting('bonus.tzero', '5')
    await nx.setting('torrent.claim_bonus_multiplier', '2')
    await nx.setting('bonus.min_size', String(1024 ** 3))
    await nx.setting('bonus.nzero', '7')
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    const status = async () => syncStatusSchema.parse(await readSyncStatus({ db: db.database.db, services: app.services, now: Date.now() }))
    await sync(app)
    // The team's own rules promise no NexusPHP numbers: nothing to compare.
    expect((await status()).site?.wageDifferences).toBeUndefined()

    await saveRules(
      db.database.db,
      { ...defaultRuleBody, ...nexusphpClaimsPreset, officialTeams: ['CMCT'], targetKeepers: 2 },
      Date.UTC(2025, 0, 2),
      null,
    )
    expect((await status()).site?.wageDifferences).toEqual([
      { setting: 'bonus.tzero', label: '种子年龄参数 T0（周）', site: '5', rules: '4', field: 't0Weeks', siteValue: 5 },
      { setting: 'torrent.claim_bonus_multiplier', label: '倍率', site: '2', rules: '1', field: 'multiplier', siteValue: 2 },
      {
        setting: 'bonus.min_size',
        label: '计魔力的最小体积',
        site: '1.00 GiB',
        rules: '无此规则（按不设置计算）',
        field: null,
        siteValue: null,
      },
    ])
    // Matched: nothing left to name.
    await nx.exec("UPDATE settings SET value = '4' WHERE name = 'bonus.tzero'")
    await nx.exec("UPDATE settings SET value = '1' WHERE name = 'torrent.claim_bonus_multiplier'")
    await nx.exec("DELETE FROM settings WHERE name = 'bonus.min_size'")
    await sync(app)
    expect((await status()).site?.wageDifferences).toEqual([])
  })

  it('a torrent the staff move into an official team after upload (takeedit.php leaves last_action alone) becomes 官种 with the next syncs', async () => {
    const nx = await site()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.team(1, 'CMCT')
    await nx.team(2, 'Other')
    await nx.torrent({ id: 1, team: 1 })
    // Uploaded under another team by someone outside the team: nothing ties it to the console yet.
    await nx.torrent({ id: 2, team: 2 })
    const { db, app } = await console_({ NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await sync(app)
    expect(await labels(db.database)).toEqual({ 1: '0/2' })

    // takeedit.php: `UPDATE torrents SET …, team = …` — no last_action, no new id, no tag row.
    await nx.exec('UPDATE torrents SET team = 1 WHERE id = 2')
    await sync(app)
    expect(await labels(db.database)).toEqual({ 1: '0/2', 2: '0/2' })
  })
})
