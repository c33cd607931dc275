/**
 * The NexusPHP source against a real MariaDB/MySQL (NEXUSPHP_TEST_DATABASE_URL, e.g.
 * mysql://root@127.0.0.1:3306/test): every test builds its own NexusPHP database (testing/fixture.ts)
 * and drops it afterwards — in both shapes a site can have (a migrated InnoDB install; a v1.6 install
 * with MyISAM tables and MEMORY peers); the console side runs on SQLite, and on PostgreSQL too when DATABASE_URL
 * points at one. Without NEXUSPHP_TEST_DATABASE_URL the suite is skipped, not failed.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Config } from '../../config'
import type { AppDatabase } from '../../db/database'
import { queueMembers } from '../../derive/queue'
import { SyncRunner } from '../../jobs/sync'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import { buildTestApp, openTestDatabases, type TestDatabase } from '../../test/harness'
import { createWageEstimates, pendingWageEstimates } from '../../wages/estimates'
import { openNexusphpConnection } from './connection'
import { nexusphpSource, type NexusphpSourceOptions } from './index'
import type { NexusphpSyncReport } from './sync/run'
import { fixtureShapes, NexusFixture, type FixtureShape } from './testing/fixture'
import { addMember } from './testing/member'
import { FaultProxy } from './testing/proxy'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
if (!serverUrl) {
  console.info(
    '[nexusphp] NEXUSPHP_TEST_DATABASE_URL is not set: the NexusPHP connector suite against MariaDB is skipped ' +
      '(set it, e.g. NEXUSPHP_TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/test, to run it).',
  )
}

const MIN = 60_000
const { Uploader, Downloading, Seeding, SeedingUnclaimed, NoWage, Stopped, Incomplete, Waiting } = {
  Waiting: 1,
  Downloading: 2,
  Seeding: 3,
  SeedingUnclaimed: 4,
  NoWage: 5,
  Uploader: 6,
  Stopped: 7,
  Incomplete: 8,
} as const

/** Everything one test opened, closed in reverse order after it. */
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

/** The shape of the site the running test builds (set per describe block). */
let siteShape: FixtureShape = 'innodb'

async function fixture(options: { timeZone?: string } = {}): Promise<NexusFixture> {
  const site = await NexusFixture.create(serverUrl!, { shape: siteShape, ...options })
  cleanups.push(() => site.drop())
  return site
}

/** Records as "username:torrent" → status (and claim state). */
async function records(db: AppDatabase): Promise<Record<string, string>> {
  const { rows } = await sql<{
    username: string
    torrent_id: number
    status: number
    claim_state: number
  }>`select u.username, r.torrent_id, r.status, r.claim_state
    from seed_records r join users u on u.id = r.user_id order by u.username, r.torrent_id`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [`${r.username}:${r.torrent_id}`, `${r.status}/${r.claim_state}`]))
}

async function labels(db: AppDatabase): Promise<Record<number, string>> {
  const { rows } = await sql<{
    torrent_id: number
    seed_type: number
    keepers: number
    completion: number
  }>`select torrent_id, seed_type, keepers, completion
    from torrent_labels order by torrent_id`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [r.torrent_id, `${r.seed_type}/${r.keepers}/${r.completion}`]))
}

async function ids(
  db: AppDatabase,
  table: 'site_peers' | 'site_snatched' | 'site_claims' | 'site_torrents' | 'site_users' | 'site_torrent_tags',
): Promise<number[]> {
  return (await db.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id))
}

