/**
 * `N` of a closed month's wage is the torrent's seeders at the period's end (domain.md §4), as NexusPHP's own
 * settlement (its cron on the 1st) reads them — not the seeders of the day the month is computed. The sync keeps
 * them with the month's first snapshot (torrent_seeder_snapshots, snapshots/write.ts) and the reader takes them
 * from there (reader.ts), so computing March on April 3rd, after more members joined a torrent, pays what it paid
 * on April 1st. Where no such snapshot exists — the running month, or an end snapshot taken before 0.3.4 — the
 * current seeders, as before.
 *
 * On SQLite and PostgreSQL with the test world's syncs; then on the NexusPHP source (a MariaDB site, with
 * NEXUSPHP_TEST_DATABASE_URL), where an outside tester found it.
 */
import type { FastifyInstance } from 'fastify'
import { beforeEach, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import type { FixtureShape } from '../sources/nexusphp/testing/fixture'
import { addMember } from '../sources/nexusphp/testing/member'
import { scenarioKit, serverUrl, siteCombinations } from '../sources/nexusphp/testing/scenarios'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { computePeriod, previewInProcess } from './engine'
import { syncAt } from './testing/sync'

const H = 3600
const ZONE = 'Asia/Shanghai'
const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)

describe.each(openTestDatabases())("a closed month's seeders on $name", (backend) => {
  const t = useSeedingDb(backend)

  it('are the ones kept with its end snapshot; the running month and a month without them read the current ones', async () => {
    const { database } = t.db
    const { db } = database
    const w = t.world
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, local('2026-01-01 00:00'), null)
    const alice = await w.member('alice', 1001)
    for (const id of [1, 2]) {
      await w.torrent(id, { team: 1, size: 20 * GIB, added: local('2025-06-01 12:00'), seeders: 1 })
      await w.snatch(1001, id, { finished: true, seedtime: 100 * H, lastAction: local('2026-02-28 23:00') })
      await w.claim(1001, id, local('2026-01-10 12:00'))
    }
    await syncAt(database, local('2026-03-01 00:20'), ZONE)
    for (const id of [1, 2]) await w.updateSnatch(1001, id, { seedtime: 600 * H })
    await syncAt(database, local('2026-03-31 23:50'), ZONE)
    await syncAt(database, local('2026-04-01 00:20'), ZONE) // April's first snapshot: March's end

    const onFirst = await previewInProcess(db, '2026-03', local('2026-04-01 00:30'), alice)
    expect(onFirst.list[0]!.items!.map((i) => [i.torrentId, i.seeders, i.qualified])).toEqual([
      [1, 1, true],
      [2, 1, true],
    ])

    // April 2nd: five more members seed both. Torrent 2's end snapshot is one taken before 0.3.4 (no seeders kept).
    for (const id of [1, 2]) await w.updateTorrent(id, { seeders: 6 })
    await db.deleteFrom('torrent_seeder_snapshots').where('torrent_id', '=', 2).execute()
    await syncAt(database, local('2026-04-03 09:00'), ZONE)

    const onThird = await previewInProcess(db, '2026-03', local('2026-04-03 09:10'), alice)
    const [kept, current] = onThird.list[0]!.items!
    expect([kept!.torrentId, kept!.seeders, kept!.value]).toEqual([1, 1, onFirst.list[0]!.items![0]!.value])
    expect([current!.torrentId, current!.seeders]).toEqual([2, 6])
    // The compute reads the same rows.
    const computed = await computePeriod(db, '2026-03')
    expect(computed.members.map((m) => [m.userId, m.amount])).toEqual([[alice, onThird.list[0]!.amount]])
    const stored = (JSON.parse([...computed.itemSets][0]!.items) as number[][]).map((i) => [i[0], i[2]])
    expect(stored.sort((a, b) => a[0]! - b[0]!)).toEqual([
      [1, 1],
      [2, 6],
    ])

    // The running month has no end snapshot: the seeders now.
    const april = await previewInProcess(db, '2026-04', local('2026-04-03 09:10'), alice)
    expect(april.list[0]!.items!.map((i) => [i.torrentId, i.seeders])).toEqual([
      [1, 6],
      [2, 6],
    ])
  })
})

const kit = scenarioKit()
let shape: FixtureShape = 'innodb'

describe.skipIf(!serverUrl).each(siteCombinations)("a closed month's wage on the NexusPHP source, $name", (c) => {
  beforeEach(() => void (shape = c.shape))
  async function sync(app: FastifyInstance, wall: string): Promise<void> {
    const result = await app.services.sync.runOnce(local(wall))
    if (!result.ran) throw new Error('the sync did not run')
  }

  it('does not move with the seeders of the days after the month', async () => {
    const nx = await kit.site(shape)
    await nx.user({ id: 1001, username: 'alice' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1, size: 20 * GIB, added: local('2025-06-01 12:00'), seeders: 1 })
    await nx.snatch({
      userid: 1001,
      torrent: 1,
      finished: true,
      lastAction: local('2026-02-28 23:00'),
      startdat: local('2025-12-01 10:00'),
      seedtime: 100 * H,
    })
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: local('2026-02-28 23:00') })
    await nx.claim({ uid: 1001, torrent: 1, createdAt: local('2026-01-10 12:00') })
    const { db, app } = await kit.console_(c.backend, { NEXUSPHP_DATABASE_URL: nx.url })
    await saveRules(
      db.database.db,
      { ...defaultRuleBody, ...nexusphpClaimsPreset, officialTeams: ['CMCT'] },
      local('2026-01-01 00:00'),
      null,
    )
    const alice = await addMember(db.database, 'alice', 1001)
    await sync(app, '2026-03-01 00:20')
    await nx.exec('UPDATE snatched SET seedtime = seedtime + ?, last_action = FROM_UNIXTIME(?) WHERE userid = 1001', [
      500 * H,
      local('2026-03-31 23:40') / 1000,
    ])
    await nx.exec('UPDATE peers SET last_action = FROM_UNIXTIME(?) WHERE userid = 1001', [local('2026-03-31 23:40') / 1000])
    await sync(app, '2026-03-31 23:50')
    await sync(app, '2026-04-01 00:20') // April's first snapshot: March's end counters and seeders

    const onFirst = await previewInProcess(db.database.db, '2026-03', local('2026-04-01 00:30'), alice)
    expect(onFirst.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seeders: 1, qualified: true })])

    // April 2nd: five more members seed it; announce.php updates torrents.seeders and last_action.
    await nx.exec('UPDATE torrents SET seeders = 6, last_action = FROM_UNIXTIME(?) WHERE id = 1', [local('2026-04-02 20:00') / 1000])
    await sync(app, '2026-04-03 09:00')
    const onThird = await previewInProcess(db.database.db, '2026-03', local('2026-04-03 09:10'), alice)
    expect(onThird.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seeders: 1 })])
    expect(onThird.list[0]!.amount).toBe(onFirst.list[0]!.amount)
    // The sync did see the new seeders: the running month reads them.
    const april = await previewInProcess(db.database.db, '2026-04', local('2026-04-03 09:10'), alice)
    expect(april.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seeders: 6 })])
  })
})
