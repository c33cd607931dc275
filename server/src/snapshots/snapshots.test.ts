import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { countersAt, countersOf, snapshotDayOnOrAfter, snapshotDayOnOrBefore, snapshotDays } from './read'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { pruneSnapshots, takeDailySnapshot } from './write'
import { recordBaselines } from './baselines'
import { queueMembers } from '../derive/queue'

describe.each(openTestDatabases())('counter snapshots on $name', (backend) => {
  const t = useSeedingDb(backend)

  async function seed(days: number[], records = 3) {
    const rows = days.flatMap((day) =>
      Array.from({ length: records }, (_, i) => ({ day, record_id: i + 1, seed_time_sec: day % 1000, uploaded: i })),
    )
    await t.db.database.db.insertInto('counter_snapshots').values(rows).execute()
  }

  it('keep the first snapshot of every month forever and every other day for the rolling window', async () => {
    // Server down on March 1st: March's first snapshot is the 2nd, and it is kept like a month start.
    await seed([20260115, 20260201, 20260210, 20260228, 20260302, 20260303, 20260320, 20260325, 20260326, 20260327, 20260401])
    const pruned = await pruneSnapshots(t.db.database.db, 20260401)
    expect(pruned).toEqual([20260210, 20260228, 20260303, 20260320])
    expect(await snapshotDays(t.db.database.db)).toEqual([20260115, 20260201, 20260302, 20260325, 20260326, 20260327, 20260401])
  })

  it('find period boundaries and stream counters in record order', async () => {
    await seed([20260201, 20260302], 25)
    const { db } = t.db.database
    expect(await snapshotDayOnOrAfter(db, 20260301)).toBe(20260302)
    expect(await snapshotDayOnOrBefore(db, 20260301)).toBe(20260201)
    expect(await snapshotDayOnOrAfter(db, 20260303)).toBeNull()
    const pages = []
    for await (const page of countersAt(db, 20260302, 10)) pages.push(page.length)
    expect(pages).toEqual([10, 10, 5])
    const some = await countersOf(db, 20260201, [3, 7])
    expect([...some.values()]).toEqual([
      { recordId: 3, seedTimeSec: 201, uploaded: 2 },
      { recordId: 7, seedTimeSec: 201, uploaded: 6 },
    ])
  })

  it("a sync with no records yet (a new install's first, before members are added) leaves the day to the next sync", async () => {
    const { database } = t.db
    const w = t.world
    const now = Date.UTC(2026, 2, 11, 2, 0)
    expect(await takeDailySnapshot(database, { now, timeZone: 'Asia/Shanghai' })).toMatchObject({ written: false })
    expect(await snapshotDays(database.db)).not.toContain(20260311)
    // Members added and synced later that day: the day's snapshot is theirs, and the month can be computed.
    await w.member('bob', 1002)
    await w.torrent(3, { size: 5 * GIB })
    await w.snatch(1002, 3, { finished: true, seedtime: 10 * 3600, uploaded: 0 })
    await derive(database, { now: now + 3600_000 })
    expect(await takeDailySnapshot(database, { now: now + 3600_000, timeZone: 'Asia/Shanghai' })).toMatchObject({ written: true })
    expect(await snapshotDays(database.db)).toContain(20260311)
  })

  it("keep the torrents' seeders on a month's first snapshot only, for torrents with seed records, pruned with their day", async () => {
    const { database } = t.db
    const { db } = database
    const w = t.world
    const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)
    const seeders = async () =>
      (await db.selectFrom('torrent_seeder_snapshots').selectAll().orderBy('day').orderBy('torrent_id').execute()).map((r) => [
        r.day,
        Number(r.torrent_id),
        Number(r.seeders),
      ])
    const sync = async (wall: string) => {
      await derive(database, { now: local(wall) })
      return takeDailySnapshot(database, { now: local(wall), timeZone: 'Asia/Shanghai' })
    }
    await w.member('alice', 1001)
    await w.torrent(1, { size: 5 * GIB, seeders: 3 })
    await w.torrent(2, { size: 5 * GIB, seeders: 9 }) // nobody of the team has it: no seed record
    await w.snatch(1001, 1, { finished: true, seedtime: 10 * 3600 })
    expect((await sync('2026-03-01 00:20')).written).toBe(true)
    await w.updateTorrent(1, { seeders: 4 })
    expect((await sync('2026-03-02 00:20')).written).toBe(true)
    await w.updateTorrent(1, { seeders: 5 })
    expect((await sync('2026-04-01 00:20')).written).toBe(true)
    expect(await seeders()).toEqual([
      [20260301, 1, 3],
      [20260401, 1, 5],
    ])
    // Seeders of a day that is not its month's first (written here by hand) go as its counters went (on April 1st).
    await db.insertInto('torrent_seeder_snapshots').values({ day: 20260302, torrent_id: 1, seeders: 4 }).execute()
    await db.insertInto('torrent_seeder_snapshots').values({ day: 20260415, torrent_id: 1, seeders: 4 }).execute()
    expect(await pruneSnapshots(db, 20260420)).toEqual([])
    expect(await seeders()).toEqual([
      [20260301, 1, 3],
      [20260401, 1, 5],
      [20260415, 1, 4],
    ])
    expect(await pruneSnapshots(db, 20260501)).toEqual([])
    expect(await seeders()).toEqual([
      [20260301, 1, 3],
      [20260401, 1, 5],
    ])
  })

  it("keep the claimed and assigned records and the torrents as they were on a month's first snapshot only", async () => {
    const { database } = t.db
    const { db } = database
    const w = t.world
    const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)
    const sync = async (wall: string) => {
      await derive(database, { now: local(wall) })
      return takeDailySnapshot(database, { now: local(wall), timeZone: 'Asia/Shanghai' })
    }
    const alice = await w.member('alice', 1001)
    await w.team(1, 'CedarHD')
    await w.torrent(1, { team: 1, size: 5 * GIB, seeders: 3 })
    await w.torrent(2, { team: 1, size: 7 * GIB, seeders: 1 })
    await w.snatch(1001, 1, { finished: true, seedtime: 10 * 3600 })
    await w.snatch(1001, 2, { finished: true, seedtime: 10 * 3600 }) // seeded, never claimed: no tie
    await w.claim(1001, 1, local('2026-02-10 12:00'))
    expect((await sync('2026-03-01 00:20')).written).toBe(true)
    await db.deleteFrom('site_claims').execute()
    await w.updateTorrent(1, { seeders: 8 })
    expect((await sync('2026-03-02 00:20')).written).toBe(true)
    const ties = await db.selectFrom('month_end_ties').selectAll().execute()
    expect(ties.map((r) => [r.day, Number(r.user_id), Number(r.torrent_id), Number(r.claimed_at), Number(r.assigned_at)])).toEqual([
      [20260301, alice, 1, local('2026-02-10 12:00'), 0],
    ])
    const kept = await db.selectFrom('torrent_seeder_snapshots').selectAll().where('torrent_id', '=', 1).execute()
    expect(kept.map((r) => [r.day, r.name !== null, Number(r.size), Number(r.seeders)])).toEqual([[20260301, true, 5 * GIB, 3]])
    // A day that is not its month's first (written here by hand) goes as its counters went.
    await db
      .insertInto('month_end_ties')
      .values({ ...ties[0]!, day: 20260302 })
      .execute()
    await pruneSnapshots(db, 20260501)
    expect((await db.selectFrom('month_end_ties').select('day').execute()).map((r) => r.day)).toEqual([20260301])
  })

  it('every sync notes the records it created and the assignments it saw, not only the first of the day', async () => {
    const { database } = t.db
    const w = t.world
    const now = Date.UTC(2026, 2, 10, 2, 0)
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { size: 5 * GIB })
    await w.snatch(1001, 1, { finished: true, seedtime: 100 * 3600, uploaded: GIB })
    await derive(database, { now })
    expect((await takeDailySnapshot(database, { now, timeZone: 'Asia/Shanghai' })).written).toBe(true)
    // Later the same day: a new record (the snapshot is not taken again) and an assignment.
    await w.torrent(2, { size: 5 * GIB })
    await w.snatch(1001, 2, { finished: true, seedtime: 7 * 3600, uploaded: 0 })
    await w.assign(alice, 1, now + 3600_000)
    await derive(database, { now: now + 2 * 3600_000 })
    expect((await takeDailySnapshot(database, { now: now + 2 * 3600_000, timeZone: 'Asia/Shanghai' })).written).toBe(false)
    const second = (await w.record(alice, 2))!
    const first = await sql<{
      seen_at: number
      seed_time_sec: number
    }>`select seen_at, seed_time_sec from record_first_counters where record_id = ${second.id}`.execute(database.db)
    expect(first.rows.map((r) => [Number(r.seen_at), Number(r.seed_time_sec)])).toEqual([[now + 2 * 3600_000, 7 * 3600]])
    const assigned = (await w.record(alice, 1))!
    const atAssignment = await sql<{
      assigned_at: number
      seed_time_sec: number
    }>`select assigned_at, seed_time_sec from assignment_counters where record_id = ${assigned.id}`.execute(database.db)
    expect(atAssignment.rows.map((r) => [Number(r.assigned_at), Number(r.seed_time_sec)])).toEqual([[now + 3600_000, 100 * 3600]])
  })

  it("notes a member's records once they count the new 站点 UID: not while the member's derivation is still queued", async () => {
    const { database } = t.db
    const { db } = database
    const w = t.world
    const now = Date.UTC(2026, 2, 10, 2, 0)
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { size: 5 * GIB })
    await w.snatch(1001, 1, { finished: true, seedtime: 100 * 3600 })
    await w.snatch(1002, 1, { finished: true, seedtime: 5000 * 3600 })
    await derive(database, { now })
    await takeDailySnapshot(database, { now, timeZone: 'Asia/Shanghai' })
    // The UID corrected (as users/member-accounts.ts does it): the member queued, the change noted.
    await db.updateTable('users').set({ site_uid: 1002 }).where('id', '=', alice).execute()
    await queueMembers(db, [alice])
    await db
      .insertInto('site_uid_changes')
      .values({ user_id: alice, changed_at: now + 60_000 })
      .execute()
    const rebases = async () =>
      (await db.selectFrom('record_rebases').selectAll().execute()).map((r) => [Number(r.rebased_at), Number(r.seed_time_sec)])
    await recordBaselines(db, now + 120_000) // a sync's baselines before the member was derived again
    expect(await rebases()).toEqual([])
    await derive(database, { now: now + 180_000 })
    await recordBaselines(db, now + 180_000)
    expect(await rebases()).toEqual([[now + 60_000, 5000 * 3600]])
    expect(await db.selectFrom('site_uid_changes').selectAll().execute()).toEqual([])
  })
})
