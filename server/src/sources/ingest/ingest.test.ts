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
  it('refuses a row whose text holds a lone surrogate (what was sent could not be kept), and keeps the good rows', async () => {
    const outcome = await applySnapshot(
      db(),
      ingestSnapshotSchema.parse({
        users: [
          { id: 1001, username: 'good_one', added: iso(NOW) },
          { id: 1002, username: 'half\ud800', added: iso(NOW) },
        ],
        torrents: [{ id: 7, info_hash: 'ef'.repeat(20), name: 'Broken\udc00Name', size: 1024, added: iso(NOW) }],
      }),
    )
    expect(outcome.accepted).toMatchObject({ users: 1, torrents: 0 })
    expect(outcome.rejected).toEqual([
      { entity: 'users', index: 1, id: 1002, reason: expect.stringContaining('不成对的代理项') },
      { entity: 'torrents', index: 0, id: 7, reason: expect.stringContaining('不成对的代理项') },
    ])
    const users = await db().selectFrom('site_users').select('username').execute()
    expect(users.map((u) => u.username)).toEqual(['good_one'])
  })

  it('gives the event loop turns while it checks a large push', async () => {
    // 5,000 rows every one of them wrong: nothing is written, so the turns counted are the checks' own.
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      id: i + 1,
      torrent: 1,
      peer_id: 'ab'.repeat(20),
      seeder: 'maybe',
      userid: 1001,
    }))
    let turns = 0
    let counting = true
    const count = () => {
      turns++
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const outcome = await applySnapshot(db(), ingestSnapshotSchema.parse({ peers: rows }))
    counting = false
    expect(outcome.rejectedTotal).toBe(5_000)
    expect(turns).toBeGreaterThanOrEqual(4)
  })
})
