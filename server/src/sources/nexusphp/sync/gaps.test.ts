/**
 * Paced primary-key scans of tables with table-level locks skip the ids the table does not have
 * (gaps.ts). A real site's peers hold a narrow band of high ids (auto-increment only climbs as peers
 * come and go), a long-lived seeder's far below; read from 0 in windows of `lockedScanIds`, a scan
 * issued thousands of statements before its first row. Here a v1.6 site whose peers are MyISAM (a
 * site that converted its MEMORY peers) with ids 3,000 and 20,000–25,011, snatches from 10,000 and
 * torrents from 5,001 — counted in statements, never timed. Runs against NEXUSPHP_TEST_DATABASE_URL
 * (skipped without it); the mirror's backend does not matter here (SQLite).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../../db/database'
import { SyncRunner } from '../../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../../rules/rules'
import { buildTestApp, openTestDatabases } from '../../../test/harness'
import { createWageEstimates } from '../../../wages/estimates'
import { nexusphpSource } from '../index'
import { NexusFixture } from '../testing/fixture'
import { addMember } from '../testing/member'
import { FaultProxy } from '../testing/proxy'
import { ScanGaps } from './gaps'
import type { NexusphpSyncReport } from './run'
import type { SyncSession } from './session'
import type { NexusphpSyncTuning } from './state'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MIN = 60_000
const members = [1001, 1002, 1003]
// Windows of 10 ids that never grow (a target of 0 ms): the same statements on every machine.
const tuning: Partial<NexusphpSyncTuning> = { pageRows: 12, lockedScanIds: 40, lockedStatementMs: 0, idChunk: 8, rollingCheckRows: 30 }

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

/** The source's statements of a primary-key scan of `table`: its id windows and the asks for its next id. */
const scans = (statements: readonly string[], table: string) =>
  statements.filter((q) => new RegExp(`^\\s*SELECT\\b.* FROM \`?${table}\`?\\b.*\\bWHERE id > \\d+`, 's').test(q))

