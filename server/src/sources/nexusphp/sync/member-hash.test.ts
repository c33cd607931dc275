import { afterEach, describe, expect, it } from 'vitest'
import { SyncRunner } from '../../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../../rules/rules'
import { buildTestApp, openTestDatabases } from '../../../test/harness'
import { createWageEstimates } from '../../../wages/estimates'
import { nexusphpSource } from '../index'
import { NexusFixture } from '../testing/fixture'
import { addMember } from '../testing/member'
import { FaultProxy } from '../testing/proxy'
import { memberFilter, memberGroupsByWeight, nextGroupSize, pacedGroups } from './member-hash'

describe('members per statement on a hash-keyed table', () => {
  const weights = new Map([
    [1, 100],
    [2, 100],
    [3, 5_000],
    [4, 100],
    [5, 0],
    [6, 2_500],
  ])
  const weight = (uid: number) => weights.get(uid)

  it('takes whole members while their rows fit the budget; a heavier one alone', () => {
    expect(memberGroupsByWeight([1, 2, 3, 4, 5, 6], weight, 2_000, 25)).toEqual([[1, 2], [3], [4, 5], [6]])
  })

  it('never more than the member cap, never none', () => {
    expect(memberGroupsByWeight([1, 2, 4, 5], weight, 10_000, 2)).toEqual([
      [1, 2],
      [4, 5],
    ])
    expect(nextGroupSize([3], 0, weight, 1, 25)).toBe(1)
    expect(nextGroupSize([1, 2], 0, weight, 2_000, 0)).toBe(1)
  })

  it('a member of unknown weight (never read) goes alone', () => {
    expect(memberGroupsByWeight([1, 7, 8, 2], weight, 2_000, 25)).toEqual([[1], [7], [8], [2]])
  })

  it('each group takes the budget of its turn (the pace moves between statements)', () => {
    const budgets = [150, 10_000]
    expect([...pacedGroups([1, 2, 4, 5, 6], weight, () => budgets.shift() ?? 0, 25)]).toEqual([[1], [2, 4, 5, 6]])
  })

  it('one member is a plain lookup', () => {
    expect(memberFilter('userid', [1001])).toBe('userid = 1001')
    expect(memberFilter('userid', [1001, 1002])).toBe('userid IN (1001, 1002)')
  })
})

/**
 * The same against a v1.6 site (MEMORY peers, NEXUSPHP_TEST_DATABASE_URL; skipped without it): members the
 * mirror holds no peers of — their weight unknown — counted in statements and in the rows MariaDB reads
 * for each (replayed with ANALYZE), never in time. Four members with 40 peers each (more than a statement's
 * budget here: 10–40 rows) and 30 members with no peers at all (the common case).
 */
const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MIN = 60_000
const heavy = [1001, 1002, 1003, 1004]
const idle = Array.from({ length: 30 }, (_, i) => 1101 + i)

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

/** Rows `statement` reads from the MEMORY peers, as MariaDB counts them running it again (ANALYZE). */
async function peerRowsRead(site: NexusFixture, statement: string): Promise<number> {
  const [{ ANALYZE: plan }] = await site.rows<{ ANALYZE: string }>(`ANALYZE FORMAT=JSON ${statement}`)
  let rows = 0
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const n = node as Record<string, unknown>
    if (n.table_name === 'peers') rows += Number(n.r_rows ?? 0) * Number(n.r_loops ?? 1)
    Object.values(n).forEach(visit)
  }
  visit(JSON.parse(plan))
  return rows
}

