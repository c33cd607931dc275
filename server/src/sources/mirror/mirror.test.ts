import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { withDeferredIndexes } from '../../db/bulk'
import { derive } from '../../derive'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import { openTestDatabases } from '../../test/harness'
import { useSeedingDb } from '../../test/seeding-db'
import { deleteMirror, insertMirrorFresh, type MirrorRows, nextPassIsFull, upsertMirror } from '.'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

function peer(id: number, userid: number, torrent: number, over: Partial<MirrorRows['site_peers']> = {}): MirrorRows['site_peers'] {
  return {
    id,
    torrent,
    userid,
    peer_id: `${'ab'.repeat(19)}${String(id % 100).padStart(2, '0')}`,
    ip: '10.0.0.1',
    port: 51413,
    uploaded: 0,
    downloaded: 0,
    to_go: 0,
    seeder: 1,
    started: NOW - 60 * MIN,
    last_action: NOW - MIN,
    prev_action: NOW - 31 * MIN,
    connectable: 1,
    agent: 'qBittorrent/5.0.2',
    finishedat: null,
    ...over,
  }
}

function snatch(
  id: number,
  userid: number,
  torrentid: number,
  over: Partial<MirrorRows['site_snatched']> = {},
): MirrorRows['site_snatched'] {
  return {
    id,
    torrentid,
    userid,
    ip: '10.0.0.1',
    port: 51413,
    uploaded: 0,
    downloaded: GIB,
    to_go: 0,
    seedtime: 3600,
    leechtime: 60,
    last_action: NOW - MIN,
    startdat: NOW - 90 * MIN,
    completedat: NOW - 80 * MIN,
    finished: 1,
    ...over,
  }
}

function claim(id: number, uid: number, torrent_id: number): MirrorRows['site_claims'] {
  return {
    id,
    uid,
    torrent_id,
    snatched_id: null,
    seed_time_begin: 0,
    uploaded_begin: 0,
    last_settle_at: null,
    created_at: NOW - MIN,
    updated_at: NOW - MIN,
  }
}

function torrent(id: number, over: Partial<MirrorRows['site_torrents']> = {}): MirrorRows['site_torrents'] {
  return {
    id,
    info_hash: id.toString(16).padStart(40, '0'),
    name: `Torrent ${id}`,
    size: 5 * GIB,
    category: null,
    team: null,
    added: NOW - 86_400_000,
    seeders: 1,
    leechers: 0,
    times_completed: 1,
    owner: 0,
    visible: 1,
    banned: 0,
    ...over,
  }
}

