/**
 * Found by an outside tester (fixed since; the test keeps it so): the changed-torrents pass read the full row of every torrent of the site whose `last_action` moved, and
 * only then throws away those the mirror does not hold.
 *
 * What a real user sees: on a busy site every seeded torrent's `torrents.last_action` moves all the time — announce.php
 * sets it on every start/stop/completed event (`UPDATE torrents SET … visible = 'yes', last_action = $dt`), and the v1.6
 * tracker on every announce of a seeder. sync/torrent-refresh.ts `syncChangedTorrents` asks the source for
 * `SELECT <every mirror column> FROM torrents WHERE id > ? AND id <= ? AND last_action >= ?` over the whole id range and
 * keeps `rows.filter((t) => mirrored.has(t.id))`: each sync downloads the name, hash, size… of every torrent announced
 * since the last one — on a site of 1,000,000 torrents (docs/domain.md §6) with hourly announces, about a sixth of all
 * seeded torrents every 10-minute sync — although the team's mirror holds a small part of them. On a v1.6 site those are
 * thousands of extra statements on the MyISAM `torrents` table the tracker writes, every sync.
 *
 * Correct behaviour (docs/domain.md §5: "Only rows that concern the team's members and relevant torrents are read"): the
 * pass returns the changed rows of the torrents the mirror holds (e.g. primary-key lookups of the mirrored ids with the
 * `last_action` condition, or the relevant-torrent condition the other passes use), so the site sends no row of a torrent
 * the team has nothing to do with.
 *
 * NexusPHP reference: public/announce.php (`if (count($updateset) || $hasChangeSeederLeecher) { … $updateset[] = "last_action =
 * $dt"; UPDATE torrents SET … }` on every event), and the TBDev-lineage v1.x announce (`if ($seeder == "yes") { …
 * $updateset[] = "last_action = NOW()"; }` on every announce of a seeder — what testing/fixture.ts `announce()` models):
 * the column moves for every active torrent of the site, the team's or not.
 *
 * Here: one official torrent (the member's, mirrored) and 2,000 torrents of other users that the team never touches; the
 * other users' clients announce on all of them between two syncs. Today the second sync receives 2,000+ torrent rows.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../db/database'
import { SyncRunner } from '../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { buildTestApp, openTestDatabases } from '../../test/harness'
import { pendingWageEstimates } from '../../wages/estimates'
import { countingSource } from './testing/counting-source'
import { NexusFixture, type FixtureShape } from './testing/fixture'
import { addMember } from './testing/member'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MIN = 60_000

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
})

describe.skipIf(!serverUrl).each(['innodb', 'v16'] as FixtureShape[])('torrents announced at a %s site', (shape) => {
  it("reads no row of a torrent the team has nothing to do with when other users' clients announce on it", async () => {
    const site = await NexusFixture.create(serverUrl!, { shape })
    cleanups.push(() => site.drop())
    const now = await site.now()
    await site.team(1, 'CMCT')
    await site.user({ id: 1001, username: 'alice' })
    await site.user({ id: 2001, username: 'someone' })
    // alice keeps the official torrent 1 …
    await site.torrent({ id: 1, team: 1 })
    await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 5 * MIN })
    await site.snatch({ userid: 1001, torrent: 1, finished: true, lastAction: now - 5 * MIN })
    // … among 2,000 torrents of other users, in no official team (the rest of the site).
    await site.exec(
      `INSERT INTO torrents (id, info_hash, name, filename, descr, category, team, size, added, seeders, leechers, times_completed, owner, last_action)
        SELECT 1 + seq, UNHEX(SHA1(seq)), CONCAT('Other.Torrent.', seq, '.2024.1080p.WEB-DL'), CONCAT(seq, '.torrent'), 'descr', 0, 0,
          5368709120, FROM_UNIXTIME(?), 1, 0, 0, 2001, FROM_UNIXTIME(?)
        FROM seq_1_to_2000`,
      [(now - 30 * 24 * 60 * MIN) / 1000, (now - 5 * MIN) / 1000],
    )

    const test = await openTestDatabases()[0].open()
    cleanups.push(() => test.cleanup())
    const app = await buildTestApp({ database: test.database, config: test.config })
    cleanups.push(() => app.close())
    const db: AppDatabase = test.database
    await addMember(db, 'alice', 1001)
    await saveRules(db.db, { ...defaultRuleBody, officialTeams: ['CMCT'], officialTags: [] }, now, null)
    const tally: { sql: string; n: number }[] = []
    const source = countingSource(site.url, 'torrents', tally)
    cleanups.push(() => source.close!())
    const runner = new SyncRunner({ database: db, source, wages: pendingWageEstimates, clock: () => Date.now() })
    cleanups.push(() => runner.stop())

    expect((await runner.runOnce()).ran).toBe(true)
    expect((await db.db.selectFrom('site_torrents').select('id').execute()).map((r) => r.id)).toEqual([1])

    // The other users' clients announce on their torrents (announce.php: `UPDATE torrents SET … last_action = $dt`).
    await site.exec('UPDATE torrents SET last_action = NOW() WHERE id > 1')
    tally.length = 0
    expect((await runner.runOnce()).ran).toBe(true)
    const received = tally.reduce((sum, r) => sum + r.n, 0)
    const heaviest = [...tally].sort((a, b) => b.n - a.n)[0]
    // The mirror holds one torrent: a sync that reads only what concerns the team gets a handful of torrent rows back.
    expect(received, `heaviest statement: ${heaviest?.sql.slice(-160)} → ${heaviest?.n} rows`).toBeLessThanOrEqual(10)
    expect((await db.db.selectFrom('site_torrents').select('id').execute()).map((r) => r.id)).toEqual([1])
  }, 120_000)
})