describe.skipIf(!serverUrl)('a v1.6 site with MyISAM peers whose ids are high and sparse', () => {
  async function site(): Promise<{ site: NexusFixture; now: number }> {
    const site = await NexusFixture.create(serverUrl!, { shape: 'v16' })
    cleanups.push(() => site.drop())
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.exec('ALTER TABLE peers ENGINE=MyISAM')
    await site.team(1, 'CMCT')
    for (const uid of [...members, 1005]) await site.user({ id: uid, username: `u${uid}` })
    for (let t = 5001; t <= 5008; t++) await site.torrent({ id: t, team: 1 })
    await site.exec('ALTER TABLE snatched AUTO_INCREMENT = 10000')
    for (const uid of [...members, 1005])
      for (let t = 5001; t <= 5008; t++) await site.snatch({ userid: uid, torrent: t, finished: true, lastAction: now - 10 * MIN })
    const peers = async (from: number, torrents: number[], uids = [...members, 1005]) => {
      await site.exec(`ALTER TABLE peers AUTO_INCREMENT = ${from}`)
      for (const t of torrents)
        for (const uid of uids) await site.peer({ userid: uid, torrent: t, seeder: true, lastAction: now - 2 * MIN })
    }
    // A long-lived seeder's peer (id 3000), then two bands: 20000–20015 and 25000–25011 (a quarter of them a non-member's).
    await peers(3000, [5001], [1001])
    await peers(20000, [5002, 5003, 5004, 5005])
    await peers(25000, [5006, 5007, 5008])
    return { site, now }
  }

  async function console_(source: ReturnType<typeof nexusphpSource>, now: number): Promise<{ db: AppDatabase; runner: SyncRunner }> {
    const test = await openTestDatabases()[0].open()
    cleanups.push(() => test.cleanup())
    const app = await buildTestApp({ database: test.database, config: test.config })
    cleanups.push(() => app.close())
    for (const uid of members) await addMember(test.database, `u${uid}`, uid)
    await saveRules(test.database.db, { ...defaultRuleBody, officialTeams: ['CMCT'], officialTags: [] }, now, null)
    const runner = new SyncRunner({ database: test.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    return { db: test.database, runner }
  }

  const mirrored = async (db: AppDatabase, table: 'site_peers' | 'site_snatched') =>
    (await db.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id))
  const theirs = async (site: NexusFixture, table: 'peers' | 'snatched') =>
    (await site.rows<{ id: number }>(`SELECT id FROM ${table} WHERE userid IN (${members.join(', ')}) ORDER BY id`)).map((r) =>
      Number(r.id),
    )

  it('reads them in a few windows past the gaps — the first import, changes, deletions, an emptied table', async () => {
    const { site: nexus, now } = await site()
    const proxy = await FaultProxy.start(serverUrl!, { record: true })
    cleanups.push(() => proxy.close())
    const source = nexusphpSource({ databaseUrl: proxy.url(nexus.url), timezone: undefined }, { tuning })
    const { db, runner } = await console_(source, now)
    const reports: NexusphpSyncReport[] = []
    const listen = (message: unknown) => void reports.push(message as NexusphpSyncReport)
    subscribe('seeding:nexusphp-sync', listen)
    cleanups.push(async () => unsubscribe('seeding:nexusphp-sync', listen))
    const sync = async (at: number) => {
      const from = proxy.statements.length
      expect((await runner.runOnce(at)).ran).toBe(true)
      expect(await mirrored(db, 'site_peers')).toEqual(await theirs(nexus, 'peers'))
      expect(await mirrored(db, 'site_snatched')).toEqual(await theirs(nexus, 'snatched'))
      const statements = proxy.statements.slice(from)
      return {
        peers: scans(statements, 'peers').length,
        snatched: scans(statements, 'snatched').length,
        torrents: scans(statements, 'torrents').length,
      }
    }

    // The first import: from 0 in windows of 10 ids, it took 2,502 statements of peers, 1,004 of snatched and 1,016 of
    // torrents (the new ones and the members' uploads); past the gaps 10, 5 and 17 — 14 of them the rolling sweep's
    // slice of torrents (torrents.ts `sweepOldTorrents`: 140 ids a sync, whatever the table holds).
    const first = await sync(now)
    expect((await mirrored(db, 'site_peers')).length).toBe(22)
    expect(first.peers).toBeLessThanOrEqual(20)
    expect(first.snatched).toBeLessThanOrEqual(20)
    expect(first.torrents).toBeLessThanOrEqual(30)

    // The tracker announces (a peer moves), a member's peer stops, one starts past the bands.
    await nexus.exec('UPDATE peers SET uploaded = uploaded + 1, last_action = FROM_UNIXTIME(?) WHERE id = 20004', [now / 1000 + 60])
    await nexus.exec('DELETE FROM peers WHERE id = 25001')
    await nexus.exec('ALTER TABLE peers AUTO_INCREMENT = 30000')
    await nexus.peer({ userid: 1002, torrent: 5008, seeder: false, lastAction: now + 2 * MIN })
    const changed = await sync(now + 3 * MIN)
    const [{ uploaded }] = await db.db.selectFrom('site_peers').select('uploaded').where('id', '=', 20004).execute()
    expect(Number(uploaded)).toBe(1)
    expect(await mirrored(db, 'site_peers')).toContain(30000)
    // (Changed rows: 3,000 statements of peers, 1,004 of snatched, 515 of torrents; past the gaps 12, 7 and 16.)
    expect(changed.peers).toBeLessThanOrEqual(20)
    expect(changed.snatched).toBeLessThanOrEqual(20)
    expect(changed.torrents).toBeLessThanOrEqual(30)
    // The read-ahead plan started its scans where the steps did (past the gap before the first id).
    expect(reports[1].readAhead.unused).toBe(0)

    // The site's peers all stop: the mirror follows, and the scan of an empty table reads nothing.
    await nexus.exec('DELETE FROM peers')
    const emptied = await sync(now + 6 * MIN)
    expect(await mirrored(db, 'site_peers')).toEqual([])
    expect(emptied.peers).toBe(0)
  })

  it('a first import cut short between the bands resumes at its cursor', async () => {
    const { site: nexus, now } = await site()
    // The 6th window of peers is the first in the band at 25,000 (windows from 3000, 3010 — empty —, 20000, 20010,
    // 20020 — empty —, then past the gap); the page committed before ends at 20019.
    const proxy = await FaultProxy.start(serverUrl!, { record: true, cutOn: { pattern: 'FROM `peers`', nth: 6 } })
    cleanups.push(() => proxy.close())
    const source = nexusphpSource({ databaseUrl: proxy.url(nexus.url), timezone: undefined }, { tuning })
    const { db, runner } = await console_(source, now)
    await expect(runner.runOnce(now)).rejects.toThrow(/NexusPHP/)
    expect(proxy.cuts).toBe(1)
    const { source_state } = await db.db.selectFrom('sync_state').select('source_state').where('id', '=', 1).executeTakeFirstOrThrow()
    const pass = JSON.parse(source_state).pairs.pass
    expect(pass).toMatchObject({ table: 'site_peers', step: 'new' })
    expect(pass.id).toBeGreaterThan(20000)
    expect(pass.id).toBeLessThan(25000)
    // The committed pages hold exactly the peers up to the cursor.
    const all = await theirs(nexus, 'peers')
    expect(await mirrored(db, 'site_peers')).toEqual(all.filter((id) => id <= pass.id))

    proxy.heal()
    const resumedAt = proxy.statements.length
    expect((await runner.runOnce(now + MIN)).ran).toBe(true)
    const windows = proxy.statements.slice(resumedAt).filter((q) => /FROM `peers`/.test(q))
    expect(windows[0]).toContain('id > 24999')
    expect(await mirrored(db, 'site_peers')).toEqual(all)
  })
})

describe('a scan whose filter keeps no row of a dense table', () => {
  it('asks for the next id ever more rarely, yet still skips a gap after it', async () => {
    // Ids 1–500 and 100,001–100,500; windows of 10 ids, every one empty (the filter keeps nothing).
    const ids = [...Array.from({ length: 500 }, (_, i) => i + 1), ...Array.from({ length: 500 }, (_, i) => 100_001 + i)]
    let asks = 0
    const s = {
      engines: { locking: new Set(['snatched']), hashKeyed: new Set() },
      once: <T>(_key: string, compute: () => Promise<T>) => compute(),
      span: () => 10,
      source: {
        query: async (_sql: string, [after]: number[]) => {
          asks++
          return [{ m: ids.find((id) => id > after) ?? null }]
        },
      },
    } as unknown as SyncSession
    const end = 100_500
    const gaps = new ScanGaps(s, 'snatched', end)
    let windows = 0
    for (let after = await gaps.start(0); after < end; windows++) after = await gaps.next(Math.min(end, after + 10), false)
    // Without asks 10,050 windows; with one after every empty window ~100 asks, one a window. Here 120 windows, 14 asks.
    expect(windows).toBeLessThan(250)
    expect(asks).toBeLessThan(20)
  })
})
