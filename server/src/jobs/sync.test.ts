import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { localDay } from '../domain/local-day'
import { bootstrapDemo } from '../sources/demo'
import type { DemoScale } from '../sources/demo/scale'
import { countersAt, snapshotDays } from '../snapshots/read'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { pendingWageEstimates } from '../wages/estimates'
import { SyncRunner } from './sync'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)
const MIN = 60_000
const tiny: DemoScale = { members: 10, extraAdmins: 2, siteUsers: 100, torrents: 300, recordsPerMember: 30, historyDays: 20 }

describe.each(openTestDatabases())('sync job on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock })

  beforeAll(async () => {
    await bootstrapDemo(t.db.database, { size: tiny, now: NOW, memberPasswordHash: 'x', adminPasswordHashes: ['a', 'b'] })
  })

  const totals = async () => {
    const { rows } = await sql<{ uploaded: number; seedtime: number }>`select sum(uploaded) as uploaded, sum(seedtime) as seedtime from site_snatched`.execute(t.db.database.db)
    return { uploaded: Number(rows[0].uploaded), seedtime: Number(rows[0].seedtime) }
  }

  it('advances the demo, derives incrementally, keeps the day’s figures and refreshes the statistics', async () => {
    const before = await totals()
    const result = await t.app.services.sync.runOnce(NOW + 10 * MIN)
    if (!result.ran) throw new Error('did not run')
    expect(result.rows.site_snatched).toBeGreaterThan(0)
    expect(result.derive.full).toBe(false)
    expect(result.derive.judged).toBeGreaterThan(0)
    expect(result.snapshot.written).toBe(false) // same day as the bootstrap's snapshot
    const after = await totals()
    expect(after.uploaded).toBeGreaterThan(before.uploaded)
    expect(after.seedtime).toBeGreaterThan(before.seedtime)

    const { db } = t.db.database
    const state = await db.selectFrom('sync_state').selectAll().executeTakeFirstOrThrow()
    expect(state).toMatchObject({ lock_owner: null, last_started_at: NOW + 10 * MIN, last_error: null, derived_at: NOW + 10 * MIN })
    // The end is the start plus what the sync took.
    expect(state.last_finished_at).toBe(NOW + 10 * MIN + result.ms)
    const cache = await db.selectFrom('stats_cache').select('computed_at').executeTakeFirstOrThrow()
    expect(cache.computed_at).toBe(NOW + 10 * MIN)
    // The records agree with the mirror after the incremental pass: a full pass changes nothing.
    const { derive } = await import('../derive')
    const full = await derive(t.db.database, { now: NOW + 10 * MIN, full: true })
    expect(full.changed).toBe(0)
  })

  it('runs one at a time: in this process and across processes (lease row)', async () => {
    const first = t.app.services.sync.runOnce(NOW + 20 * MIN)
    const second = await t.app.services.sync.runOnce(NOW + 20 * MIN)
    expect(second).toEqual({ ran: false, reason: 'running' })
    expect((await first).ran).toBe(true)

    const { db } = t.db.database
    await db.updateTable('sync_state').set({ lock_owner: 'another-process', lock_expires_at: NOW + 60 * MIN }).execute()
    expect(await t.app.services.sync.runOnce(NOW + 30 * MIN)).toEqual({ ran: false, reason: 'running' })
    // A lease that expired belonged to a process that died: the next sync takes it over.
    expect((await t.app.services.sync.runOnce(NOW + 61 * MIN)).ran).toBe(true)
  })

  it('takes the next day’s snapshot at the first sync of that day, once', async () => {
    const { db } = t.db.database
    const nextDay = NOW + 24 * 3600_000
    const result = await t.app.services.sync.runOnce(nextDay)
    if (!result.ran) throw new Error('did not run')
    expect(result.snapshot).toMatchObject({ day: localDay(nextDay, 'Asia/Shanghai'), written: true })
    const records = await db.selectFrom('seed_records').select(['id', 'seed_time_sec']).orderBy('id').execute()
    const again = await t.app.services.sync.runOnce(nextDay + 10 * MIN)
    if (!again.ran) throw new Error('did not run')
    expect(again.snapshot.written).toBe(false)
    expect((await snapshotDays(db)).at(-1)).toBe(20260311)

    // The snapshot holds every record's counters as of that sync.
    const rows = []
    for await (const page of countersAt(db, 20260311, 50)) rows.push(...page)
    expect(rows.map((r) => [r.recordId, r.seedTimeSec])).toEqual(records.map((r) => [r.id, Number(r.seed_time_sec)]))
  })

  it('records a failure and releases the lease', async () => {
    const runner = new SyncRunner({
      database: t.db.database,
      source: { kind: 'demo', sync: async () => Promise.reject(new Error('source unreachable')) },
      wages: pendingWageEstimates,
      clock,
    })
    await expect(runner.runOnce(NOW + 2 * 24 * 3600_000)).rejects.toThrow('source unreachable')
    const state = await t.db.database.db.selectFrom('sync_state').selectAll().executeTakeFirstOrThrow()
    expect(state).toMatchObject({ lock_owner: null, last_error: 'source unreachable' })
  })
})
