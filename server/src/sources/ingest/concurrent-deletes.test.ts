/**
 * Two pushers at once: a retry of an earlier push and the push that un-claims. Found by an outside tester: the check
 * against remembered deletions ran before, and outside, the ingest lock, and deletes did not take the lock at all — a
 * retry that had looked up the deletions (nothing yet) could insert the claim right after the other's un-claim
 * committed, undoing it for good. Now both judge and write under the lock, so they apply one after the other, and in
 * either order the claim ends deleted. (The test of that time forced the interleaving through the old order of calls;
 * this one runs the two pushes at once, several times, on each database.)
 */
import { describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { derive } from '../../derive'
import { openTestDatabases } from '../../test/harness'
import { useSeedingDb } from '../../test/seeding-db'
import { applySnapshot } from './ingest'
import { ingestSnapshotSchema } from './schema'
import { pushedClaim, pushedPeer, pushedTorrent } from './testing'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases())('two pushers at once on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db

  it('an un-claim pushed while a retry of the earlier push is in flight stays an un-claim', async () => {
    const alice = await t.world.member('alice', 501)
    const batchA = ingestSnapshotSchema.parse({
      teams: [{ id: 1, name: 'FRDS' }],
      torrents: [pushedTorrent(1, NOW - 30 * 86_400_000, { seeders: 3 })],
      peers: [pushedPeer({ id: 11, torrent: 1, userid: 501, started: NOW - 60 * MIN, lastAction: NOW - 10 * MIN })],
      claims: [pushedClaim({ id: 31, uid: 501, torrent: 1, createdAt: NOW - 86_400_000 })],
    })
    // Pusher 1's batch A landed (alice had claimed torrent 1); pusher 1 retries batch A (its client timed out); meanwhile pusher 2 sends batch B: alice un-claimed.
    const batchB = ingestSnapshotSchema.parse({
      peers: [pushedPeer({ id: 11, torrent: 1, userid: 501, started: NOW - 60 * MIN, lastAction: NOW - 1 * MIN })],
      deleted: { claims: [31] },
    })
    for (let round = 0; round < 5; round++) {
      // The claim back for the round (the deletion of the last round forgotten first).
      await db().deleteFrom('ingest_deletions').execute()
      await applySnapshot(db(), batchA, NOW)
      const [outcomeA, outcomeB] = await Promise.all([applySnapshot(db(), batchA, NOW + 2000), applySnapshot(db(), batchB, NOW + 1000)])
      expect(outcomeB.deleted.claims + outcomeA.ignoredOlder.claims, `round ${round}`).toBeGreaterThanOrEqual(1)
      expect(
        (await db().selectFrom('site_claims').select('id').execute()).map((r) => Number(r.id)),
        `round ${round}`,
      ).toEqual([])
    }

    await derive(t.db.database, { now: NOW + 3000 })
    const record = await db()
      .selectFrom('seed_records')
      .select('status')
      .where('user_id', '=', alice)
      .where('torrent_id', '=', 1)
      .executeTakeFirst()
    // Applied one after the other, in either order, claim 31 ends deleted (a replay of a deleted claim is left out).
    expect(record?.status).toBe(SeedStatus.SeedingUnclaimed)
  })
})
