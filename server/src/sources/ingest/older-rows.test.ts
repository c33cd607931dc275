/**
 * Older pushes ignored (older.ts), the cases beside ingest.test.ts's: a snatch whose time ran past the clock (its
 * counters decide), a peer re-created under a lower id (its time decides, not the id), and two pushes in flight
 * (they take turns).
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { useSeedingDb } from '../../test/seeding-db'
import { AdminLock, lockFor } from '../../db/write-lock'
import { upsertMirror } from '../mirror'
import { applySnapshot } from './ingest'
import { olderIds, storedIsNewer } from './older'
import { ingestRowSchemas, ingestSnapshotSchema } from './schema'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const HOUR = 3_600_000
const DAY = 24 * HOUR
const GiB = 1024 ** 3
const iso = (ms: number) => new Date(ms).toISOString()

describe.each(openTestDatabases())('older pushes on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db
  const torrentRow = { id: 3, info_hash: '3a'.repeat(20), name: 'Kept.Title.2160p', size: 8 * GiB, team: 1, added: iso(NOW - 90 * DAY) }
  const snatch = (id: number, hours: number, gib: number, at: number) => ({
    id,
    torrentid: 3,
    userid: 501,
    uploaded: gib * GiB,
    downloaded: 8 * GiB,
    seedtime: hours * 3600,
    last_action: iso(at),
    startdat: iso(NOW - 60 * DAY),
    finished: 'yes',
  })
  const push = (body: Record<string, unknown>, now = NOW) => applySnapshot(db(), ingestSnapshotSchema.parse(body), now)
  const mirrorSnatches = async () =>
    (await db().selectFrom('site_snatched').select(['id', 'seedtime', 'uploaded']).orderBy('id').execute()).map((r) => ({
      id: Number(r.id),
      seedtime: Number(r.seedtime),
      uploaded: Number(r.uploaded),
    }))

  it('a snatch whose site time ran past the clock still brings its grown counters (as the NexusPHP sync does)', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    await push({ snatches: [snatch(41, 1000, 10, NOW - HOUR)] })
    // The tracker's clock jumped ahead: its snatched.last_action is now 2 days past ours, while the
    // member seeded 400 hours more and uploaded 30 GiB more. The time is not believed (notes) …
    const later = await push({ snatches: [snatch(41, 1400, 40, NOW + 2 * DAY)] })
    expect(Object.keys(later.notes).length).toBeGreaterThan(0)
    // … but the row is the newer state of snatch 41: its counters only grow, and they grew.
    expect(later.ignoredOlder.snatches).toBe(0)
    expect(await mirrorSnatches()).toEqual([{ id: 41, seedtime: 1400 * 3600, uploaded: 40 * GiB }])
  })

  it.runIf(backend.name === 'postgres')(
    'two pushes in flight (PostgreSQL, read committed) take turns: a re-created row is never rolled back by the old one',
    async () => {
      await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
      await push({ snatches: [snatch(41, 1000, 10, NOW - 2 * HOUR)] })
      // Push B (a late push of row 41, newer than the stored 41) is between its lookup and its write, holding the
      // entity's turn as applySnapshot does …
      const late = ingestRowSchemas.snatches.parse(snatch(41, 1100, 12, NOW - 90 * 60_000))
      let a: Promise<unknown> | undefined
      let aDone = false
      await db()
        .transaction()
        .execute(async (trx) => {
          await lockFor(trx, 'postgres', AdminLock.ingest)
          expect((await olderIds(trx, 'site_snatched', [late], NOW + DAY)).size).toBe(0)
          // … while push A (the site re-created the snatch as 77) arrives: it waits for B's commit.
          a = push({ snatches: [snatch(77, 5, 1, NOW - HOUR)] }).then(() => (aDone = true))
          await expect
            .poll(async () => {
              const { rows } = await sql<{
                n: string
              }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`.execute(db())
              return Number(rows[0]?.n)
            })
            .toBeGreaterThan(0)
          expect(aDone).toBe(false)
          await upsertMirror(trx, 'site_snatched', [late], {
            keepStoredWhen: storedIsNewer('site_snatched', '"site_snatched"', 'excluded', NOW + DAY),
          })
        })
      await a
      // A judged against B's row and wrote after it: the re-created row is what stays.
      expect(await mirrorSnatches()).toEqual([{ id: 77, seedtime: 5 * 3600, uploaded: 1 * GiB }])
    },
  )

  it('a peer re-created under a lower id (ids restarted: MEMORY peers table, tracker restart) is not ignored when the push deletes the old row', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    const peer = (id: number, at: number, gib: number) => ({
      id,
      torrent: 3,
      userid: 501,
      peer_id: '2d'.repeat(20),
      seeder: 'yes',
      uploaded: gib * GiB,
      started: iso(at - HOUR),
      last_action: iso(at),
    })
    await push({ peers: [peer(90_000, NOW - 2 * HOUR, 10)] })
    // The tracker restarted: its peers table begins again at id 1; the same client announces again.
    const after = await push({ peers: [peer(5, NOW - 60_000, 1)], deleted: { peers: [90_000] } })
    const stored = await db().selectFrom('site_peers').select(['id', 'last_action']).execute()
    // Taken: the newer row of that client (it replaced 90,000, which the delete then no longer finds).
    expect({ ignored: after.ignoredOlder.peers, stored: stored.map((r) => Number(r.id)) }).toEqual({ ignored: 0, stored: [5] })
  })
})
