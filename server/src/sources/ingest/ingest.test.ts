/**
 * Pushed snapshots (applySnapshot) as a tracker sends them, judged by the derivation — the mirror's
 * keys as the site's: two members may announce one peer_id on one torrent (NexusPHP since 2023-04).
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { derive } from '../../derive'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { openTestDatabases } from '../../test/harness'
import { useSeedingDb } from '../../test/seeding-db'
import { applySnapshot } from './ingest'
import { ingestSnapshotSchema } from './schema'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const MIN = 60_000
const iso = (ms: number) => new Date(ms).toISOString()

describe.each(openTestDatabases())('ingest on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db

  it('two members sharing a peer_id on one torrent both stay seeding, push after push', async () => {
    await saveRules(db(), { ...defaultRuleBody, officialTeams: ['CMCT'], targetKeepers: 2 }, NOW, null)
    const alice = await t.world.member('alice', 1001)
    const bob = await t.world.member('bob', 1002)
    const sharedPeerId = '2d7142343635302d' + 'ab'.repeat(12)
    const peer = (id: number, userid: number, at: number) => ({
      id,
      torrent: 1,
      peer_id: sharedPeerId,
      seeder: 'yes',
      started: iso(NOW - 600 * MIN),
      last_action: iso(at),
      userid,
    })
    for (let round = 1; round <= 5; round++) {
      const at = NOW + round * 10 * MIN
      // One of them announced since the last push, in turn; the snapshot carries both peers.
      const snapshot = ingestSnapshotSchema.parse({
        teams: [{ id: 1, name: 'CMCT' }],
        torrents: [
          { id: 1, info_hash: 'cd'.repeat(20), name: 'Shared.Seedbox.2160p', size: 8 * 1024 ** 3, team: 1, added: iso(NOW - 86_400_000) },
        ],
        peers: round % 2 ? [peer(11, 1001, at), peer(12, 1002, at - 5 * MIN)] : [peer(12, 1002, at), peer(11, 1001, at - 5 * MIN)],
      })
      const outcome = await applySnapshot(db(), snapshot)
      expect(outcome.rejected).toEqual([])
      await derive(t.db.database, { now: at })
      const records = await db()
        .selectFrom('seed_records')
        .select(['user_id', 'status'])
        .where('torrent_id', '=', 1)
        .orderBy('user_id')
        .execute()
      expect(records, `push ${round}`).toEqual([
        { user_id: alice, status: SeedStatus.SeedingUnclaimed },
        { user_id: bob, status: SeedStatus.SeedingUnclaimed },
      ])
      const { rows } = await sql<{
        keepers: number
        completion: number
      }>`select keepers, completion from torrent_labels where torrent_id = 1`.execute(db())
      expect(
        rows.map((r) => [Number(r.keepers), Number(r.completion)]),
        `push ${round}`,
      ).toEqual([[2, 1]])
    }
  })
})
