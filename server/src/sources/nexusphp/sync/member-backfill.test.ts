/**
 * A member added after the first import: their rows in full (the backfill), in both shapes a site can
 * have — and on a v1.6 site (MyISAM snatched and torrents) in statements that hold the tracker back no
 * longer than a primary-key window. There a secondary index does not carry the primary key, so a read
 * through the member index ordered by (uid, id) sorts every remaining row of its members on each page:
 * measured here by the work MariaDB reports for each statement replayed with ANALYZE, never by time.
 * Runs against NEXUSPHP_TEST_DATABASE_URL (skipped without it).
 */
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../../db/database'
import { SyncRunner } from '../../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../../rules/rules'
import { buildTestApp, openTestDatabases } from '../../../test/harness'
import { createWageEstimates } from '../../../wages/estimates'
import { nexusphpSource } from '../index'
import { type FixtureShape, fixtureShapes, NexusFixture } from '../testing/fixture'
import { addMember } from '../testing/member'
import { FaultProxy } from '../testing/proxy'
import type { NexusphpSyncTuning } from './state'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MIN = 60_000

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

/** The v1.6 tables with table-level locks (MyISAM; peers MEMORY): the tracker's UPDATEs wait for every read of them. */
const lockingTables = new Set(['users', 'teams', 'categories', 'torrents', 'peers', 'snatched', 'settings'])
/**
 * Of those, the ones with ordered (B-tree) keys. MEMORY peers are hash-keyed: no order to read them in,
 * so their (few) rows are always sorted after a hash lookup by member — in memory, not from a MyISAM file.
 */
const myisamTables = new Set(['users', 'teams', 'categories', 'torrents', 'snatched', 'settings'])

/** What MariaDB did for `statement` run again with ANALYZE: rows read from locking tables, and which MyISAM tables it sorted. */
async function engineWork(site: NexusFixture, statement: string): Promise<{ rows: number; sorted: string[] }> {
  const [{ ANALYZE: plan }] = await site.rows<{ ANALYZE: string }>(`ANALYZE FORMAT=JSON ${statement}`)
  let rows = 0
  const sorted: string[] = []
  const visit = (node: unknown, inFilesort: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, inFilesort))
    if (!node || typeof node !== 'object') return
    const n = node as Record<string, unknown>
    if (typeof n.table_name === 'string') {
      if (lockingTables.has(n.table_name)) rows += Number(n.r_rows ?? 0) * Number(n.r_loops ?? 1)
      if (inFilesort && myisamTables.has(n.table_name)) sorted.push(n.table_name)
    }
    for (const [key, value] of Object.entries(n)) visit(value, inFilesort || key === 'filesort')
  }
  visit(JSON.parse(plan), false)
  return { rows, sorted }
}

/** Source statements that read a table (not the schema checks). */
const readsOf = (statements: readonly string[]) => statements.filter((q) => /^\s*SELECT\b/i.test(q) && !/information_schema/i.test(q))

const combinations = openTestDatabases().flatMap((backend) =>
  fixtureShapes.map((shape) => ({ backend, shape, name: `${backend.name}, ${shape} site` })),
)

