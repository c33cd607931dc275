/**
 * A month's end snapshot (its next month's first snapshot day, which the wages read) keeps the torrents' seeders even
 * when the sync that took it did not get to them: the 1st's counters copied (a sync cut, or a version before 0.3.4),
 * the next snapshot on the 2nd gives the 1st its seeders — once, so the closed month's N no longer moves with the day
 * it is computed. A sync cut while copying the 1st's seeders leaves no counters for the 1st: the 2nd is the month end.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import type { AppDatabase } from '../db/database'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { snapshotDayOnOrAfter } from './read'
import { copyRecordCounters, takeDailySnapshot } from './write'

describe.each(openTestDatabases())('seeders of a month end whose sync was cut, on $name', (backend) => {
  const t = useSeedingDb(backend)
  /** alice with a snatch of torrent 1 (3 seeders). */
  async function aliceSeedsTorrent1() {
    const { database } = t.db
    await t.world.member('alice', 1001)
    await t.world.torrent(1, { size: 5 * GIB, seeders: 3 })
    await t.world.snatch(1001, 1, { finished: true, seedtime: 10 * 3600 })
    return { database, db: database.db, w: t.world }
  }
  const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)
  const snapshot = (database: AppDatabase, wall: string) => takeDailySnapshot(database, { now: local(wall), timeZone: 'Asia/Shanghai' })

  it("the 1st's sync cut after its counters, the next on the 2nd: the month end (the 1st) still has its seeders", async () => {
    const { database, db, w } = await aliceSeedsTorrent1()
    await derive(database, { now: local('2026-03-15 00:20') })
    expect((await snapshot(database, '2026-03-15 00:20')).written).toBe(true)

    // April 1st, 00:20: the sync copies the counters and is killed before the seeders (and before marking the day).
    await derive(database, { now: local('2026-04-01 00:20') })
    await copyRecordCounters(db, 20260401)
    // Next sync: the 2nd (the site was unreachable for the rest of the 1st); seeders have changed since.
    await w.updateTorrent(1, { seeders: 7 })
    await derive(database, { now: local('2026-04-02 00:20') })
    expect((await snapshot(database, '2026-04-02 00:20')).written).toBe(true)

    // March's end snapshot, as wages/reader.ts reads it:
    const endDay = await snapshotDayOnOrAfter(db, 20260401)
    expect(endDay).toBe(20260401)
    const kept = () => db.selectFrom('torrent_seeder_snapshots').select(['torrent_id', 'seeders']).where('day', '=', endDay!).execute()
    expect(await kept()).toEqual([{ torrent_id: 1, seeders: 7 }])
    // Once: later days leave them as they are.
    await w.updateTorrent(1, { seeders: 9 })
    await derive(database, { now: local('2026-04-03 00:20') })
    expect((await snapshot(database, '2026-04-03 00:20')).written).toBe(true)
    expect(await kept()).toEqual([{ torrent_id: 1, seeders: 7 }])
  })

  it("a sync cut while copying the 1st's seeders leaves the 1st without counters: the next day's snapshot is the month end, with its seeders", async () => {
    const { database, db, w } = await aliceSeedsTorrent1()
    await derive(database, { now: local('2026-04-01 00:20') })
    await db.insertInto('torrent_seeder_snapshots').values({ day: 20260401, torrent_id: 1, seeders: 3 }).execute() // the cut copy
    await w.updateTorrent(1, { seeders: 5 })
    await derive(database, { now: local('2026-04-02 00:20') })
    expect((await snapshot(database, '2026-04-02 00:20')).written).toBe(true)
    expect(await snapshotDayOnOrAfter(db, 20260401)).toBe(20260402)
    const seeders = await db.selectFrom('torrent_seeder_snapshots').select(['day', 'seeders']).where('day', '=', 20260402).execute()
    expect(seeders).toEqual([{ day: 20260402, seeders: 5 }])
  })
})