describe.each(openTestDatabases())('mirror writer on $name', (backend) => {
  const t = useSeedingDb(backend)
  const db = () => t.db.database.db

  /** The queue as sorted "user:torrent" keys (user or torrent '-' when null); emptied after reading. */
  async function takeQueue(): Promise<string[]> {
    const rows = await db().selectFrom('derive_queue').select(['user_id', 'torrent_id']).execute()
    await db().deleteFrom('derive_queue').execute()
    return [...new Set(rows.map((r) => `${r.user_id ?? '-'}:${r.torrent_id ?? '-'}`))].sort()
  }

  it("upserts by id, leaves equal rows alone, and queues the members' pairs only", async () => {
    const alice = await t.world.member('alice', 1001)
    await takeQueue()
    expect(await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])).toBe(2)
    expect(await takeQueue()).toEqual(['-:1', '-:2'])

    // 1002 is a site user, not a member: the row lands, nothing is queued for it.
    expect(await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1), peer(11, 1002, 1)])).toBe(2)
    expect(await takeQueue()).toEqual([`${alice}:1`])

    // The same rows again: nothing written, nothing queued.
    expect(await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1), peer(11, 1002, 1)])).toBe(0)
    expect(await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])).toBe(0)
    expect(await takeQueue()).toEqual([])

    // A changed row is updated in place.
    expect(await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1, { last_action: NOW, uploaded: 5 })])).toBe(1)
    const stored = await db().selectFrom('site_peers').selectAll().where('id', '=', 10).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ last_action: NOW, uploaded: 5, peer_id: peer(10, 1001, 1).peer_id, finishedat: null })
    expect(await takeQueue()).toEqual([`${alice}:1`])

    // Snatches and claims by their pair columns.
    await upsertMirror(db(), 'site_snatched', [snatch(20, 1001, 2)])
    await upsertMirror(db(), 'site_claims', [claim(30, 1001, 2)])
    expect(await takeQueue()).toEqual([`${alice}:2`])
  })

  it('a row re-created under a new id for the same unique key replaces the old one', async () => {
    const alice = await t.world.member('alice', 1001)
    await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])
    await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1)])
    await upsertMirror(db(), 'site_snatched', [snatch(20, 1001, 1)])
    await upsertMirror(db(), 'site_claims', [claim(30, 1001, 1)])
    await upsertMirror(db(), 'site_tags', [{ id: 1, name: 'DIY', sort_index: 0 }])
    await upsertMirror(db(), 'site_torrent_tags', [{ id: 40, torrent_id: 1, tag_id: 1 }])
    await takeQueue()

    // Same (torrent, peer_id) / (userid, torrentid) / (uid, torrent_id) / (torrent_id, tag_id), new ids.
    await upsertMirror(db(), 'site_peers', [{ ...peer(10, 1001, 1), id: 110 }])
    await upsertMirror(db(), 'site_snatched', [snatch(120, 1001, 1, { seedtime: 7200 })])
    await upsertMirror(db(), 'site_claims', [claim(130, 1001, 1)])
    await upsertMirror(db(), 'site_torrent_tags', [{ id: 140, torrent_id: 1, tag_id: 1 }])
    expect(await db().selectFrom('site_peers').select('id').execute()).toEqual([{ id: 110 }])
    expect(await db().selectFrom('site_snatched').select(['id', 'seedtime']).execute()).toEqual([{ id: 120, seedtime: 7200 }])
    expect(await db().selectFrom('site_claims').select('id').execute()).toEqual([{ id: 130 }])
    expect(await db().selectFrom('site_torrent_tags').select('id').execute()).toEqual([{ id: 140 }])
    expect(await takeQueue()).toEqual(['-:1', `${alice}:1`])

    // Two rows swapping their keys in one batch, and a repeated id (last wins).
    const a = peer(1, 1001, 2, { peer_id: 'a'.repeat(40) })
    const b = peer(2, 1001, 2, { peer_id: 'b'.repeat(40) })
    await upsertMirror(db(), 'site_peers', [a, b])
    await upsertMirror(db(), 'site_peers', [
      { ...a, peer_id: b.peer_id },
      { ...b, peer_id: a.peer_id },
      { ...b, peer_id: a.peer_id, uploaded: 9 },
    ])
    const swapped = await db()
      .selectFrom('site_peers')
      .select(['id', 'peer_id', 'uploaded'])
      .where('torrent', '=', 2)
      .orderBy('id')
      .execute()
    expect(swapped).toEqual([
      { id: 1, peer_id: b.peer_id, uploaded: 0 },
      { id: 2, peer_id: a.peer_id, uploaded: 9 },
    ])
  })

  it('a row moving to another pair queues both pairs', async () => {
    const alice = await t.world.member('alice', 1001)
    const bob = await t.world.member('bob', 1002)
    await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])
    await upsertMirror(db(), 'site_claims', [claim(30, 1001, 1)])
    await takeQueue()
    await upsertMirror(db(), 'site_claims', [claim(30, 1002, 2)])
    expect(await takeQueue()).toEqual([`${alice}:1`, `${bob}:2`].sort())

    // One batch: a row whose pair stays (written without its key columns) and one that moves back.
    await upsertMirror(db(), 'site_claims', [claim(31, 1001, 2)])
    await takeQueue()
    expect(await upsertMirror(db(), 'site_claims', [{ ...claim(31, 1001, 2), uploaded_begin: 77 }, claim(30, 1001, 1)])).toBe(2)
    const stored = await db().selectFrom('site_claims').select(['id', 'uid', 'torrent_id', 'uploaded_begin']).orderBy('id').execute()
    expect(stored).toEqual([
      { id: 30, uid: 1001, torrent_id: 1, uploaded_begin: 0 },
      { id: 31, uid: 1001, torrent_id: 2, uploaded_begin: 77 },
    ])
    expect(await takeQueue()).toEqual([`${alice}:1`, `${alice}:2`, `${bob}:2`].sort())
  })

  it('deletes by id after queueing what the rows affected', async () => {
    const alice = await t.world.member('alice', 1001)
    await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])
    await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1), peer(11, 1002, 2)])
    await upsertMirror(db(), 'site_claims', [claim(30, 1001, 2)])
    await takeQueue()
    expect(await deleteMirror(db(), 'site_peers', [10, 11, 999])).toBe(2)
    expect(await takeQueue()).toEqual([`${alice}:1`])
    expect(await deleteMirror(db(), 'site_claims', [30])).toBe(1)
    expect(await takeQueue()).toEqual([`${alice}:2`])
    expect(await deleteMirror(db(), 'site_torrents', [2])).toBe(1)
    expect(await takeQueue()).toEqual(['-:2'])
    expect(await db().selectFrom('site_peers').select('id').execute()).toEqual([])
  })

  it('a team or tag rename queues its torrents; other changes of them do not', async () => {
    await upsertMirror(db(), 'site_teams', [
      { id: 1, name: 'CMCT', sort_index: 0 },
      { id: 2, name: 'Other', sort_index: 1 },
    ])
    await upsertMirror(db(), 'site_tags', [{ id: 5, name: '官方', sort_index: 0 }])
    await upsertMirror(db(), 'site_torrents', [torrent(1, { team: 1 }), torrent(2, { team: 2 }), torrent(3)])
    await upsertMirror(db(), 'site_torrent_tags', [{ id: 1, torrent_id: 3, tag_id: 5 }])
    await takeQueue()
    await upsertMirror(db(), 'site_teams', [{ id: 1, name: 'CMCT', sort_index: 7 }])
    expect(await takeQueue()).toEqual([])
    await upsertMirror(db(), 'site_teams', [{ id: 2, name: 'Renamed', sort_index: 1 }])
    expect(await takeQueue()).toEqual(['-:2'])
    await upsertMirror(db(), 'site_tags', [{ id: 5, name: 'Official', sort_index: 0 }])
    expect(await takeQueue()).toEqual(['-:3'])
    await deleteMirror(db(), 'site_teams', [1])
    expect(await takeQueue()).toEqual(['-:1'])
    await deleteMirror(db(), 'site_torrent_tags', [1])
    expect(await takeQueue()).toEqual(['-:3'])
  })

  it('refuses a wrong value by column name, writing nothing of the batch', async () => {
    await upsertMirror(db(), 'site_torrents', [torrent(1)])
    const bad = { ...torrent(2), size: 1.5 } as MirrorRows['site_torrents']
    await expect(upsertMirror(db(), 'site_torrents', [torrent(3), bad])).rejects.toThrow(/site_torrents\.size/)
    const missing = { ...torrent(4), name: null } as unknown as MirrorRows['site_torrents']
    await expect(upsertMirror(db(), 'site_torrents', [missing])).rejects.toThrow(/site_torrents\.name/)
    expect(await db().selectFrom('site_torrents').select('id').execute()).toEqual([{ id: 1 }])
  })

  it("rolls back with the caller's transaction, queue included", async () => {
    await t.world.member('alice', 1001)
    await takeQueue()
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await upsertMirror(trx, 'site_torrents', [torrent(1)])
          await upsertMirror(trx, 'site_peers', [peer(10, 1001, 1)])
          throw new Error('source dropped')
        }),
    ).rejects.toThrow('source dropped')
    expect(await db().selectFrom('site_peers').select('id').execute()).toEqual([])
    expect(await takeQueue()).toEqual([])
  })

  it('what it queues is what the derivation needs (statuses follow the mirror)', async () => {
    await saveRules(db(), { ...defaultRuleBody, officialTeams: ['CMCT'] }, NOW, null)
    const alice = await t.world.member('alice', 1001)
    await upsertMirror(db(), 'site_teams', [{ id: 1, name: 'CMCT', sort_index: 0 }])
    await upsertMirror(db(), 'site_torrents', [torrent(1, { team: 1 }), torrent(2)])
    await upsertMirror(db(), 'site_peers', [peer(10, 1001, 1), peer(11, 1001, 2, { to_go: GIB, seeder: 0 })])
    await upsertMirror(db(), 'site_claims', [claim(30, 1001, 1)])
    await derive(t.db.database, { now: NOW })
    const status = async (torrentId: number) =>
      (
        await db()
          .selectFrom('seed_records')
          .select('status')
          .where('user_id', '=', alice)
          .where('torrent_id', '=', torrentId)
          .executeTakeFirst()
      )?.status
    expect(await status(1)).toBe(SeedStatus.Seeding)
    expect(await status(2)).toBe(SeedStatus.Downloading)

    // The seeder stops (the peer row goes), a snatch remains; the claim is withdrawn on torrent 1.
    await deleteMirror(db(), 'site_peers', [10])
    await upsertMirror(db(), 'site_snatched', [snatch(20, 1001, 1)])
    await upsertMirror(db(), 'site_peers', [peer(11, 1001, 2, { to_go: 0, seeder: 1, last_action: NOW + MIN })])
    await derive(t.db.database, { now: NOW + 2 * MIN })
    expect(await status(1)).toBe(SeedStatus.Stopped)
    expect(await status(2)).toBe(SeedStatus.SeedingUnclaimed)
    const label = await db().selectFrom('torrent_labels').select(['seed_type']).where('torrent_id', '=', 1).executeTakeFirstOrThrow()
    expect(label.seed_type).toBe(1)

    // Renaming the team away from the rules' name makes torrent 1 unofficial on the next pass.
    await upsertMirror(db(), 'site_teams', [{ id: 1, name: 'Gone', sort_index: 0 }])
    await derive(t.db.database, { now: NOW + 3 * MIN })
    const relabeled = await db().selectFrom('torrent_labels').select(['seed_type']).where('torrent_id', '=', 1).executeTakeFirstOrThrow()
    expect(relabeled.seed_type).toBe(2)
    expect(Number((await sql<{ n: number }>`select count(*) as n from derive_queue`.execute(db())).rows[0].n)).toBe(0)
  })

  it("two members announcing one peer_id on one torrent are two peers (NexusPHP's key since 2023-04), by the upsert and the bulk path", async () => {
    const alice = await t.world.member('alice', 1001)
    const bob = await t.world.member('bob', 1002)
    await upsertMirror(db(), 'site_torrents', [torrent(1), torrent(2)])
    const shared = 'c'.repeat(40)
    const peers = (minutesAgo: number) => [
      peer(10, 1001, 1, { peer_id: shared, last_action: NOW - minutesAgo * MIN }),
      peer(11, 1002, 1, { peer_id: shared, last_action: NOW - minutesAgo * MIN }),
    ]
    for (let round = 1; round <= 3; round++) {
      await upsertMirror(db(), 'site_peers', peers(round))
      await derive(t.db.database, { now: NOW })
      const stored = await db().selectFrom('site_peers').select(['id', 'userid']).where('torrent', '=', 1).orderBy('id').execute()
      expect(stored).toEqual([
        { id: 10, userid: 1001 },
        { id: 11, userid: 1002 },
      ])
      const statuses = await db()
        .selectFrom('seed_records')
        .select(['user_id', 'status'])
        .where('torrent_id', '=', 1)
        .orderBy('user_id')
        .execute()
      expect(statuses).toEqual([
        { user_id: alice, status: SeedStatus.SeedingUnclaimed },
        { user_id: bob, status: SeedStatus.SeedingUnclaimed },
      ])
    }
    // The bulk path (first import, backfill) keeps both too, and still replaces a re-created one.
    const database = t.db.database
    await db()
      .transaction()
      .execute((trx) =>
        insertMirrorFresh(
          database,
          trx,
          'site_peers',
          [
            peer(20, 1001, 2, { peer_id: shared }),
            peer(21, 1002, 2, { peer_id: shared }),
            peer(22, 1002, 2, { peer_id: shared, uploaded: 5 }),
          ],
          'full pass',
        ),
      )
    const bulk = await db().selectFrom('site_peers').select(['id', 'userid', 'uploaded']).where('torrent', '=', 2).orderBy('id').execute()
    expect(bulk).toEqual([
      { id: 20, userid: 1001, uploaded: 0 },
      { id: 22, userid: 1002, uploaded: 5 },
    ])
  })

  it('the bulk path for fresh rows: replaces by id and by unique key like the upsert, and queues whole members or nothing', async () => {
    const alice = await t.world.member('alice', 1001)
    await takeQueue()
    const database = t.db.database
    // Never derived: the next pass is full.
    expect(await nextPassIsFull(db(), 1)).toBe(true)
    await db()
      .transaction()
      .execute(async (trx) => {
        expect(
          await insertMirrorFresh(
            database,
            trx,
            'site_snatched',
            [snatch(1, 1001, 1), snatch(2, 1001, 2), snatch(3, 1002, 1)],
            'full pass',
          ),
        ).toBe(3)
      })
    expect(await takeQueue()).toEqual([])
    // Row 2 again with new counters (same id), and the pair (1001, 1) re-created under id 4.
    await db()
      .transaction()
      .execute(async (trx) => {
        await insertMirrorFresh(
          database,
          trx,
          'site_snatched',
          [snatch(2, 1001, 2, { uploaded: GIB }), snatch(4, 1001, 1, { uploaded: 2 * GIB })],
          { siteUids: [1001] },
        )
      })
    const rows = await db().selectFrom('site_snatched').select(['id', 'userid', 'torrentid', 'uploaded']).orderBy('id').execute()
    expect(rows).toEqual([
      { id: 2, userid: 1001, torrentid: 2, uploaded: GIB },
      { id: 3, userid: 1002, torrentid: 1, uploaded: 0 },
      { id: 4, userid: 1001, torrentid: 1, uploaded: 2 * GIB },
    ])
    expect(await takeQueue()).toEqual([`${alice}:-`])
    // One batch that meets a row twice (an id, a key under two ids): the last one wins, as row after row.
    await db()
      .transaction()
      .execute(async (trx) => {
        await insertMirrorFresh(
          database,
          trx,
          'site_snatched',
          [
            snatch(3, 1002, 1, { uploaded: 1 }),
            snatch(3, 1002, 1, { uploaded: 3 }),
            snatch(6, 1001, 2),
            snatch(7, 1001, 2, { uploaded: 7 }),
          ],
          'full pass',
        )
      })
    const again = await db().selectFrom('site_snatched').select(['id', 'uploaded']).orderBy('id').execute()
    expect(again).toEqual([
      { id: 3, uploaded: 3 },
      { id: 4, uploaded: 2 * GIB },
      { id: 7, uploaded: 7 },
    ])
    // During a bulk load that dropped the key: both rows land, and the newest of the key stays when it is rebuilt.
    await withDeferredIndexes(database, ['site_snatched'], [], () =>
      db()
        .transaction()
        .execute(async (trx) => {
          await insertMirrorFresh(database, trx, 'site_snatched', [snatch(8, 1003, 9), snatch(9, 1003, 9, { uploaded: 9 })], 'full pass', {
            keyDeferred: true,
          })
        }),
    )
    expect(await db().selectFrom('site_snatched').select(['id', 'uploaded']).where('userid', '=', 1003).execute()).toEqual([
      { id: 9, uploaded: 9 },
    ])
    // Bad rows are refused like the upsert's.
    await expect(
      db()
        .transaction()
        .execute((trx) => insertMirrorFresh(database, trx, 'site_snatched', [snatch(5, 1001, 3, { uploaded: 1.5 })], 'full pass')),
    ).rejects.toThrow(/integer/)
  })
})