describe.skipIf(!serverUrl).each(combinations)("a later member's backfill on $name", ({ backend, shape }) => {
  /**
   * Members 1001–1003 with a few rows each, a non-member (1005) whose snatches sit between theirs, and
   * 1004 — not a member at the first import — with 30 snatches spread through the table (more than a
   * page of 12) and 14 uploads nobody else's rows point at (torrents 37–50: only the 'owned' step
   * brings them in).
   */
  async function site(): Promise<{ site: NexusFixture; now: number }> {
    const site = await NexusFixture.create(serverUrl!, { shape: shape as FixtureShape })
    cleanups.push(() => site.drop())
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.team(1, 'CMCT')
    for (const uid of [1001, 1002, 1003, 1004, 1005]) await site.user({ id: uid, username: `u${uid}` })
    for (let t = 1; t <= 50; t++) await site.torrent({ id: t, team: t <= 4 ? 1 : 0, owner: t >= 37 ? 1004 : t === 20 ? 1001 : 0 })
    for (let t = 1; t <= 30; t++) {
      for (const uid of [1001, 1002, 1003, 1004, 1005]) {
        if (uid <= 1003 && t > 4) continue
        await site.snatch({ userid: uid, torrent: t, finished: t % 2 === 0, lastAction: now - (t + 5) * MIN })
      }
    }
    for (const uid of [1001, 1002, 1003, 1004]) {
      for (let t = 1; t <= 2; t++)
        await site.peer({ userid: uid, torrent: t + (uid - 1001), seeder: true, lastAction: now - (t + 1) * MIN })
    }
    return { site, now }
  }

  async function console_(source: ReturnType<typeof nexusphpSource>, now: number): Promise<{ db: AppDatabase; runner: SyncRunner }> {
    const test = await backend.open()
    cleanups.push(() => test.cleanup())
    const app = await buildTestApp({ database: test.database, config: test.config })
    cleanups.push(() => app.close())
    for (const uid of [1001, 1002, 1003]) await addMember(test.database, `u${uid}`, uid)
    await saveRules(test.database.db, { ...defaultRuleBody, officialTeams: ['CMCT'], officialTags: [] }, now, null)
    const runner = new SyncRunner({ database: test.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    return { db: test.database, runner }
  }

  async function mirrorIds(db: AppDatabase, table: 'site_peers' | 'site_snatched' | 'site_torrents'): Promise<number[]> {
    return (await db.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id))
  }

  async function sourceIds(site: NexusFixture, query: string): Promise<number[]> {
    return (await site.rows<{ id: number }>(query)).map((r) => Number(r.id))
  }

  const members = '1001, 1002, 1003, 1004'
  const uploadsOf1004 = Array.from({ length: 14 }, (_, i) => 37 + i)

  async function expectBackfilled(site: NexusFixture, db: AppDatabase): Promise<void> {
    expect(await mirrorIds(db, 'site_snatched')).toEqual(
      await sourceIds(site, `SELECT id FROM snatched WHERE userid IN (${members}) ORDER BY id`),
    )
    expect(await mirrorIds(db, 'site_peers')).toEqual(
      await sourceIds(site, `SELECT id FROM peers WHERE userid IN (${members}) ORDER BY id`),
    )
    expect(await mirrorIds(db, 'site_torrents')).toEqual(expect.arrayContaining(uploadsOf1004))
    // Each of the member's rows once (the bulk path after a resumed window must not double one).
    const { rows } = await sql<{ n: number }>`select count(*) as n from site_snatched where userid = 1004`.execute(db.db)
    expect(Number(rows[0].n)).toBe(30)
  }

  it("reads the member's snatches and uploads in full", async () => {
    const { site: nexus, now } = await site()
    const tuning: Partial<NexusphpSyncTuning> = { pageRows: 12, lockedScanIds: 10, idChunk: 8, rollingCheckRows: 30 }
    const proxy = await FaultProxy.start(serverUrl!, { record: true })
    cleanups.push(() => proxy.close())
    const source = nexusphpSource({ databaseUrl: proxy.url(nexus.url), timezone: undefined }, { tuning })
    const { db, runner } = await console_(source, now)

    expect((await runner.runOnce(now)).ran).toBe(true)
    expect(await mirrorIds(db, 'site_torrents')).not.toEqual(expect.arrayContaining([37]))
    await addMember(db, 'u1004', 1004)
    const firstSync = proxy.statements.length
    expect((await runner.runOnce(now + 2 * MIN)).ran).toBe(true)
    await expectBackfilled(nexus, db)

    if (shape !== 'v16') return
    // v1.6: every statement of the sync that took the member in — replayed with ANALYZE — read at most a
    // window (10 ids) of a table the tracker writes, and sorted no MyISAM table (a sort reads every row
    // the statement could return before it returns the first).
    const reads = readsOf(proxy.statements.slice(firstSync))
    const backfill = reads.filter((q) => /FROM `(snatched|torrents)`/.test(q) && /\b(userid|owner) IN \(1004\)/.test(q))
    expect(backfill.length).toBeGreaterThan(4)
    const tooMuch: string[] = []
    for (const statement of reads) {
      const { rows, sorted } = await engineWork(nexus, statement)
      if (rows > 10 || sorted.length) tooMuch.push(`${rows} rows${sorted.length ? `, sorts ${sorted.join(', ')}` : ''}: ${statement}`)
    }
    expect(tooMuch).toEqual([])
  })

  it('a backfill cut short resumes where its last committed page ended', async () => {
    const { site: nexus, now } = await site()
    // Windows of 3 ids that never grow (a target of 0 ms): the v1.6 uploads scan reaches torrents 37–39
    // in its 13th statement. Through the InnoDB owner index: pages of 12 rows, the 2nd cut.
    const tuning: Partial<NexusphpSyncTuning> = { pageRows: 12, lockedScanIds: 12, lockedStatementMs: 0, idChunk: 8 }
    const proxy = await FaultProxy.start(serverUrl!, { record: true })
    cleanups.push(() => proxy.close())
    const source = nexusphpSource({ databaseUrl: proxy.url(nexus.url), timezone: undefined }, { tuning })
    const { db, runner } = await console_(source, now)
    expect((await runner.runOnce(now)).ran).toBe(true)
    await addMember(db, 'u1004', 1004)

    const cut = await FaultProxy.start(serverUrl!, { record: true, cutOn: { pattern: 'owner IN (1004)', nth: shape === 'v16' ? 14 : 2 } })
    cleanups.push(() => cut.close())
    const cutSource = nexusphpSource({ databaseUrl: cut.url(nexus.url), timezone: undefined }, { tuning })
    const cutRunner = new SyncRunner({ database: db, source: cutSource, wages: createWageEstimates(), clock: () => now + 2 * MIN })
    cleanups.push(() => cutRunner.stop())
    await expect(cutRunner.runOnce(now + 2 * MIN)).rejects.toThrow(/NexusPHP/)
    expect(cut.cuts).toBe(1)
    const { source_state } = await db.db.selectFrom('sync_state').select('source_state').where('id', '=', 1).executeTakeFirstOrThrow()
    const pass = JSON.parse(source_state).pairs.pass
    expect(pass).toMatchObject({ table: 'owned', step: 'new' })
    expect(pass.id).toBeGreaterThanOrEqual(37)
    // The committed pages hold exactly the uploads up to the cursor.
    const mirrored = (await mirrorIds(db, 'site_torrents')).filter((id) => id >= 37)
    expect(mirrored).toEqual(uploadsOf1004.filter((id) => id <= pass.id))

    cut.heal()
    const resumedAt = cut.statements.length
    expect((await cutRunner.runOnce(now + 3 * MIN)).ran).toBe(true)
    const resumed = readsOf(cut.statements.slice(resumedAt)).filter((q) => q.includes('owner IN (1004)'))
    expect(resumed[0]).toContain(`id > ${pass.id}`)
    await expectBackfilled(nexus, db)
  })
})
