/**
 * The month's export ranks as 工资排行 and the members' messages do (periodRank): equal amounts share a rank — two
 * members paid the same are 2nd and 2nd in the file the admin hands on, and the many at 0 share the last rank.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { wagesCsv } from './export'
import { exportRows, periodRank } from './queries'
import { wageDb } from './tables'

const PERIOD = '2026-01'
const NOW = Date.UTC(2026, 1, 2)

describe.each(openTestDatabases().slice(0, 1))('the export ranks as 工资排行 does ($name)', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  it('gives tied members the rank 工资排行 and their messages give them', async () => {
    const w = new SeedingWorld(db.database.db)
    const amounts: Record<string, number> = { alice: 300, bob: 200, carol: 200, dave: 0, erin: 0 }
    let uid = 2001
    for (const [name, amount] of Object.entries(amounts)) {
      const userId = await w.member(name, uid++)
      await wageDb(db.database.db)
        .insertInto('wage_records')
        .values({
          user_id: userId,
          period: PERIOD,
          amount,
          torrent_count: amount > 0 ? 1 : 0,
          total_size: 0,
          seed_hours: 0,
          sum_value: 0,
          below_minimum: 0,
          paid_at: null,
          paid_by_id: null,
          paid_by_name: null,
          computed_at: NOW,
          rule_version: 1,
        })
        .execute()
    }
    const screen = new Map((await periodRank(db.database.db, PERIOD)).map((r) => [r.username, r.rank]))
    expect(Object.fromEntries(screen)).toEqual({ alice: 1, bob: 2, carol: 2, dave: 4, erin: 4 })

    const csv = wagesCsv(await exportRows(db.database.db, PERIOD), 'Asia/Shanghai')
      .toString('utf8')
      .replace(/^\uFEFF/, '')
    const file = Object.fromEntries(
      csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => {
          const [rank, name] = line.split(',')
          return [JSON.parse(name!) as string, Number(rank)]
        }),
    )
    expect(file).toEqual(Object.fromEntries(screen))
  })
})
