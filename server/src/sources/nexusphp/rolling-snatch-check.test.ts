/**
 * Found by an outside tester (fixed since; the test keeps it so): the rolling check for deleted snatches downloaded every snatch id of the site in the slice's range,
 * members' or not, on every sync.
 *
 * What a real user sees: a small team (a few dozen members, ~20,000 snatches between them) on a big site (millions of
 * `snatched` rows). The members' snatches are spread over the table's whole id range (they go back years), so the
 * rolling check's slice — up to `rollingCheckRows` (20,000) mirror ids, i.e. the team's whole mirror — covers ids
 * 1 … max. sync/deletions.ts `presentSnatches` asks `SELECT id FROM snatched WHERE id BETWEEN <first> AND <last>`
 * (one statement on InnoDB, where `span` is unbounded; windows of 2,000 ids on MyISAM that together still cover the
 * range), and the site sends back the id of *every* snatch of every user in that range: at 10,000,000 rows
 * (docs/domain.md §6) ten million ids per sync, each sync (every 10 minutes) — seconds of transfer, hundreds of MB of
 * JS objects in the server, and on a v1.6 site thousands of statements on the MyISAM table the tracker writes.
 *
 * Correct behaviour (docs/domain.md §5: "Only rows that concern the team's members and relevant torrents are read";
 * §6: 10,000,000 snatch rows, "the sync stream[s] rather than load all rows into memory"): the check asks whether *the mirror's* ids still exist —
 * primary-key lookups of exactly those ids (`WHERE id IN (…)`, in bounded chunks), or the ids restricted to the members
 * (`AND userid IN (…)`) — so the site sends at most one row per mirrored snatch.
 *
 * NexusPHP reference: `snatched` has one row per (torrent, user) for every user of the site (announce.php inserts it on
 * a user's first announce of a torrent), so a team's rows are a thin, scattered subset of the table;
 * `_db/dbstructure_v1.6.sql` / `2021_06_08_113437_create_snatched_table.php`: primary key `id`, no index that would let a
 * range read return only some users' ids.
 *
 * Here: alice (a member) has 21 snatches, one after every 1,000 snatches of other users (20,000 of theirs in all). A sync
 * with nothing changed must not receive more `snatched` rows than the members have (plus a little slack). Today it
 * receives every id of the range: 20,021 rows in one statement on an InnoDB site; 10,026 in 10 statements of ~1,002
 * rows on a v1.6 (MyISAM) site, where runs of mirror ids closer than the 2,000-id window are read as one range.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../db/database'
import { SyncRunner } from '../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { buildTestApp, openTestDatabases } from '../../test/harness'
import { createWageEstimates } from '../../wages/estimates'
import { countingSource } from './testing/counting-source'
import { NexusFixture, type FixtureShape } from './testing/fixture'
import { addMember } from './testing/member'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MIN = 60_000

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

describe.skipIf(!serverUrl).each(['innodb', 'v16'] as FixtureShape[])('the rolling snatch check on a %s site', (shape) => {
  it('reads back no more snatched rows than the members have, however many other users snatched in between', async () => {
    const site = await NexusFixture.create(serverUrl!, { shape })
    cleanups.push(() => site.drop())
    const now = Math.floor((await site.now()) / 1000) * 1000
    await site.team(1, 'CMCT')
    await site.user({ id: 1001, username: 'alice' })
    for (let u = 2001; u <= 2020; u++) await site.user({ id: u, username: `user${u}` })
    // alice's snatches go back years: one every ~1,000 snatches of the site's other users (announce.php writes one row
    // per user and torrent), 21 of hers among 20,000 of theirs.
    const hers: number[] = []
    for (let t = 1; t <= 21; t++) {
      await site.torrent({ id: t, team: 1 })
      hers.push(await site.snatch({ userid: 1001, torrent: t, finished: true, lastAction: now - 30 * MIN }))
      if (t === 21) break
      await site.exec(
        `INSERT INTO snatched (torrentid, userid, ip, port, uploaded, downloaded, to_go, seedtime, leechtime, last_action, startdat, completedat, finished)
          SELECT 100000 + seq, ?, '10.0.0.2', 51413, 0, 0, 0, 3600, 600, FROM_UNIXTIME(?), FROM_UNIXTIME(?), FROM_UNIXTIME(?), 'yes'
          FROM seq_1_to_1000`,
        [2000 + t, (now - 3 * 24 * 60 * MIN) / 1000, (now - 4 * 24 * 60 * MIN) / 1000, (now - 4 * 24 * 60 * MIN) / 1000],
      )
    }
    expect(hers[20] - hers[0]).toBeGreaterThan(20_000)

    const test = await openTestDatabases()[0].open()
    cleanups.push(() => test.cleanup())
    const app = await buildTestApp({ database: test.database, config: test.config })
    cleanups.push(() => app.close())
    const db: AppDatabase = test.database
    await addMember(db, 'alice', 1001)
    await saveRules(db.db, { ...defaultRuleBody, officialTeams: ['CMCT'], officialTags: [] }, now, null)
    const tally: { sql: string; n: number }[] = []
    const source = countingSource(site.url, 'snatched', tally)
    cleanups.push(() => source.close!())
    const runner = new SyncRunner({ database: db, source, wages: createWageEstimates(), clock: () => now })
    cleanups.push(() => runner.stop())

    expect((await runner.runOnce(now)).ran).toBe(true)
    const mirrored = (await db.db.selectFrom('site_snatched').select('id').orderBy('id').execute()).map((r) => Number(r.id))
    expect(mirrored).toEqual(hers)

    // The next sync: nothing changed at the site.
    tally.length = 0
    expect((await runner.runOnce(now + MIN)).ran).toBe(true)
    const received = tally.reduce((sum, r) => sum + r.n, 0)
    const heaviest = [...tally].sort((a, b) => b.n - a.n)[0]
    // The members hold 21 snatches: a sync that reads only what concerns them gets at most those back (and a little more).
    expect(received, `heaviest statement: ${heaviest?.sql} → ${heaviest?.n} rows`).toBeLessThanOrEqual(hers.length + 10)
  }, 120_000)
})
