/**
 * The sync thread on SQLite: a sync run there leaves the same data as one run in-process (the same
 * demo state, the same sync time), the main thread keeps answering reads meanwhile, and its errors
 * reach the sync job as the in-process path would throw them. Relabels run in the thread too.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type AppDatabase } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { relabel } from '../derive/relabel'
import { demoSource } from '../sources/demo'
import { generateTestDemo } from '../sources/demo/testing/generate'
import type { DemoScale } from '../sources/demo/scale'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { pendingWageEstimates } from '../wages/estimates'
import { NexusFixture } from '../sources/nexusphp/testing/fixture'
import { SyncRunner } from './sync'
import { prepareSeedingState } from './sync-state'
import { syncThreadJobs } from './sync-offload'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)
const LATER = NOW + 10 * 60_000
/** ~30,000 seed records: an in-process sync holds the loop for most of a second. */
const SCALE: DemoScale = { members: 50, extraAdmins: 2, siteUsers: 1_000, torrents: 5_000, recordsPerMember: 600, historyDays: 20 }
const sqlite = openTestDatabases().find((backend) => backend.name === 'sqlite')!
const demo = { source: 'demo', nexusphp: { databaseUrl: undefined, timezone: undefined } } as const

function runner(database: AppDatabase, sourceSpec?: typeof demo | { source: 'nexusphp'; nexusphp: typeof demo.nexusphp }) {
  return new SyncRunner({ database, source: demoSource(), sourceSpec, wages: pendingWageEstimates, clock: () => LATER })
}

/** What a sync leaves that the console shows: records, labels, counts, the mirror's counters. */
async function derivedState(database: AppDatabase) {
  const rows = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(database.db)).rows
  return {
    records: await rows('select * from seed_records order by user_id, torrent_id'),
    labels: await rows('select * from torrent_labels order by torrent_id'),
    counts: await rows('select * from seed_record_counts order by 1, 2, 3, 4, 5, 6'),
    snatched: await rows('select * from site_snatched order by id'),
    sync: await rows('select derived_at, data_version from sync_state'),
  }
}

describe('sync thread on sqlite', () => {
  let opened: TestDatabase
  let twin: AppDatabase

  beforeAll(async () => {
    opened = await sqlite.open()
    await generateTestDemo(opened.database, { seed: 'sync-thread', scale: SCALE, now: NOW })
    // The same data state in a second file, synced in-process below.
    await sql.raw(`vacuum into '${opened.dataDir}/twin.db'`).execute(opened.database.db)
    twin = await openDatabase({ kind: 'sqlite', file: `${opened.dataDir}/twin.db` })
  }, 120_000)
  afterAll(async () => {
    await twin?.close()
    await opened?.cleanup()
  })

  it('a sync in the thread leaves the same data as one in-process, while the main thread keeps answering reads', async () => {
    const jobs = syncThreadJobs()
    let settled = false
    const inThread = runner(opened.database, demo)
      .runOnce(LATER)
      .finally(() => (settled = true))
    // In-process, the sync's statements gave the loop a turn only every ~10 ms and held it for each long one.
    let reads = 0
    while (!settled && reads < 300) {
      await opened.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
      reads++
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect({ reads, settled }).toEqual({ reads: 300, settled: false })
    const threaded = await inThread
    expect(syncThreadJobs()).toBe(jobs + 1)

    const inProcess = await runner(twin).runOnce(LATER)
    expect(syncThreadJobs()).toBe(jobs + 1)
    if (!threaded.ran || !inProcess.ran) throw new Error('a sync did not run')
    expect(threaded.rows).toEqual(inProcess.rows)
    expect(threaded.rows.site_snatched).toBeGreaterThan(0)
    expect({ ...threaded.derive, ms: 0, steps: {} }).toEqual({ ...inProcess.derive, ms: 0, steps: {} })
    expect(threaded.derive.changed).toBeGreaterThan(0)
    expect(threaded.snapshot).toEqual(inProcess.snapshot)
    expect(await derivedState(opened.database)).toEqual(await derivedState(twin))
  })

  it('a relabel after an admin change runs its pass in the thread', async () => {
    await sql`update torrent_labels set completion = 1 where torrent_id in (select torrent_id from torrent_labels limit 5)`.execute(
      opened.database.db,
    )
    await sql`insert into derive_queue (torrent_id) select torrent_id from torrent_labels limit 5`.execute(opened.database.db)
    const jobs = syncThreadJobs()
    expect(await relabel({ database: opened.database, sync: runner(opened.database, demo) }, LATER)).toEqual({ ran: true })
    expect(syncThreadJobs()).toBe(jobs + 1)
    expect((await sql<{ n: number }>`select count(*) as n from derive_queue`.execute(opened.database.db)).rows[0]!.n).toBe(0)
  })

  it('an error in the thread fails the sync as in-process, with its message kept for /data-sync', async () => {
    const failing = runner(opened.database, { source: 'nexusphp', nexusphp: demo.nexusphp })
    await expect(failing.runOnce(LATER + 60_000)).rejects.toThrow('NEXUSPHP_DATABASE_URL')
    const state = await opened.database.db.selectFrom('sync_state').select(['last_error', 'lock_owner']).executeTakeFirstOrThrow()
    expect(state).toEqual({ last_error: expect.stringContaining('NEXUSPHP_DATABASE_URL'), lock_owner: null })
    // The thread stays usable.
    expect((await runner(opened.database, demo).runOnce(LATER + 120_000)).ran).toBe(true)
  })
})

const siteServer = process.env.NEXUSPHP_TEST_DATABASE_URL

describe.skipIf(!siteServer)('sync thread with a NexusPHP source', () => {
  it('quits its connections to the site when its sync ends, instead of leaving them to be cut off', async () => {
    const site = await NexusFixture.create(siteServer!)
    const opened = await sqlite.open()
    try {
      await migrateToLatest(opened.database)
      await prepareSeedingState(opened.database.db, { source: 'nexusphp', now: Date.now() })
      const spec = { source: 'nexusphp' as const, nexusphp: { databaseUrl: site.url, timezone: undefined } }
      const job = new SyncRunner({
        database: opened.database,
        source: demoSource(),
        sourceSpec: spec,
        wages: pendingWageEstimates,
        clock: Date.now,
      })
      // Connections to the fixture's database besides the fixture's own.
      const siteConnections = async () =>
        Number(
          (
            await site.rows<{ n: number }>(
              'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()',
              [site.database],
            )
          )[0].n,
        )
      const jobs = syncThreadJobs()
      const result = await job.runOnce(await site.now())
      expect(result).toMatchObject({ ran: true })
      expect(syncThreadJobs()).toBe(jobs + 1)
      // The thread ends with its sync (sync.ts), its source's pool quitting first. Before session 9 the
      // thread lived on with its pool open and was terminated without a goodbye: one connection was left.
      expect(await siteConnections()).toBe(0)
      await job.stop()
      expect(await siteConnections()).toBe(0)
    } finally {
      await opened.cleanup()
      await site.drop()
    }
  })
})
