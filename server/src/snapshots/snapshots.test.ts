import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { countersAt, countersOf, snapshotDayOnOrAfter, snapshotDayOnOrBefore, snapshotDays } from './read'
import { pruneSnapshots } from './write'

describe.each(openTestDatabases())('counter snapshots on $name', (backend) => {
  const t = useSeedingDb(backend)

  async function seed(days: number[], records = 3) {
    const rows = days.flatMap((day) => Array.from({ length: records }, (_, i) => ({ day, record_id: i + 1, seed_time_sec: day % 1000, uploaded: i })))
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
})
