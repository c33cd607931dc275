/**
 * A PostgreSQL preview read on two connections (every other id range each) is the preview read on
 * one, and both halves read the job's snapshot: a commit after it began is seen by neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { AppDatabase } from '../db/database'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { previewInProcess } from './engine'
import { postgresParallelScan } from './pg-parallel-scan'
import { RECORD_ID_RANGE } from './reader'
import { DEMO_NOW, DEMO_PERIOD, openDemoMonth } from './testing/demo-month'

/** ~60,000 records: three id ranges, two read by the job's connection and one by the second. */
const SCALE = { members: 60, extraAdmins: 1, siteUsers: 1_000, torrents: 5_000, recordsPerMember: 1_000, historyDays: 60 }
const postgres = openTestDatabases().find((backend) => backend.name === 'postgres')

describe.skipIf(!postgres)('wage scan on two connections (postgres)', () => {
  let opened: TestDatabase
  let database: AppDatabase

  beforeAll(async () => {
    opened = await openDemoMonth(postgres!, SCALE)
    database = opened.database
  }, 180_000)
  afterAll(async () => {
    await opened?.cleanup()
  })

  /** A preview on one connection: inside a caller's transaction, runWages reads its ranges there alone. */
  const onOneConnection = (userId?: number) =>
    database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => previewInProcess(trx, DEMO_PERIOD, DEMO_NOW, userId))

  /** Moves the counters after the month (the end snapshot of records in every id range): changes what members earn. */
  const moveEndCounters = (by: 1 | -1) =>
    sql`update counter_snapshots set uploaded = uploaded + ${by * 2 ** 36}, seed_time_sec = seed_time_sec + ${by * 360_000}
      where day >= 20260301`.execute(database.db)

  it('reads the same list and the same items of a member as one connection', async () => {
    const { rows } = await sql<{ n: number }>`select max(id) as n from seed_records`.execute(database.db)
    expect(Number(rows[0]!.n)).toBeGreaterThan(2 * RECORD_ID_RANGE)
    const split = await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW)
    expect(split).toEqual(await onOneConnection())
    const member = split.list.find((m) => m.amount > 0)!
    const one = await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW, member.userId)
    expect(one).toEqual(await onOneConnection(member.userId))
    expect(one.list[0]!.items!.length).toBeGreaterThan(0)
  })

  it('more previews at once than the pool has connections: each answers', async () => {
    // Each run holds a connection for its snapshot and asks for a second: unbounded, ten runs holding
    // the pool's ten would each wait for an eleventh until the pool's timeout failed them all.
    const alone = await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW)
    const together = await Promise.all(Array.from({ length: 12 }, () => previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW)))
    for (const answer of together) expect(answer).toEqual(alone)
  })

  it("a commit after the job's snapshot began is seen by neither half", async () => {
    const before = await onOneConnection()
    const split = await database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (job) => {
        await sql`select 1 from sync_state`.execute(job) // the job's snapshot begins here
        await moveEndCounters(1) // committed on another connection
        return previewInProcess(job, DEMO_PERIOD, DEMO_NOW, undefined, postgresParallelScan(database.db, job))
      })
    try {
      expect(split).toEqual(before)
      expect(await onOneConnection()).not.toEqual(before)
    } finally {
      await moveEndCounters(-1)
    }
  })
})
