/**
 * Found by an outside tester (fixed since; the test keeps it so): a claim pushed as NexusPHP's `claims` table holds it before the site ever touched it —
 * `updated_at` NULL (Laravel's nullable timestamps) — is rejected ("updated_at" required), so the member's claim is
 * lost: the record shows 做种中（未认领） and earns no wage. The contract gives the field names of NexusPHP's tables,
 * and the NexusPHP sync takes the same row (reader.ts: updated_at ??= created_at).
 */
import { describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { derive } from '../../derive'
import { openTestDatabases } from '../../test/harness'
import { useSeedingDb } from '../../test/seeding-db'
import { applySnapshot } from './ingest'
import { ingestSnapshotSchema } from './schema'
import { iso, pushedPeer, pushedTorrent } from './testing'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)

describe.each(openTestDatabases())('a claim with a NULL updated_at on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db

  it('is taken as claimed at created_at, as the NexusPHP sync takes it', async () => {
    const alice = await t.world.member('alice', 501)
    const outcome = await applySnapshot(
      db(),
      ingestSnapshotSchema.parse({
        teams: [{ id: 1, name: 'FRDS' }],
        torrents: [pushedTorrent(1, NOW - 30 * 86_400_000, { seeders: 3 })],
        peers: [pushedPeer({ id: 11, torrent: 1, userid: 501, started: NOW - 3_600_000, lastAction: NOW - 5 * 60_000 })],
        claims: [{ id: 31, uid: 501, torrent_id: 1, created_at: iso(NOW - 86_400_000), updated_at: null }],
      }),
      NOW,
    )
    await derive(t.db.database, { now: NOW })
    const record = await db()
      .selectFrom('seed_records')
      .select('status')
      .where('user_id', '=', alice)
      .where('torrent_id', '=', 1)
      .executeTakeFirst()
    expect(record?.status).toBe(SeedStatus.Seeding) // 做种中 (claimed)
    expect([outcome.accepted.claims, outcome.rejectedTotal]).toEqual([1, 0])
  })
})
