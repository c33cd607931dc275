/**
 * Found by an outside tester (fixed since; the test keeps it so): a v1.6 site's MEMORY `peers` table starts its ids over
 * at 1 whenever MySQL restarts. A member added around then is backfilled through the mirror's bulk path, which replaces
 * a mirror row holding the same id — a stale peer of another member from before the restart. That member's record was
 * not queued (mirror/fresh.ts queueDisplacedPairs now does, as the upsert queues a row's old pair): she stayed 做种中, a
 * keeper, with no peer at the site, until her client announced that torrent again.
 */
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations, statuses } from './testing/scenarios'

const MIN = 60_000
const SeedingUnclaimed = 4
const Stopped = 7

const kit = scenarioKit()

async function sync(app: FastifyInstance): Promise<void> {
  const result = await app.services.sync.runOnce()
  if (!result.ran) throw new Error('the sync did not run')
}

describe.skipIf(!serverUrl).each(siteCombinations.filter((c) => c.shape === 'v16'))(
  'MEMORY peers after a restart on $name',
  ({ backend }) => {
    it('a member whose client stopped during a tracker restart turns 已停止 even when a new member’s first peer takes her old peer id', async () => {
      const nx = await kit.site('v16')
      const now = await nx.now()
      await nx.user({ id: 1001, username: 'alice' })
      await nx.user({ id: 1002, username: 'bob' })
      await nx.team(1, 'CMCT')
      await nx.torrent({ id: 1, team: 1 })
      await nx.torrent({ id: 2, team: 1 })
      const alicePeer = await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
      await nx.snatch({ userid: 1001, torrent: 1, finished: true, lastAction: now - 2 * MIN })
      // alice's history: torrents she downloaded and stopped long ago (a team of any size has such records).
      for (let id = 101; id <= 160; id++) {
        await nx.torrent({ id })
        await nx.snatch({ userid: 1001, torrent: id, finished: true, lastAction: now - 30 * 86_400_000 })
      }
      const { db, app } = await kit.console_(backend, { NEXUSPHP_DATABASE_URL: nx.url })
      await addMember(db.database, 'alice', 1001)
      await sync(app)
      expect((await statuses(db.database))['alice:1']).toBe(SeedingUnclaimed)

      // The site's MySQL restarts: the MEMORY peers table comes back empty, its ids starting over at 1.
      await nx.exec('TRUNCATE TABLE peers')
      // alice's client is off; bob's client announces first after the restart, and his peer takes id 1 again.
      await nx.snatch({ userid: 1002, torrent: 2, finished: true, lastAction: now })
      const bobPeer = await nx.peer({ userid: 1002, torrent: 2, seeder: true, lastAction: now })
      expect(bobPeer).toBe(alicePeer)
      // The admins add bob to the team.
      await addMember(db.database, 'bob', 1002)
      await sync(app)

      // The site has no peer of alice: she is stopped (a complete snatch), bob seeds torrent 2.
      expect(await db.database.db.selectFrom('site_peers').select(['id', 'userid', 'torrent']).execute()).toEqual([
        { id: bobPeer, userid: 1002, torrent: 2 },
      ])
      const seen = async () => {
        const all = await statuses(db.database)
        return { alice: all['alice:1'], bob: all['bob:2'] }
      }
      expect(await seen()).toEqual({ alice: Stopped, bob: SeedingUnclaimed })
      // …and stays so on the next sync.
      await sync(app)
      expect(await seen()).toEqual({ alice: Stopped, bob: SeedingUnclaimed })
    })
  },
)
