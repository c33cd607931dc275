/**
 * Migration 0014 on a server that already has records and snapshots: a record created after the
 * month's first snapshot gets the earliest later snapshot as its first observation, one not in any
 * snapshot its counters now; records of the month-start snapshot need none (the highest id is noted,
 * the watermark of later syncs).
 */
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { migrationsFor } from '../db/migrations'
import { openTestDatabases, type TestDatabase } from '../test/harness'

describe.each(openTestDatabases())('migration 0014 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  it('gives records created during the running month their first observation', async () => {
    opened = await backend.open()
    const { db } = opened.database
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(backend.name) } })
    expect((await migrator.migrateTo('0013_site_peers_user_key')).error).toBeUndefined()
    const record = (id: number, seedTime: number) =>
      sql`insert into seed_records (id, user_id, torrent_id, status, seed_type, claim_state, assigned, seeding, size, uploaded, downloaded,
          seed_time_sec, last_action, assigned_at, claimed_at, derived_at)
        values (${id}, 1, ${id}, 1, 1, 2, 2, 1, 1000, ${seedTime * 10}, 0, ${seedTime}, 0, 0, 0, 0)`.execute(db)
    const snapshot = (day: number, id: number, seedTime: number) =>
      sql`insert into counter_snapshots (day, record_id, seed_time_sec, uploaded) values (${day}, ${id}, ${seedTime}, ${seedTime * 10})`.execute(
        db,
      )
    for (const [id, now] of [
      [1, 900],
      [2, 800],
      [3, 500],
      [4, 70],
    ] as const)
      await record(id, now)
    // February's and March's first snapshots have records 1 and 2; record 3 appeared on the 4th; record 4 today.
    for (const day of [20260201, 20260301])
      for (const [id, then] of [
        [1, 100],
        [2, 200],
      ] as const)
        await snapshot(day, id, then)
    for (const [id, then] of [
      [1, 300],
      [2, 300],
      [3, 40],
    ] as const)
      await snapshot(20260304, id, then)
    await snapshot(20260305, 3, 45)

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const { rows } = await sql<{ record_id: number; seed_time_sec: number; uploaded: number }>`select record_id, seed_time_sec, uploaded
      from record_first_counters order by record_id`.execute(db)
    expect(rows.map((r) => [Number(r.record_id), Number(r.seed_time_sec), Number(r.uploaded)])).toEqual([
      [3, 40, 400],
      [4, 70, 700],
    ])
    const partial = await sql<{ n: number }>`select count(*) as n from wage_records where partial <> 0`.execute(db)
    expect(Number(partial.rows[0]!.n)).toBe(0)
  })
})