/** A sync's statements that read the peers: the rows each read, and how many named a member without peers. */
async function peerReads(site: NexusFixture, statements: readonly string[]) {
  const reads = statements.filter((q) => /^\s*\(?SELECT\b/i.test(q) && /FROM `?peers`?/.test(q))
  const rows: number[] = []
  for (const statement of reads) rows.push(await peerRowsRead(site, statement))
  const namesIdle = reads.filter((q) => idle.some((uid) => new RegExp(`\\b${uid}\\b`).test(q))).length
  return { rows, namesIdle }
}

describe.skipIf(!serverUrl).each(openTestDatabases())('members of unknown weight on a v1.6 site ($name)', (backend) => {
  async function setUp(members: readonly number[], cutOn?: { pattern: string; nth: number }) {
    const site = await NexusFixture.create(serverUrl!, { shape: 'v16' })
    cleanups.push(() => site.drop())
    const now = Math.floor((await site.now()) / 1000) * 1000
    for (const uid of [...heavy, ...idle]) await site.user({ id: uid, username: `u${uid}` })
    for (let t = 1; t <= 40; t++) await site.torrent({ id: t })
    const announce = async (at: number) => {
      for (const uid of heavy) for (let t = 1; t <= 40; t++) await site.peer({ userid: uid, torrent: t, seeder: true, lastAction: at })
    }
    await announce(now - 5 * MIN)
    const proxy = await FaultProxy.start(serverUrl!, { record: true, cutOn })
    cleanups.push(() => proxy.close())
    const test = await backend.open()
    cleanups.push(() => test.cleanup())
    const app = await buildTestApp({ database: test.database, config: test.config })
    cleanups.push(() => app.close())
    for (const uid of members) await addMember(test.database, `u${uid}`, uid)
    await saveRules(test.database.db, { ...defaultRuleBody, officialTeams: [], officialTags: [] }, now, null)
    const tuning = { pageRows: 25, lockedScanIds: 40, idChunk: 8, rollingCheckRows: 30 }
    const source = nexusphpSource({ databaseUrl: proxy.url(site.url), timezone: undefined }, { tuning })
    const runner = new SyncRunner({ database: test.database, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())
    /** Runs a sync at `at`; the statements it sent. */
    const sync = async (at: number) => {
      const from = proxy.statements.length
      expect((await runner.runOnce(at)).ran).toBe(true)
      return proxy.statements.slice(from)
    }
    const mirrored = async () => (await test.database.db.selectFrom('site_peers').select('id').execute()).length
    return { site, now, db: test.database, proxy, runner, sync, announce, mirrored }
  }

  it('after the tracker restarted (MEMORY peers emptied), the members who announce again are read one per statement', async () => {
    const { site, now, sync, announce, mirrored } = await setUp([...heavy, ...idle])
    await sync(now)
    expect(await mirrored()).toBe(160)
    // The tracker restarts: its MEMORY peers are empty until the clients announce again — and the mirror follows.
    await site.exec('DELETE FROM peers')
    await sync(now + 2 * MIN)
    expect(await mirrored()).toBe(0)
    await announce(now + 3 * MIN)
    const again = await peerReads(site, await sync(now + 4 * MIN))
    expect(await mirrored()).toBe(160)
    // No statement read more than one member's 40 peers: the changed rows and the deletion check's ids alike
    // (weighed 0, the four shared a statement of 160 rows in each).
    expect(again.rows.filter((n) => n > 40)).toEqual([])
    // The 34 members the mirror held no peers of were asked first, 25 a statement (at most a row each: 4 have
    // some); then the four's changed rows and ids, one member a statement.
    const sorted = (rows: number[]) => [...rows].sort((a, b) => a - b)
    expect(sorted(again.rows)).toEqual([0, 4, ...Array(8).fill(40)])
    // The members without peers still cost a statement per 25 of them, not one each — there, and in a quiet
    // sync (10 statements, as many as when they were weighed 0: the four's changed rows and fingerprints).
    expect(again.namesIdle).toBe(2)
    const quiet = await peerReads(site, await sync(now + 5 * MIN))
    expect(quiet.namesIdle).toBe(2)
    expect(sorted(quiet.rows)).toEqual([0, 0, ...Array(8).fill(40)])
  })

  it('a backfill cut short: the sync that resumes it compares the members it read one per statement', async () => {
    // 1002–1004 join after the first import; their backfill is cut at the read of 1003's peers (a page of 1002's committed).
    const { now, site, db, proxy, runner, sync, mirrored } = await setUp([1001, ...idle], {
      pattern: '`peers` WHERE userid = 1003',
      nth: 1,
    })
    await sync(now)
    for (const uid of [1002, 1003, 1004]) await addMember(db, `u${uid}`, uid)
    await expect(runner.runOnce(now + 2 * MIN)).rejects.toThrow(/NexusPHP/)
    expect(proxy.cuts).toBe(1)
    const { source_state } = await db.db.selectFrom('sync_state').select('source_state').where('id', '=', 1).executeTakeFirstOrThrow()
    expect(JSON.parse(source_state).pairs.pass).toMatchObject({ table: 'site_peers', step: 'new', uid: 1002 })
    expect(await mirrored()).toBe(65)
    proxy.heal()
    const resumed = await peerReads(site, await sync(now + 3 * MIN))
    expect(await mirrored()).toBe(160)
    // 1003 and 1004 (read in this sync, not weighed when it started) have their ids compared one each.
    expect(resumed.rows.filter((n) => n > 40)).toEqual([])
  })
})
