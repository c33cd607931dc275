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
import { AdminLock, lockFor } from '../../db/write-lock'
import { upsertMirror } from '../mirror'
import { applySnapshot } from './ingest'
import { olderIds, storedIsNewer } from './older'
import { ingestRowSchemas, ingestSnapshotSchema } from './schema'
import { iso, pushedPeer, pushedTorrent } from './testing'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases())('ingest on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db

  it('two members sharing a peer_id on one torrent both stay seeding, push after push', async () => {
    await saveRules(db(), { ...defaultRuleBody, officialTeams: ['CMCT'], targetKeepers: 2 }, NOW, null)
    const alice = await t.world.member('alice', 1001)
    const bob = await t.world.member('bob', 1002)
    const sharedPeerId = '2d7142343635302d' + 'ab'.repeat(12)
    const peer = (id: number, userid: number, at: number) =>
      pushedPeer({ id, torrent: 1, userid, peerId: sharedPeerId, started: NOW - 600 * MIN, lastAction: at })
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
      const outcome = await applySnapshot(db(), snapshot, NOW)
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
      NOW,
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
    const outcome = await applySnapshot(db(), ingestSnapshotSchema.parse({ peers: rows }), NOW)
    counting = false
    expect(outcome.rejectedTotal).toBe(5_000)
    expect(turns).toBeGreaterThanOrEqual(4)
  })
  const GiB = 1024 ** 3
  const HOUR = 3_600_000
  const torrentRow = pushedTorrent(3, NOW - 90 * 86_400_000, { info_hash: '3a'.repeat(20), name: 'Kept.Title.2160p' })
  const snatch = (id: number, hours: number, gib: number, at: number) => ({
    id,
    torrentid: 3,
    userid: 501,
    uploaded: gib * GiB,
    downloaded: 8 * GiB,
    seedtime: hours * 3600,
    last_action: iso(at),
    startdat: iso(NOW - 60 * 86_400_000),
    finished: 'yes',
  })
  const seeder = (id: number, gib: number, at: number, peerId = '2d'.repeat(20)) =>
    pushedPeer({ id, torrent: 3, userid: 501, peerId, uploaded: gib * GiB, started: NOW - 86_400_000, lastAction: at })
  const push = (body: Record<string, unknown>) => applySnapshot(db(), ingestSnapshotSchema.parse(body), NOW)
  const mirrorSnatches = () =>
    db().selectFrom('site_snatched').select(['id', 'seedtime', 'uploaded', 'last_action']).orderBy('id').execute()
  const mirrorPeers = () => db().selectFrom('site_peers').select(['id', 'uploaded', 'last_action']).orderBy('id').execute()
  const num = <R extends Record<string, unknown>>(rows: R[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])))
  /** The mirror's snatches as numbers, without their times. */
  const snatchesNow = async () => num(await mirrorSnatches()).map(({ id, seedtime, uploaded }) => ({ id, seedtime, uploaded }))

  it('an older push replayed after a newer one is ignored and counted: counters never go back', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    const first = { snatches: [snatch(41, 1000, 10, NOW - 120_000)], peers: [seeder(51, 10, NOW - 120_000)] }
    await push(first)
    const newer = await push({ snatches: [snatch(41, 1400, 40, NOW - 10_000)], peers: [seeder(51, 40, NOW - 10_000)] })
    expect(newer.written).toMatchObject({ snatches: 1, peers: 1 })
    const replay = await push(first)
    expect(replay.rejected).toEqual([])
    expect(replay.accepted).toMatchObject({ snatches: 0, peers: 0 })
    expect(replay.ignoredOlder).toMatchObject({ snatches: 1, peers: 1 })
    expect(replay.written).toMatchObject({ snatches: 0, peers: 0 })
    expect(num(await mirrorSnatches())).toEqual([{ id: 41, seedtime: 1400 * 3600, uploaded: 40 * GiB, last_action: NOW - 10_000 }])
    expect(num(await mirrorPeers())).toEqual([{ id: 51, uploaded: 40 * GiB, last_action: NOW - 10_000 }])
  })

  it('same last_action: the row with a lower counter is the older one; equal or higher counters are taken', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    const at = NOW - 60_000
    await push({ snatches: [snatch(41, 1000, 10, at)] })
    const lower = await push({ snatches: [{ ...snatch(41, 1200, 10, at), downloaded: 4 * GiB }] })
    expect(lower.ignoredOlder.snatches).toBe(1)
    const higher = await push({ snatches: [snatch(41, 1001, 11, at)] })
    expect(higher).toMatchObject({ accepted: { snatches: 1 }, ignoredOlder: { snatches: 0 }, written: { snatches: 1 } })
    expect(num(await mirrorSnatches())).toEqual([{ id: 41, seedtime: 1001 * 3600, uploaded: 11 * GiB, last_action: at }])
  })

  it("a re-created snatch (higher id, same torrent and member) replaces the old one even starting lower; the old id's replay is ignored", async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    await push({ snatches: [snatch(41, 1000, 10, NOW - 2 * HOUR)] })
    const recreated = await push({ snatches: [snatch(77, 1, 0, NOW - HOUR)] })
    expect(recreated).toMatchObject({ accepted: { snatches: 1 }, ignoredOlder: { snatches: 0 } })
    expect(num(await mirrorSnatches())).toEqual([{ id: 77, seedtime: 3600, uploaded: 0, last_action: NOW - HOUR }])
    // The old snatch again (a replayed push: its time is before the re-created row's): 41 is the deleted one.
    const replay = await push({ snatches: [snatch(41, 1000, 10, NOW - 2 * HOUR)] })
    expect(replay).toMatchObject({ accepted: { snatches: 0 }, ignoredOlder: { snatches: 1 } })
    expect(num(await mirrorSnatches())).toEqual([{ id: 77, seedtime: 3600, uploaded: 0, last_action: NOW - HOUR }])
  })

  it('a peer stamped years past the server clock is not believed: not seeding, not a keeper', async () => {
    await saveRules(db(), { ...defaultRuleBody, officialTeams: ['CMCT'], targetKeepers: 2 }, NOW, null)
    const alice = await t.world.member('alice', 501)
    const outcome = await push({
      teams: [{ id: 1, name: 'CMCT' }],
      torrents: [torrentRow],
      peers: [seeder(51, 10, NOW + 5 * 365 * 86_400_000)],
    })
    expect(outcome.accepted.peers).toBe(1)
    expect(Object.keys(outcome.notes)).toContainEqual(expect.stringContaining('peers.last_action'))
    await derive(t.db.database, { now: NOW })
    const records = await db().selectFrom('seed_records').select(['user_id', 'status']).where('torrent_id', '=', 3).execute()
    expect(records).toHaveLength(1)
    expect(records[0].user_id).toBe(alice)
    expect([SeedStatus.Seeding, SeedStatus.SeedingUnclaimed]).not.toContain(records[0].status)
    const { rows } = await sql<{ keepers: number }>`select keepers from torrent_labels where torrent_id = 3`.execute(db())
    expect(rows.map((r) => Number(r.keepers))).toEqual([0])
    // Within a day of the clock is believed (a tracker a few hours ahead).
    await push({ peers: [seeder(51, 10, NOW + 3 * HOUR)] })
    expect(num(await mirrorPeers())).toEqual([{ id: 51, uploaded: 10 * GiB, last_action: NOW + 3 * HOUR }])
  })

  it('the conflict update itself keeps a newer stored row (a concurrent push the lookup did not see)', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    await push({ snatches: [snatch(41, 1400, 40, NOW - 10_000)] })
    const older = ingestRowSchemas.snatches.parse(snatch(41, 1000, 10, NOW - 120_000))
    const keepStoredWhen = storedIsNewer('site_snatched', '"site_snatched"', 'excluded', NOW + 86_400_000)
    expect(await upsertMirror(db(), 'site_snatched', [older], { keepStoredWhen })).toBe(0)
    expect(num(await mirrorSnatches())).toEqual([{ id: 41, seedtime: 1400 * 3600, uploaded: 40 * GiB, last_action: NOW - 10_000 }])
    expect(
      await upsertMirror(db(), 'site_snatched', [{ ...older, seedtime: 1500 * 3600, uploaded: 41 * GiB, last_action: NOW }], {
        keepStoredWhen,
      }),
    ).toBe(1)
  })

  it('a row stored with a time past the clock (before that rule) does not shut out later pushes', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    const future = NOW + 5 * 365 * 86_400_000
    const peerRow = ingestSnapshotSchema.parse({ peers: [seeder(51, 10, NOW)] }).peers?.[0]
    await upsertMirror(db(), 'site_peers', [
      { ...(ingestRowSchemas.peers.parse(peerRow) as never as Record<string, unknown>), last_action: future } as never,
    ])
    const outcome = await push({ peers: [seeder(51, 10, NOW - 60_000)] })
    expect(outcome).toMatchObject({ accepted: { peers: 1 }, ignoredOlder: { peers: 0 } })
    expect(num(await mirrorPeers())).toEqual([{ id: 51, uploaded: 10 * GiB, last_action: NOW - 60_000 }])
  })

  it('a snatch whose site time ran past the clock still brings its grown counters (as the NexusPHP sync does)', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    await push({ snatches: [snatch(41, 1000, 10, NOW - HOUR)] })
    // The tracker's clock jumped ahead: its snatched.last_action is now 2 days past ours, while the
    // member seeded 400 hours more and uploaded 30 GiB more. The time is not believed (notes) …
    const later = await push({ snatches: [snatch(41, 1400, 40, NOW + 2 * 86_400_000)] })
    expect(Object.keys(later.notes).length).toBeGreaterThan(0)
    // … but the row is the newer state of snatch 41: its counters only grow, and they grew.
    expect(later.ignoredOlder.snatches).toBe(0)
    expect(await snatchesNow()).toEqual([{ id: 41, seedtime: 1400 * 3600, uploaded: 40 * GiB }])
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
          expect((await olderIds(trx, 'site_snatched', [late], NOW + 86_400_000)).size).toBe(0)
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
            keepStoredWhen: storedIsNewer('site_snatched', '"site_snatched"', 'excluded', NOW + 86_400_000),
          })
        })
      await a
      // A judged against B's row and wrote after it: the re-created row is what stays.
      expect(await snatchesNow()).toEqual([{ id: 77, seedtime: 5 * 3600, uploaded: 1 * GiB }])
    },
  )

  it('a peer re-created under a lower id (ids restarted: MEMORY peers table, tracker restart) is not ignored when the push deletes the old row', async () => {
    await push({ teams: [{ id: 1, name: 'CMCT' }], torrents: [torrentRow] })
    await push({ peers: [seeder(90_000, 10, NOW - 2 * HOUR)] })
    // The tracker restarted: its peers table begins again at id 1; the same client announces again.
    const after = await push({ peers: [seeder(5, 1, NOW - 60_000)], deleted: { peers: [90_000] } })
    const stored = await db().selectFrom('site_peers').select(['id', 'last_action']).execute()
    // Taken: the newer row of that client (it replaced 90,000, which the delete then no longer finds).
    expect({ ignored: after.ignoredOlder.peers, stored: stored.map((r) => Number(r.id)) }).toEqual({ ignored: 0, stored: [5] })
  })
})
