/**
 * A preview read on two connections (this thread and a helper thread, every other id range each) is
 * the preview read on one — also when a commit lands between the two snapshots' starts: then both
 * start again, and after SNAPSHOT_TRIES such commits the ranges are read on one connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { AppDatabase } from '../db/database'
import { openSqliteReader } from '../db/database'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { previewInProcess } from './engine'
import { workerFile } from './offload'
import { inSnapshotWithHelper, SNAPSHOT_TRIES } from './parallel-scan'
import { RECORD_ID_RANGE } from './reader'
import { DEMO_NOW, DEMO_PERIOD, openDemoMonth } from './testing/demo-month'

/** ~60,000 records: three id ranges, two read here and one by the helper. */
const SCALE = { members: 60, extraAdmins: 1, siteUsers: 1_000, torrents: 5_000, recordsPerMember: 1_000, historyDays: 60 }
const sqlite = openTestDatabases().find((backend) => backend.name === 'sqlite')!

describe('wage scan with a helper thread (sqlite)', () => {
  let opened: TestDatabase
  let database: AppDatabase

  beforeAll(async () => {
    opened = await openDemoMonth(sqlite, SCALE)
    database = opened.database
  }, 120_000)
  afterAll(async () => {
    await opened?.cleanup()
  })

  /** A preview on a read-only connection, split with a helper; `scanned`: whether the helper read its half. */
  async function splitPreview(userId?: number, afterOwnSnapshot?: () => void) {
    const target = (await workerFile(database.db))!
    const reader = openSqliteReader(target.file)
    try {
      let helped = false
      const answer = await inSnapshotWithHelper(
        reader,
        target,
        DEMO_PERIOD,
        (trx, scan) => {
          helped = scan !== undefined
          return previewInProcess(trx, DEMO_PERIOD, DEMO_NOW, userId, scan)
        },
        afterOwnSnapshot,
      )
      return { answer, helped }
    } finally {
      await reader.destroy()
    }
  }

  /** Moves every record's counters after the month (its end snapshot, in both halves of the ranges): changes what members earn. */
  const moveEndCounters = () =>
    database
      .sqlite!.prepare(
        `update counter_snapshots set uploaded = uploaded + ${2 ** 36}, seed_time_sec = seed_time_sec + 360000 where day >= 20260301`,
      )
      .run()

  it('reads the same list and the same items of a member as one connection', async () => {
    const { rows } = await sql<{ n: number }>`select max(id) as n from seed_records`.execute(database.db)
    expect(Number(rows[0]!.n)).toBeGreaterThan(2 * RECORD_ID_RANGE)
    const split = await splitPreview()
    expect(split.helped).toBe(true)
    expect(split.answer).toEqual(await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW))
    const member = split.answer.list.find((m) => m.amount > 0)!
    const one = await splitPreview(member.userId)
    expect(one.answer).toEqual(await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW, member.userId))
    expect(one.answer.list[0]!.items!.length).toBeGreaterThan(0)
  })

  it('a commit between the two snapshots: both start again and read that commit', async () => {
    const before = await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW)
    let attempts = 0
    const split = await splitPreview(undefined, () => {
      if (++attempts === 1) moveEndCounters()
    })
    expect(attempts).toBe(2)
    expect(split.helped).toBe(true)
    const after = await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW)
    expect(after).not.toEqual(before)
    expect(split.answer).toEqual(after)
  })

  it('a commit at every try: after SNAPSHOT_TRIES the ranges are read on one connection, from one commit', async () => {
    let attempts = 0
    const split = await splitPreview(undefined, () => {
      attempts++
      moveEndCounters()
    })
    expect(attempts).toBe(SNAPSHOT_TRIES)
    expect(split.helped).toBe(false)
    expect(split.answer).toEqual(await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW))
  })
})
