import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { localDay } from '../domain/local-day'
import { bootstrapDemo } from '../sources/demo'
import type { DemoScale } from '../sources/demo/scale'
import { countersAt, snapshotDays } from '../snapshots/read'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { pendingWageEstimates } from '../wages/estimates'
import { diskFullMessage, StorageTrouble } from '../http/storage-trouble'
import { SyncRunner } from './sync'
import { HEARTBEAT_MS, STALE_AFTER_MS } from '../db/lease'

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
    const { rows } = await sql<{
      uploaded: number
      seedtime: number
    }>`select sum(uploaded) as uploaded, sum(seedtime) as seedtime from site_snatched`.execute(t.db.database.db)
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

    // Another machine's process renews its lease (heartbeat): no sync here until it stops renewing.
    const { db } = t.db.database
    await db
      .updateTable('sync_state')
      .set({ lock_owner: 'another-process', lock_expires_at: clock() + STALE_AFTER_MS })
      .execute()
    expect(await t.app.services.sync.runOnce(NOW + 30 * MIN)).toEqual({ ran: false, reason: 'running' })
    // Its heartbeat is older than STALE_AFTER_MS: it died, the next sync takes the lease over.
    clock.advance(STALE_AFTER_MS + 1)
    expect((await t.app.services.sync.runOnce(NOW + 31 * MIN)).ran).toBe(true)
  })

  it('takes over at once the lease of a process of this machine that is gone (SIGKILL), heartbeat or not', async () => {
    const { db } = t.db.database
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const pid = Number(dead.stdout)
    const owner = ['lease1', hostname(), readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), pid, 'sync', 'abc'].join('|')
    await db
      .updateTable('sync_state')
      .set({ lock_owner: owner, lock_expires_at: clock() + STALE_AFTER_MS })
      .execute()
    const token = await t.login('admin', 'Admin-pass-1')
    expect((await t.call<{ running: boolean }>('GET', '/sync/status', { token })).body.data.running).toBe(false)
    expect((await t.app.services.sync.runOnce(NOW + 32 * MIN)).ran).toBe(true)
    // A live holder on this machine (this very test process, say) keeps it.
    await db
      .updateTable('sync_state')
      .set({ lock_owner: owner.replace(`|${pid}|`, `|${process.ppid}|`), lock_expires_at: clock() + STALE_AFTER_MS })
      .execute()
    expect(await t.app.services.sync.runOnce(NOW + 33 * MIN)).toEqual({ ran: false, reason: 'running' })
    await db.updateTable('sync_state').set({ lock_owner: null, lock_expires_at: null }).execute()
  })

  it('renews its lease while it runs (a long sync is not taken over)', async () => {
    const { db } = t.db.database
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    const runner = new SyncRunner({
      database: t.db.database,
      source: { kind: 'demo', sync: async () => (entered(), await gate, {}) },
      wages: pendingWageEstimates,
      clock,
    })
    const run = runner.runOnce(NOW + 34 * MIN)
    await inside
    const before = await db.selectFrom('sync_state').select('lock_expires_at').executeTakeFirstOrThrow()
    clock.advance(STALE_AFTER_MS - 1)
    // Wait for the next heartbeat (state, not time): the expiry moves with the clock.
    await vi.waitFor(
      async () => {
        const now = await db.selectFrom('sync_state').select('lock_expires_at').executeTakeFirstOrThrow()
        expect(Number(now.lock_expires_at)).toBe(Number(before.lock_expires_at) + STALE_AFTER_MS - 1)
      },
      { timeout: 3 * HEARTBEAT_MS },
    )
    clock.advance(2)
    expect(await t.app.services.sync.runOnce(NOW + 35 * MIN)).toEqual({ ran: false, reason: 'running' })
    release()
    expect((await run).ran).toBe(true)
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

  it('a sync that fails on a full disk records the reason in Chinese and /health hears of it', async () => {
    const storage = new StorageTrouble()
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
    const runner = new SyncRunner({
      database: t.db.database,
      source: { kind: 'demo', sync: async () => Promise.reject(full) },
      wages: pendingWageEstimates,
      clock,
      storage,
    })
    await expect(runner.runOnce(NOW + 3 * 24 * 3600_000)).rejects.toThrow('database or disk is full')
    const state = await t.db.database.db.selectFrom('sync_state').selectAll().executeTakeFirstOrThrow()
    expect(state).toMatchObject({ lock_owner: null, last_error: diskFullMessage })
    expect(storage.recentFull(clock())).not.toBeNull()
  })
})