async function syncState(db: AppDatabase) {
  return db.db
    .selectFrom('sync_state')
    .select(['last_error', 'last_finished_at', 'source_state', 'derived_at'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
}

/** Tables a v1.6 site keeps in MyISAM or MEMORY: a read of one holds the tracker's UPDATEs of it back. */
const lockingTables = new Set(['users', 'teams', 'categories', 'torrents', 'peers', 'snatched', 'settings'])

/** Rows `statement` reads from the site's locking tables, as MariaDB counts them running it again (ANALYZE). */
async function rowsReadFromLockingTables(site: NexusFixture, statement: string): Promise<number> {
  const [{ ANALYZE: plan }] = await site.rows<{ ANALYZE: string }>(`ANALYZE FORMAT=JSON ${statement}`)
  let rows = 0
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const n = node as Record<string, unknown>
    if (typeof n.table_name === 'string' && lockingTables.has(n.table_name)) rows += Number(n.r_rows ?? 0) * Number(n.r_loops ?? 1)
    Object.values(n).forEach(visit)
  }
  visit(JSON.parse(plan))
  return rows
}

const combinations = openTestDatabases().flatMap((backend) =>
  fixtureShapes.map((shape) => ({ backend, shape, name: `${backend.name}, ${shape} site` })),
)

describe.skipIf(!serverUrl).each(combinations)('NexusPHP source on $name', ({ backend, shape }) => {
  beforeEach(() => void (siteShape = shape))

  async function console_(
    nexusphp: Partial<Config['nexusphp']> & { databaseUrl: string },
  ): Promise<{ db: TestDatabase; app: FastifyInstance }> {
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const config: Config = { ...db.config, source: 'nexusphp', nexusphp: { timezone: undefined, ...nexusphp } }
    // Without the wage engine: its below-minimum flag would turn claimed seeding into status 5 once
    // estimates exist — these tests are about the mirror. In this process: a test listens to the
    // source's diagnostics channel.
    const app = await buildTestApp({ database: db.database, config, wages: pendingWageEstimates, syncThread: false })
    cleanups.push(() => app.close())
    return { db, app }
  }

  async function officialRules(db: AppDatabase, now: number): Promise<void> {
    await saveRules(db.db, { ...defaultRuleBody, officialTeams: ['CMCT'], officialTags: ['官方'] }, now, null)
  }

  async function health(app: FastifyInstance): Promise<number> {
    return (await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode
  }

  it("mirrors members' rows, derives statuses and labels, then an incremental sync picks up exactly the changes", async () => {
    const site = await fixture()
    const T0 = Math.floor((await site.now()) / 1000) * 1000
    for (const [id, username] of [
      [1001, 'alice'],
      [1002, 'bob'],
      [1003, 'carol'],
      [1004, 'dave'],
      [1006, 'frank'],
    ] as const)
      await site.user({ id, username })
    await site.user({ id: 1005, username: 'erin', added: null, enabled: false })
    await site.team(1, 'CMCT')
    await site.team(2, 'Other')
    await site.category(401, 'Movies')
    await site.tag(1, '官方')
    await site.tag(2, 'DIY')
    const hashes: Record<number, string> = {}
    for (const t of [
      { id: 1, team: 1, category: 401 },
      { id: 2, team: 2 },
      { id: 3, team: 2 },
      { id: 4, owner: 1002 },
      { id: 5 },
      { id: 6 },
      { id: 7, team: 1 },
      { id: 8, team: 1 },
      { id: 9 },
      { id: 10, team: 1, size: 0.5 * GIB },
      { id: 11, team: 1 },
      { id: 12 },
    ])
      hashes[t.id] = await site.torrent(t)
    await site.torrentTag(2, 1)
    await site.torrentTag(2, 2)

    const peer = {
      aliceT1: await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: T0 - 5 * MIN, uploaded: 10 * GIB }),
      aliceT2: await site.peer({ userid: 1001, torrent: 2, seeder: false, toGo: GIB, lastAction: T0 - 10 * MIN }),
      // 45 minutes old now (active), 85 minutes old at T1: past the 80-minute window (stale by time alone).
      aliceT3: await site.peer({ userid: 1001, torrent: 3, seeder: true, lastAction: T0 - 45 * MIN }),
      aliceT10: await site.peer({ userid: 1001, torrent: 10, seeder: true, lastAction: T0 - 4 * MIN }),
      aliceT11: await site.peer({ userid: 1001, torrent: 11, seeder: true, lastAction: T0 - 3 * MIN }),
      bobT4: await site.peer({ userid: 1002, torrent: 4, seeder: true, lastAction: T0 - 2 * MIN }),
      carolT5: await site.peer({ userid: 1003, torrent: 5, seeder: true, lastAction: T0 - 120 * MIN }),
      daveT9: await site.peer({ userid: 1004, torrent: 9, seeder: true, lastAction: T0 - MIN }),
      daveT1: await site.peer({ userid: 1004, torrent: 1, seeder: true, lastAction: T0 - MIN }),
    }
    const snatch = {
      aliceT1: await site.snatch({
        userid: 1001,
        torrent: 1,
        finished: true,
        lastAction: T0 - 5 * MIN,
        uploaded: 10 * GIB,
        seedtime: 36_000,
      }),
      aliceT2: await site.snatch({ userid: 1001, torrent: 2, finished: false, toGo: GIB, lastAction: T0 - 10 * MIN }),
      aliceT3: await site.snatch({ userid: 1001, torrent: 3, finished: true, lastAction: T0 - 30 * MIN }),
      aliceT11: await site.snatch({ userid: 1001, torrent: 11, finished: true, lastAction: T0 - 3 * MIN }),
      bobT1: await site.snatch({ userid: 1002, torrent: 1, finished: true, lastAction: T0 - 3000 * MIN }),
      // An old row with a zero start date.
      carolT5: await site.snatch({ userid: 1003, torrent: 5, finished: true, lastAction: T0 - 120 * MIN, startdat: null }),
      carolT6: await site.snatch({ userid: 1003, torrent: 6, finished: false, toGo: GIB, lastAction: T0 - 200 * MIN }),
      daveT9: await site.snatch({ userid: 1004, torrent: 9, finished: true, lastAction: T0 - MIN }),
    }
    await site.exec(`UPDATE snatched SET startdat = '0000-00-00 00:00:00' WHERE id = ?`, [snatch.carolT5])
    const claim = {
      aliceT1: await site.claim({ uid: 1001, torrent: 1, createdAt: T0 - 100 * MIN }),
      carolT7: await site.claim({ uid: 1003, torrent: 7, createdAt: T0 - 100 * MIN }),
      aliceT10: await site.claim({ uid: 1001, torrent: 10, createdAt: T0 - 100 * MIN }),
    }

    const { db, app } = await console_({ databaseUrl: site.url })
    await officialRules(db.database, T0)
    for (const [username, uid] of [
      ['alice', 1001],
      ['bob', 1002],
      ['carol', 1003],
    ] as const)
      await addMember(db.database, username, uid)

    // What each sync reports on its diagnostics channel (read-ahead counts).
    const reports: NexusphpSyncReport[] = []
    const listen = (message: unknown) => void reports.push(message as NexusphpSyncReport)
    subscribe('seeding:nexusphp-sync', listen)
    cleanups.push(async () => unsubscribe('seeding:nexusphp-sync', listen))
    const first = await app.services.sync.runOnce(T0)
    expect(first.ran).toBe(true)
    expect(await records(db.database)).toEqual({
      'alice:1': `${Seeding}/2`,
      'alice:2': `${Downloading}/1`,
      'alice:3': `${SeedingUnclaimed}/1`,
      'alice:10': `${NoWage}/2`,
      'alice:11': `${SeedingUnclaimed}/1`,
      'bob:1': `${Stopped}/1`,
      'bob:4': `${Uploader}/1`,
      'carol:5': `${Stopped}/1`,
      'carol:6': `${Incomplete}/1`,
      'carol:7': `${Waiting}/2`,
    })
    // seed type / keepers / completion; torrent 8 is official with no member tied to it.
    expect(await labels(db.database)).toEqual({
      1: '1/1/2',
      2: '1/0/2',
      3: '2/1/3',
      4: '2/1/3', // bob uploaded it and seeds it: a keeper (docs/domain.md §3)
      5: '2/0/4',
      6: '2/0/4',
      7: '1/0/2',
      8: '1/0/2',
      10: '2/0/4',
      11: '1/1/2',
    })
    // Only members' rows and the torrents that matter; every site user (for picking members).
    expect(await ids(db.database, 'site_users')).toEqual([1001, 1002, 1003, 1004, 1005, 1006])
    expect(await ids(db.database, 'site_torrents')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 11])
    expect(await ids(db.database, 'site_peers')).toEqual(
      [peer.aliceT1, peer.aliceT2, peer.aliceT3, peer.aliceT10, peer.aliceT11, peer.bobT4, peer.carolT5].sort((a, b) => a - b),
    )
    expect(await ids(db.database, 'site_snatched')).toEqual(
      [snatch.aliceT1, snatch.aliceT2, snatch.aliceT3, snatch.aliceT11, snatch.bobT1, snatch.carolT5, snatch.carolT6].sort((a, b) => a - b),
    )
    expect(await ids(db.database, 'site_claims')).toEqual([claim.aliceT1, claim.carolT7, claim.aliceT10])
    expect(await ids(db.database, 'site_torrent_tags')).toHaveLength(2)
    // Mirror conventions: hex hashes, 0/1 enums, epoch ms (zero and NULL dates do not crash).
    const t1 = await db.database.db.selectFrom('site_torrents').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    expect(t1).toMatchObject({ info_hash: hashes[1], team: 1, category: 401, size: 5 * GIB, visible: 1, banned: 0, owner: 0 })
    const t4 = await db.database.db
      .selectFrom('site_torrents')
      .select(['team', 'category', 'owner'])
      .where('id', '=', 4)
      .executeTakeFirstOrThrow()
    expect(t4).toEqual({ team: null, category: null, owner: 1002 })
    const p1 = await db.database.db.selectFrom('site_peers').selectAll().where('id', '=', peer.aliceT1).executeTakeFirstOrThrow()
    expect(p1).toMatchObject({
      userid: 1001,
      torrent: 1,
      seeder: 1,
      last_action: T0 - 5 * MIN,
      prev_action: T0 - 35 * MIN,
      uploaded: 10 * GIB,
      finishedat: null,
    })
    expect(p1.peer_id).toMatch(/^2d71423436[0-9a-f]{30}$/) // "-qB4650-" + 12 random bytes, as hex
    const erin = await db.database.db.selectFrom('site_users').selectAll().where('id', '=', 1005).executeTakeFirstOrThrow()
    expect(erin).toMatchObject({ username: 'erin', enabled: 0, added: 0, status: 'confirmed' })
    const c5 = await db.database.db
      .selectFrom('site_snatched')
      .select(['startdat', 'last_action', 'finished'])
      .where('id', '=', snatch.carolT5)
      .executeTakeFirstOrThrow()
    // A zero start date is unknown (0), never its last announce: the wages would count it as begun then.
    expect(c5).toEqual({ startdat: 0, last_action: T0 - 120 * MIN, finished: 1 })
    expect(first.ran && first.rows).toMatchObject({ site_users: 6, site_torrents: 10, site_peers: 7, site_snatched: 7, site_claims: 3 })
    expect((await syncState(db.database)).last_error).toBeNull()

    // ---- the site moves on; 40 minutes later
    const T1 = T0 + 40 * MIN
    // alice's torrent 3 peer stops announcing: stale by T1 (time alone).
    // carol's download of 6 finishes.
    await site.exec(
      `UPDATE snatched SET finished = 'yes', to_go = 0, completedat = FROM_UNIXTIME(?), last_action = FROM_UNIXTIME(?) WHERE id = ?`,
      [(T1 - MIN) / 1000, (T1 - MIN) / 1000, snatch.carolT6],
    )
    // alice claims 11, whose peer keeps announcing.
    await site.claim({ uid: 1001, torrent: 11, createdAt: T1 - 2 * MIN })
    for (const [id, ago] of [
      [peer.aliceT11, 2],
      [peer.aliceT10, 1],
      [peer.bobT4, 3],
      [peer.daveT1, 1],
      [peer.daveT9, 1],
    ] as const) {
      await site.exec(`UPDATE peers SET prev_action = last_action, last_action = FROM_UNIXTIME(?) WHERE id = ?`, [
        (T1 - ago * MIN) / 1000,
        id,
      ])
    }
    // alice's torrent 1 peer uploads more; so does her snatch.
    await site.exec(`UPDATE peers SET uploaded = uploaded + ?, last_action = FROM_UNIXTIME(?) WHERE id = ?`, [
      GIB,
      (T1 - 5 * MIN) / 1000,
      peer.aliceT1,
    ])
    await site.exec(
      `UPDATE snatched SET uploaded = uploaded + ?, seedtime = seedtime + 2400, last_action = FROM_UNIXTIME(?) WHERE id = ?`,
      [GIB, (T1 - 5 * MIN) / 1000, snatch.aliceT1],
    )
    // torrent 3 gets the official tag; alice's client stops torrent 2 (the site deletes the peer
    // while it is still inside the active window); carol withdraws her claim on 7.
    await site.torrentTag(3, 1)
    await site.exec('DELETE FROM peers WHERE id = ?', [peer.aliceT2])
    await site.exec('DELETE FROM claims WHERE id = ?', [claim.carolT7])
    // dave joins the team: his rows are backfilled on the next sync.
    await addMember(db.database, 'dave', 1004)

    const second = await app.services.sync.runOnce(T1)
    expect(second.ran).toBe(true)
    expect(await records(db.database)).toEqual({
      'alice:1': `${Seeding}/2`,
      'alice:2': `${Incomplete}/1`,
      'alice:3': `${Stopped}/1`,
      'alice:10': `${NoWage}/2`,
      'alice:11': `${Seeding}/2`,
      'bob:1': `${Stopped}/1`,
      'bob:4': `${Uploader}/1`,
      'carol:5': `${Stopped}/1`,
      'carol:6': `${Stopped}/1`,
      'dave:1': `${SeedingUnclaimed}/1`,
      'dave:9': `${SeedingUnclaimed}/1`,
    })
    expect(await labels(db.database)).toEqual({
      1: '1/2/2',
      2: '1/0/2',
      3: '1/0/2',
      4: '2/1/3', // bob's peer still announces
      5: '2/0/4',
      6: '2/0/4',
      7: '1/0/2',
      8: '1/0/2',
      9: '2/1/3',
      10: '2/0/4',
      11: '1/1/2',
    })
    const aliceT1 = await sql<{ uploaded: number; seed_time_sec: number }>`select r.uploaded, r.seed_time_sec from seed_records r
      join users u on u.id = r.user_id where u.username = 'alice' and r.torrent_id = 1`.execute(db.database.db)
    expect(aliceT1.rows[0]).toEqual({ uploaded: 11 * GIB, seed_time_sec: 38_400 })
    // The mirror holds exactly the members' rows the site has now.
    const sourceIds = async (table: string, col: string) =>
      (await site.rows<{ id: number }>(`SELECT id FROM ${table} WHERE ${col} IN (1001, 1002, 1003, 1004) ORDER BY id`)).map((r) =>
        Number(r.id),
      )
    expect(await ids(db.database, 'site_peers')).toEqual(await sourceIds('peers', 'userid'))
    expect(await ids(db.database, 'site_snatched')).toEqual(await sourceIds('snatched', 'userid'))
    expect(await ids(db.database, 'site_claims')).toEqual(await sourceIds('claims', 'uid'))
    // The incremental sync read its steps' first pages ahead, and every read it started was one a step needed.
    expect(reports).toHaveLength(2)
    expect(reports[1].readAhead.taken).toBeGreaterThan(5)
    expect(reports[1].readAhead.unused).toBe(0)

    // Nothing changed at the source: nothing is written to the members' mirror rows.
    const before = await records(db.database)
    const third = await app.services.sync.runOnce(T1 + MIN)
    expect(third.ran && third.rows).not.toHaveProperty('site_peers')
    expect(third.ran && third.rows).not.toHaveProperty('site_snatched')
    expect(third.ran && third.rows).not.toHaveProperty('site_claims')
    expect(await records(db.database)).toEqual(before)
    expect(reports[2].readAhead).toMatchObject({ unused: 0 })
    expect(reports[2].readAhead.taken).toBeGreaterThan(5)

    // carol leaves the team (as the admin route does it: site uid cleared, the member queued): her
    // rows leave the mirror, her records go.
    const carol = await db.database.db
      .updateTable('users')
      .set({ site_uid: null })
      .where('username', '=', 'carol')
      .returning('id')
      .executeTakeFirstOrThrow()
    await queueMembers(db.database.db, [carol.id])
    await app.services.sync.runOnce(T1 + 2 * MIN)
    expect(Object.keys(await records(db.database)).filter((k) => k.startsWith('carol:'))).toEqual([])
    const carolRows = await sql<{ n: number }>`select (select count(*) from site_peers where userid = 1003)
      + (select count(*) from site_snatched where userid = 1003) + (select count(*) from site_claims where uid = 1003) as n`.execute(
      db.database.db,
    )
    expect(Number(carolRows.rows[0].n)).toBe(0)
    expect(await health(app)).toBe(200)
  })

  it('judges "active" against the source clock, in NEXUSPHP_TIMEZONE, and copes with a column older versions lack', async () => {
    // DATETIMEs written in +08:00 as the site's PHP would; the database server itself runs in UTC.
    const site = await fixture({ timeZone: '+08:00' })
    const now = await site.now()
    await site.user({ id: 1001, username: 'alice' })
    await site.torrent({ id: 1 })
    await site.torrent({ id: 2 })
    await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 10 * MIN })
    await site.peer({ userid: 1001, torrent: 2, seeder: true, lastAction: now - 120 * MIN })
    await site.snatch({ userid: 1001, torrent: 2, finished: true, lastAction: now - 120 * MIN })
    await site.exec('ALTER TABLE peers DROP COLUMN prev_action')

    const { db, app } = await console_({ databaseUrl: site.url, timezone: '+08:00' })
    await addMember(db.database, 'alice', 1001)
    // No time given: the sync time is the source's clock.
    const result = await app.services.sync.runOnce()
    expect(result.ran && Math.abs(result.now - now)).toBeLessThan(60_000)
    expect(await records(db.database)).toEqual({ 'alice:1': `${SeedingUnclaimed}/1`, 'alice:2': `${Stopped}/1` })
    const peers = await db.database.db
      .selectFrom('site_peers')
      .select(['torrent', 'last_action', 'prev_action', 'started'])
      .orderBy('torrent')
      .execute()
    const second = Math.floor((now - 10 * MIN) / 1000) * 1000
    expect(peers[0]).toEqual({ torrent: 1, last_action: second, prev_action: second, started: second })

    // The same site read without the setting: unset means Asia/Shanghai (NexusPHP's PRC, this site's
    // zone), never the database server's — the statuses are the same.
    const unset = await console_({ databaseUrl: site.url })
    await addMember(unset.db.database, 'alice', 1001)
    await unset.app.services.sync.runOnce()
    expect(await records(unset.db.database)).toEqual(await records(db.database))
  })

  it('wrong credentials or a missing table: a clear error in last_error, the API keeps answering', async () => {
    const site = await fixture()
    const bad = new URL(site.url)
    bad.username = 'nobody'
    bad.password = 'wrong-password'
    const denied = await console_({ databaseUrl: bad.toString() })
    await expect(denied.app.services.sync.runOnce()).rejects.toThrow(/无法连接 NexusPHP 数据库/)
    expect((await syncState(denied.db.database)).last_error).toMatch(/无法连接 NexusPHP 数据库：.*Access denied/)
    expect((await syncState(denied.db.database)).last_error).not.toContain('wrong-password')
    expect(await health(denied.app)).toBe(200)

    await site.exec('DROP TABLE claims')
    const missing = await console_({ databaseUrl: site.url })
    await expect(missing.app.services.sync.runOnce()).rejects.toThrow(/缺少数据表 claims/)
    expect((await syncState(missing.db.database)).last_error).toMatch(/缺少数据表 claims/)
    expect(await health(missing.app)).toBe(200)
  })

  it("the README's GRANT (SELECT on the nine tables) is enough, the session cannot write, a column it cannot read is named", async () => {
    const site = await fixture()
    const now = await site.now()
    await site.user({ id: 1001, username: 'alice' })
    await site.torrent({ id: 1 })
    await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - MIN })
    const user = `console_${site.database.slice(3)}`
    try {
      await site.exec(`CREATE USER '${user}'@'%' IDENTIFIED BY 'Read-only-1'`)
    } catch (error) {
      console.info(`[nexusphp] cannot create a user on the test server (${(error as Error).message}): GRANT check skipped`)
      return
    }
    cleanups.push(() => site.exec(`DROP USER IF EXISTS '${user}'@'%'`))
    for (const table of ['users', 'teams', 'categories', 'tags', 'torrents', 'torrent_tags', 'peers', 'snatched', 'claims']) {
      await site.exec(`GRANT SELECT ON \`${site.database}\`.${table} TO '${user}'@'%'`)
    }
    const url = new URL(site.url)
    url.username = user
    url.password = 'Read-only-1'
    const { db, app } = await console_({ databaseUrl: url.toString() })
    await addMember(db.database, 'alice', 1001)
    expect((await app.services.sync.runOnce()).ran).toBe(true)
    expect(await records(db.database)).toEqual({ 'alice:1': `${SeedingUnclaimed}/1` })

    const connection = openNexusphpConnection({ databaseUrl: site.url })
    cleanups.push(() => connection.close())
    const [session] = await connection.query<{ ro: number }>('SELECT @@session.tx_read_only AS ro')
    expect(Number(session.ro)).toBe(1)
    await expect(connection.query('DELETE FROM peers')).rejects.toThrow(/READ ONLY|read.only/i)

    // A grant of some columns hides the others, from information_schema too: a seed time the account cannot read is
    // named, never read as 0 hours for everyone (the month would pay nothing without a word).
    await site.exec(`REVOKE SELECT ON \`${site.database}\`.snatched FROM '${user}'@'%'`)
    await site.exec(
      `GRANT SELECT (id, torrentid, userid, finished, last_action, startdat, completedat, to_go, uploaded, downloaded) ON \`${site.database}\`.snatched TO '${user}'@'%'`,
    )
    await expect(app.services.sync.runOnce()).rejects.toThrow(/NexusPHP 数据表缺少列 snatched\.seedtime（或读取账号没有这些列的权限/)
    expect((await syncState(db.database)).last_error).toContain('snatched.seedtime')
  })

  it('a source that hangs fails the sync on time and never stalls the API', async () => {
    const hole = await FaultProxy.start(serverUrl!, { blackHole: true })
    cleanups.push(() => hole.close())
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    const source = nexusphpSource(
      { databaseUrl: hole.url(`${serverUrl}`.replace(/\/[^/]*$/, '/nx_none')), timezone: undefined },
      { connectTimeoutMs: 800 },
    )
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => Date.now() })
    cleanups.push(() => runner.stop())
    const started = performance.now()
    const running = runner.runOnce()
    const answered = performance.now()
    expect(await health(app)).toBe(200)
    expect(performance.now() - answered).toBeLessThan(500)
    await expect(running).rejects.toThrow(/无法连接 NexusPHP 数据库/)
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('the connection drops mid-sync: whole pages only, the previous data stays, the next sync completes', async () => {
    const site = await fixture()
    const now = Math.floor((await site.now()) / 1000) * 1000
    for (const uid of [1001, 1002, 1003]) await site.user({ id: uid, username: `u${uid}` })
    for (let t = 1; t <= 20; t++) await site.torrent({ id: t })
    for (const uid of [1001, 1002, 1003]) {
      for (let t = 1; t <= 20; t++) await site.snatch({ userid: uid, torrent: t, finished: t % 3 !== 0, lastAction: now - (t + 70) * MIN })
      await site.peer({ userid: uid, torrent: uid - 1000, seeder: true, lastAction: now - 5 * MIN })
    }
    const proxy = await FaultProxy.start(serverUrl!, { cutOn: { pattern: 'FROM `snatched`', nth: 3 } })
    cleanups.push(() => proxy.close())

    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    for (const uid of [1001, 1002, 1003]) await addMember(db.database, `u${uid}`, uid)
    const options: NexusphpSourceOptions = { tuning: { pageRows: 10 } }
    const source = nexusphpSource({ databaseUrl: proxy.url(site.url), timezone: undefined }, options)
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())

    await expect(runner.runOnce(now)).rejects.toThrow(/NexusPHP/)
    expect(proxy.cuts).toBe(1)
    expect((await syncState(db.database)).last_error).toMatch(/无法连接 NexusPHP 数据库|读取 NexusPHP 数据失败/)
    // Two whole pages of snatches were committed (10 rows each, in id order: the first import scans
    // the table by primary key), with the cursor that says so; the third was not; nothing was derived
    // from a half-read mirror.
    const source20 = (await site.rows<{ id: number }>('SELECT id FROM snatched ORDER BY id LIMIT 20')).map((r) => Number(r.id))
    expect(await ids(db.database, 'site_snatched')).toEqual([...source20].sort((a, b) => a - b))
    const state = JSON.parse((await syncState(db.database)).source_state)
    expect(state.pairs.pass).toMatchObject({ table: 'site_snatched', step: 'new', id: source20[19] })
    expect(await records(db.database)).toEqual({})
    expect(await health(app)).toBe(200)

    proxy.heal()
    const resumed = await runner.runOnce(now)
    expect(resumed.ran).toBe(true)
    expect(await ids(db.database, 'site_snatched')).toEqual(
      (await site.rows<{ id: number }>('SELECT id FROM snatched ORDER BY id')).map((r) => Number(r.id)),
    )
    const all = await records(db.database)
    expect(Object.keys(all)).toHaveLength(60)
    expect(all['u1001:1']).toBe(`${SeedingUnclaimed}/1`)
    expect(all['u1002:3']).toBe(`${Incomplete}/1`)
    expect(all['u1003:4']).toBe(`${Stopped}/1`)
    expect((await syncState(db.database)).last_error).toBeNull()
  })

  it('reads the torrents whose last_action moved every sync; edits that leave it alone wait for the rolling refresh', async () => {
    const site = await fixture()
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.user({ id: 1001, username: 'u1001' })
    for (let t = 1; t <= 6; t++) {
      await site.torrent({ id: t })
      await site.snatch({ userid: 1001, torrent: t, finished: true, lastAction: now - 100 * MIN })
    }
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    await addMember(db.database, 'u1001', 1001)
    // One torrent per sync for the rolling refresh.
    const source = nexusphpSource({ databaseUrl: site.url, timezone: undefined }, { tuning: { idChunk: 1, slowRefreshSyncs: 1000 } })
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    await runner.runOnce(now)
    expect(await ids(db.database, 'site_torrents')).toEqual([1, 2, 3, 4, 5, 6])

    await site.exec('UPDATE torrents SET seeders = 9, last_action = FROM_UNIXTIME(?) WHERE id = 4', [(now + MIN) / 1000])
    await site.exec(`UPDATE torrents SET name = 'Renamed' WHERE id = 6`)
    await runner.runOnce(now + 2 * MIN)
    const rows = await db.database.db
      .selectFrom('site_torrents')
      .select(['id', 'seeders', 'name'])
      .where('id', 'in', [4, 6])
      .orderBy('id')
      .execute()
    expect(rows[0].seeders).toBe(9)
    expect(rows[1].name).not.toBe('Renamed')
    // The rolling refresh gets there (torrents 3, 4, 5, 6 in the next syncs).
    for (let i = 3; i <= 6; i++) await runner.runOnce(now + (i + 1) * MIN)
    expect((await db.database.db.selectFrom('site_torrents').select('name').where('id', '=', 6).executeTakeFirstOrThrow()).name).toBe(
      'Renamed',
    )
  })

  it("follows a claimed torrent's seeders every sync when the site's cleanup recounts them without touching last_action", async () => {
    // A seeder that stops announcing leaves silently: NexusPHP's cleanup deletes its peer and recounts
    // torrents.seeders (the UpdateTorrentSeedersEtc job) with an UPDATE that leaves last_action alone, and
    // a non-member's peer is not even mirrored. The wages take N from these seeders (docs/domain.md §4):
    // a claimed torrent's must follow within a sync, not when the rolling refresh reaches it.
    const site = await fixture()
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.team(1, 'CMCT')
    await site.user({ id: 1001, username: 'u1001' })
    await site.user({ id: 1002, username: 'u1002' })
    for (let t = 1; t <= 6; t++) {
      await site.torrent({ id: t, team: t === 5 ? 1 : 0, seeders: t === 5 ? 2 : 1 })
      await site.snatch({ userid: 1001, torrent: t, finished: true, lastAction: now - 10 * MIN })
    }
    await site.peer({ userid: 1001, torrent: 5, seeder: true, lastAction: now - 10 * MIN })
    await site.peer({ userid: 1002, torrent: 5, seeder: true, lastAction: now - 10 * MIN })
    await site.claim({ uid: 1001, torrent: 5, createdAt: now - 60 * MIN })
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    await addMember(db.database, 'u1001', 1001)
    await officialRules(db.database, now)
    // One torrent per sync for the rolling refresh: it reads torrents 1 and 2 in the first two syncs. Every
    // earning torrent's counts checked every sync (countSyncs: 1; the default spreads them over 3 syncs, below).
    const source = nexusphpSource(
      { databaseUrl: site.url, timezone: undefined },
      { tuning: { idChunk: 1, slowRefreshSyncs: 1000, countSyncs: 1 } },
    )
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    const seeders = async () => {
      const mirror = await db.database.db.selectFrom('site_torrents').select('seeders').where('id', '=', 5).executeTakeFirstOrThrow()
      const label = await db.database.db
        .selectFrom('torrent_labels')
        .select('seeders')
        .where('torrent_id', '=', 5)
        .executeTakeFirstOrThrow()
      return [Number(mirror.seeders), Number(label.seeders)]
    }
    await runner.runOnce(now)
    expect(await ids(db.database, 'site_torrents')).toEqual([1, 2, 3, 4, 5, 6])
    expect(await seeders()).toEqual([2, 2])

    // u1002 (no member) stops announcing: the cleanup drops the peer and recounts.
    await site.exec('DELETE FROM peers WHERE userid = 1002 AND torrent = 5')
    await site.exec('UPDATE torrents SET seeders = 1 WHERE id = 5')
    await runner.runOnce(now + 2 * MIN)
    expect(await seeders()).toEqual([1, 1])

    // Counts that did not move re-read nothing whole: the next sync writes no torrent but the rolling refresh's unchanged one.
    const quiet = await runner.runOnce(now + 3 * MIN)
    expect(quiet.ran && quiet.rows).not.toHaveProperty('site_torrents')
    expect(await seeders()).toEqual([1, 1])
  })

  it("checks a third of the earning torrents' seeders per sync: a recount reaches the mirror within three syncs", async () => {
    // Reading the counts of every claimed or assigned torrent every sync read ~62,000 torrents rows a sync on the
    // bench site: a rolling cursor takes a third of them per sync (countSyncs: 3), so N is at most 3 syncs old.
    const site = await fixture()
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.user({ id: 1001, username: 'u1001' })
    for (let t = 1; t <= 9; t++) {
      await site.torrent({ id: t, seeders: 1 })
      await site.snatch({ userid: 1001, torrent: t, finished: true, lastAction: now - 10 * MIN })
      await site.claim({ uid: 1001, torrent: t, createdAt: now - 60 * MIN })
    }
    const proxy = await FaultProxy.start(serverUrl!, { record: true })
    cleanups.push(() => proxy.close())
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    await addMember(db.database, 'u1001', 1001)
    // The rolling refresh reads one torrent per sync (whole, seeders included; not in the counts check then).
    const tuning = { idChunk: 1, slowRefreshSyncs: 1000 }
    const source = nexusphpSource({ databaseUrl: proxy.url(site.url), timezone: undefined }, { tuning })
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    await runner.runOnce(now)
    expect(await ids(db.database, 'site_torrents')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    // The site's cleanup recounts every one of them (last_action untouched).
    await site.exec('UPDATE torrents SET seeders = 4')
    const recounted = async () =>
      (await db.database.db.selectFrom('site_torrents').select('id').where('seeders', '=', 4).orderBy('id').execute()).map((r) => r.id)
    // The counts lookups of a sync (one id each: idChunk 1), as the ids they ask for.
    const countsRead = async (at: number) => {
      const from = proxy.statements.length
      await runner.runOnce(at)
      return proxy.statements
        .slice(from)
        .filter((q) => /^SELECT id, seeders, leechers FROM torrents/.test(q))
        .map((q) => Number(/WHERE id IN \((\d+)\)/.exec(q)?.[1]))
    }
    const checked: number[][] = []
    const seen: number[][] = []
    for (let i = 1; i <= 3; i++) {
      checked.push(await countsRead(now + i * MIN))
      seen.push(await recounted())
    }
    // Three ids a sync, in id order (none twice); the mirror follows the site as each part is checked.
    expect(checked.map((part) => part.length)).toEqual([3, 3, 3])
    expect(checked.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(seen[0].length).toBeLessThan(9)
    expect(seen[2]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    // …and round again: the part of three syncs before (but the one the rolling refresh reads whole in that sync).
    const again = await countsRead(now + 4 * MIN)
    expect(again.length).toBeGreaterThan(1)
    expect(checked[0]).toEqual(expect.arrayContaining(again))
  })

  it.skipIf(shape !== 'v16')('on a v1.6 site no statement of a sync reads more than a window of a table the tracker writes', async () => {
    // MyISAM and MEMORY lock whole tables: an announce's UPDATE waits for every read of its table that
    // is running, and the announce stalls. With windows of 10 ids and one member per index lookup, every
    // statement of a full and an incremental sync — replayed with ANALYZE — reads at most 10 rows there.
    const site = await fixture()
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.team(1, 'CMCT')
    for (const uid of [1001, 1002, 1003, 1004]) await site.user({ id: uid, username: `u${uid}` })
    for (let t = 1; t <= 24; t++) await site.torrent({ id: t, team: t <= 8 ? 1 : 0, owner: t === 20 ? 1001 : 0 })
    for (const uid of [1001, 1002, 1003, 1004]) {
      for (let t = 1; t <= 24; t++) await site.snatch({ userid: uid, torrent: t, finished: t % 2 === 0, lastAction: now - (t + 5) * MIN })
      for (let t = 1; t <= 6; t++) await site.peer({ userid: uid, torrent: t, seeder: t % 2 === 0, lastAction: now - (t + 1) * MIN })
    }
    const proxy = await FaultProxy.start(serverUrl!, { record: true })
    cleanups.push(() => proxy.close())
    const db = await backend.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    for (const uid of [1001, 1002, 1003]) await addMember(db.database, `u${uid}`, uid)
    await officialRules(db.database, now)
    // (Pages of 12 rows: windows of 10 ids cannot fill one; their rows gather into pages.)
    const tuning = { pageRows: 12, lockedScanIds: 10, lockedMemberGroup: 1, idChunk: 8, rollingCheckRows: 30 }
    const source = nexusphpSource({ databaseUrl: proxy.url(site.url), timezone: undefined }, { tuning })
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())

    expect((await runner.runOnce(now)).ran).toBe(true)
    expect(await ids(db.database, 'site_snatched')).toHaveLength(72)
    expect(await ids(db.database, 'site_peers')).toHaveLength(18)
    // The tracker announces: counters move, a peer stops, another starts.
    await site.exec(
      'UPDATE snatched SET uploaded = uploaded + 1073741824, last_action = FROM_UNIXTIME(?) WHERE userid = 1002 AND torrentid IN (3, 4)',
      [now / 1000],
    )
    await site.exec('DELETE FROM peers WHERE userid = 1001 AND torrent = 1')
    const started = await site.peer({ userid: 1003, torrent: 7, seeder: false, toGo: GIB, lastAction: now })
    expect((await runner.runOnce(now + 2 * MIN)).ran).toBe(true)
    expect(await ids(db.database, 'site_peers')).toContain(started)
    expect(await ids(db.database, 'site_peers')).toHaveLength(18)
    const moved = await db.database.db
      .selectFrom('site_snatched')
      .select('uploaded')
      .where('userid', '=', 1002)
      .where('torrentid', 'in', [3, 4])
      .execute()
    expect(moved.map((r) => Number(r.uploaded))).toEqual([GIB, GIB])

    const reads = proxy.statements.filter((q) => /^\s*SELECT\b/i.test(q) && !/information_schema/i.test(q))
    expect(reads.filter((q) => /FROM `?snatched`?/.test(q)).length).toBeGreaterThan(8)
    const tooLong: string[] = []
    for (const statement of reads) {
      const rows = await rowsReadFromLockingTables(site, statement)
      if (rows > 10) tooLong.push(`${rows} rows: ${statement}`)
    }
    expect(tooLong).toEqual([])
  })

  it.skipIf(shape !== 'v16')(
    "on a v1.6 site no statement reads more of the MEMORY peers than one member's rows, however many peers members have",
    async () => {
      // MEMORY peers are hash-keyed: a read through `userid IN (…)` walks every row of its members, whatever it
      // filters, orders or limits, and the tracker's announce UPDATEs of peers wait for all of it (25 members of
      // 5,000 peers: the fingerprint 0.1–0.6 s). Members with 40 peers each — more than the budget of a statement
      // (windows of 10–40): each is read alone, in every step — the backfill (first import, a later member), the
      // changed rows, the deletion fingerprints and the ids of a member whose fingerprint differs.
      const site = await fixture()
      const now = Math.floor((await site.now()) / 1000) * 1000
      await site.team(1, 'CMCT')
      for (const uid of [1001, 1002, 1003, 1004, 1005]) await site.user({ id: uid, username: `u${uid}` })
      for (let t = 1; t <= 40; t++) await site.torrent({ id: t, team: t <= 4 ? 1 : 0 })
      const heavy = [1001, 1002, 1003, 1005] // 1005: no member; 1003: a member from the second sync on
      for (const uid of heavy)
        for (let t = 1; t <= 40; t++) await site.peer({ userid: uid, torrent: t, seeder: t % 4 !== 0, lastAction: now - (t % 30) * MIN })
      for (let t = 1; t <= 2; t++) await site.peer({ userid: 1004, torrent: t, seeder: true, lastAction: now - 2 * MIN })
      const proxy = await FaultProxy.start(serverUrl!, { record: true })
      cleanups.push(() => proxy.close())
      const db = await backend.open()
      cleanups.push(() => db.cleanup())
      const app = await buildTestApp({ database: db.database, config: db.config })
      cleanups.push(() => app.close())
      for (const uid of [1001, 1002, 1004]) await addMember(db.database, `u${uid}`, uid)
      await officialRules(db.database, now)
      const reports: NexusphpSyncReport[] = []
      const listen = (message: unknown) => void reports.push(message as NexusphpSyncReport)
      subscribe('seeding:nexusphp-sync', listen)
      cleanups.push(async () => unsubscribe('seeding:nexusphp-sync', listen))
      const tuning = { pageRows: 25, lockedScanIds: 40, idChunk: 8, rollingCheckRows: 30 }
      const source = nexusphpSource({ databaseUrl: proxy.url(site.url), timezone: undefined }, { tuning })
      const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
      cleanups.push(() => runner.stop())
      const sourcePeers = async (uids: string) =>
        (await site.rows<{ id: number }>(`SELECT id FROM peers WHERE userid IN (${uids}) ORDER BY id`)).map((r) => Number(r.id))

      expect((await runner.runOnce(now)).ran).toBe(true)
      expect(await ids(db.database, 'site_peers')).toEqual(await sourcePeers('1001, 1002, 1004'))
      const firstSync = proxy.statements.length
      // The tracker announces (a member's peers move), one of 1002's peers stops; 1003 joins the team.
      await site.exec(
        'UPDATE peers SET uploaded = uploaded + 1073741824, last_action = FROM_UNIXTIME(?) WHERE userid = 1001 AND torrent <= 5',
        [now / 1000],
      )
      await site.exec('DELETE FROM peers WHERE userid = 1002 AND torrent = 7')
      await addMember(db.database, 'u1003', 1003)
      expect((await runner.runOnce(now + 2 * MIN)).ran).toBe(true)
      expect(await ids(db.database, 'site_peers')).toEqual(await sourcePeers('1001, 1002, 1003, 1004'))
      const moved = await db.database.db
        .selectFrom('site_peers')
        .select('uploaded')
        .where('userid', '=', 1001)
        .where('torrent', '<=', 5)
        .execute()
      expect(moved.map((r) => Number(r.uploaded))).toEqual(Array(5).fill(GIB))
      const secondSync = proxy.statements.slice(firstSync)
      // A sync with nothing changed: its plan started exactly the statements its steps took.
      const quiet = await runner.runOnce(now + 3 * MIN)
      expect(quiet.ran && quiet.rows).not.toHaveProperty('site_peers')
      expect(reports[2].readAhead.unused).toBe(0)

      const peerReads = proxy.statements.filter((q) => /^\s*SELECT\b/i.test(q) && /FROM `?peers`?/.test(q))
      const tooLong: string[] = []
      for (const statement of peerReads) {
        const rows = await rowsReadFromLockingTables(site, statement)
        if (rows > 40) tooLong.push(`${rows} rows: ${statement}`)
      }
      expect(tooLong).toEqual([])
      // The fingerprints: never of a member whose peers the same sync read in full (the first import; 1003's backfill).
      const prints = (statements: readonly string[]) =>
        statements.filter((q) => /^\s*SELECT\b/i.test(q) && /FROM `?peers`?/.test(q) && /COUNT\(\*\)/.test(q))
      expect(prints(proxy.statements.slice(0, firstSync))).toEqual([])
      expect(prints(secondSync).length).toBeGreaterThan(0)
      expect(prints(secondSync).filter((q) => /\b1003\b/.test(q))).toEqual([])
      // …and 1002's ids were compared (its fingerprint differed).
      expect(peerReads.some((q) => /^\s*SELECT id FROM peers WHERE userid = 1002\s*$/.test(q))).toBe(true)
    },
  )
})
