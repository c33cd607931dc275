/**
 * A team member who uploaded a torrent and seeds it counts among its keepers (docs/domain.md §3: status 3 or 4,
 * or 6 发布者 with an active seeding peer).
 *
 * On the site, the uploader's seeding client is a peer like any other: announce.php inserts/updates its
 * `peers` row with `seeder = 'yes'` when `left == 0`, and `torrents.seeders` counts it
 * (public/announce.php: `$seeder = ($left == 0) ? "yes" : "no"`; `seeders = get_row_count("peers",
 * "where torrent = $torrentid and to_go = 0")`). Nothing in NexusPHP treats the owner's peer differently.
 *
 * So an official torrent of the team's own release group, uploaded and seeded by a member plus one other
 * keeper, has 2 keepers against a target of 2 (completion 1) — not 1 and 缺保种, which sent auto-assign more
 * members. The uploader's record stays 发布者 (rule 1 wins); its `seeding` flag decides.
 * Runs on the MariaDB/MySQL of NEXUSPHP_TEST_DATABASE_URL (skipped without it).
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { AppDatabase } from '../../db/database'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations, statuses } from './testing/scenarios'

const MIN = 60_000
const Uploader = 6
const SeedingUnclaimed = 4
const kit = scenarioKit()

async function sync(app: FastifyInstance): Promise<{ full: boolean }> {
  const result = await app.services.sync.runOnce()
  if (!result.ran) throw new Error('the sync did not run')
  return result.derive
}

/** Torrent 1's keepers and completion label. */
async function label(db: AppDatabase): Promise<{ keepers: number; completion: number }> {
  const { rows } = await sql<{ keepers: number; completion: number }>`select keepers, completion from torrent_labels
    where torrent_id = 1`.execute(db.db)
  return { keepers: Number(rows[0].keepers), completion: Number(rows[0].completion) }
}

/** username → the record's `seeding` flag on torrent 1. */
async function seeding(db: AppDatabase): Promise<Record<string, number>> {
  const { rows } = await sql<{ username: string; seeding: number }>`select u.username, r.seeding
    from seed_records r join users u on u.id = r.user_id where r.torrent_id = 1 order by u.username`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [r.username, Number(r.seeding)]))
}

describe.skipIf(!serverUrl).each(siteCombinations)('the uploader as a keeper on $name', ({ backend, shape }) => {
  it('an uploading member who seeds the official torrent counts among its keepers, as the site counts her in seeders; not once she stops', async () => {
    const nx = await kit.site(shape)
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.user({ id: 1002, username: 'bob' })
    await nx.team(1, 'CMCT')
    // alice uploaded it (torrents.owner) and seeds it; bob seeds it too: the site shows 2 seeders.
    await nx.torrent({ id: 1, team: 1, owner: 1001, seeders: 2 })
    for (const userid of [1001, 1002]) {
      await nx.snatch({ userid, torrent: 1, finished: true, lastAction: now - 2 * MIN })
      await nx.peer({ userid, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    }
    const { db, app } = await kit.console_(backend, { NEXUSPHP_DATABASE_URL: nx.url })
    await addMember(db.database, 'alice', 1001)
    await addMember(db.database, 'bob', 1002)
    await sync(app)

    // alice is 发布者 and her record sees her seeding client.
    expect(await statuses(db.database)).toEqual({ 'alice:1': Uploader, 'bob:1': SeedingUnclaimed })
    expect(await seeding(db.database)).toEqual({ alice: 1, bob: 1 })
    // Two team members seed it (the site: seeders 2), target 2 (scenarioKit's rules): reached.
    expect(await label(db.database)).toEqual({ keepers: 2, completion: 1 })

    // alice stops her client (announce's `stopped` event deletes the peer): the uploader no longer keeps it.
    await nx.exec('DELETE FROM peers WHERE torrent = 1 AND userid = 1001')
    await nx.exec('UPDATE torrents SET seeders = 1 WHERE id = 1')
    expect((await sync(app)).full).toBe(false)
    expect(await statuses(db.database)).toEqual({ 'alice:1': Uploader, 'bob:1': SeedingUnclaimed })
    expect(await seeding(db.database)).toEqual({ alice: 0, bob: 1 })
    expect(await label(db.database)).toEqual({ keepers: 1, completion: 2 })

    // She seeds it again (announce stamps the new peer's last_action now): a keeper again, by the incremental pass's delta.
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: await nx.now() })
    await nx.exec('UPDATE torrents SET seeders = 2 WHERE id = 1')
    expect((await sync(app)).full).toBe(false)
    expect(await seeding(db.database)).toEqual({ alice: 1, bob: 1 })
    expect(await label(db.database)).toEqual({ keepers: 2, completion: 1 })
  })
})
