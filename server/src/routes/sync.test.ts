/**
 * /sync: the status (source, running, progress, last runs, rows, error) and "sync now".
 * A run goes to the background and the answer comes at once; progress shows while it runs; a
 * failing source leaves the previous data and shows its error; a running sync (here or in another
 * process) is not started twice. The tests swap the app's runner for one over a source they steer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SyncStatus } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { SyncRunner } from '../jobs/sync'
import type { Source, SourceSyncContext } from '../sources/source'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { parseRows } from '../jobs/sync-status'

const ADMIN_PASSWORD = 'Admin-pass-1'
const PASSWORD = 'Member-pass-1'
const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)
const MIN = 60_000

/** A source whose sync waits until the test lets it finish (or fail). */
function steeredSource(kind: Source['kind'] = 'nexusphp') {
  let release: (outcome: Record<string, number> | Error) => void = () => {}
  let started: (ctx: SourceSyncContext) => void = () => {}
  const startedOnce = new Promise<SourceSyncContext>((resolve) => (started = resolve))
  const source: Source & { calls: number } = {
    kind,
    calls: 0,
    async sync(ctx) {
      source.calls += 1
      ctx.progress({ table: 'site_torrents', read: 0, total: 3 })
      started(ctx)
      const outcome = await new Promise<Record<string, number> | Error>((resolve) => (release = resolve))
      if (outcome instanceof Error) throw outcome
      return outcome
    },
  }
  return { source, started: startedOnce, finish: (outcome: Record<string, number> | Error) => release(outcome) }
}

describe('parseRows', () => {
  it('reads the stored JSON and drops what is not a row count', () => {
    expect(parseRows('{"site_torrents":3,"site_peers":0}')).toEqual({ site_torrents: 3, site_peers: 0 })
    expect(parseRows('{"a":-1,"b":"x","c":1.5,"d":"7"}')).toEqual({ d: 7 })
    expect(parseRows('not json')).toEqual({})
    expect(parseRows('[1,2]')).toEqual({})
    expect(parseRows(null)).toEqual({})
  })
})

describe.each(openTestDatabases())('/sync on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const tokens = { admin: '', member: '' }
  let original: SyncRunner
  let runner: SyncRunner | null = null

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    await w.member('alice', 1001, { passwordHash: await hashPassword(PASSWORD, testScrypt) })
    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.member = await t.login('alice', PASSWORD)
    original = t.app.services.sync
  })
  afterEach(async () => {
    await runner?.stop()
    runner = null
    t.app.services.sync = original
    await t.db.database.db.updateTable('sync_state').set({ lock_owner: null, lock_expires_at: null }).where('id', '=', 1).execute()
  })
  afterAll(() => {
    t.app.services.sync = original
  })

  /** Handlers read `services.sync`: the routes now talk to a runner over `source`. */
  function useSource(source: Source): SyncRunner {
    runner = new SyncRunner({ database: t.db.database, source, wages: t.app.services.wages, clock })
    t.app.services.sync = runner
    return runner
  }
  const status = async () => {
    const res = await t.call<SyncStatus>('GET', '/sync/status', { token: tokens.admin })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data
  }
  const run = async () => {
    const res = await t.call<SyncStatus>('POST', '/sync/run', { token: tokens.admin })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data
  }
  const runLogs = () => t.db.database.db.selectFrom('operation_log').selectAll().where('action', '=', 'sync.run').orderBy('id').execute()

  it('is for admins only', async () => {
    for (const [method, path] of [
      ['GET', '/sync/status'],
      ['POST', '/sync/run'],
    ] as const) {
      expect((await t.call(method, path)).status).toBe(401)
      const res = await t.call(method, path, { token: tokens.member })
      expect(res.status).toBe(403)
      expect(res.body.msg).toBeTruthy()
    }
    expect(await runLogs()).toEqual([])
  })

  it('says what the configured source is and that nothing has run yet', async () => {
    expect(await status()).toEqual({
      source: 'demo',
      running: false,
      progress: null,
      lastStartedAt: null,
      lastFinishedAt: null,
      lastError: null,
      rows: {},
    })
  })

  it('starts a sync in the background, shows its progress, does not start a second one, and shows the result', async () => {
    const steer = steeredSource()
    useSource(steer.source)
    clock.set(NOW)
    const answered = await run() // answers while the source is still "reading"
    expect(answered).toMatchObject({ source: 'nexusphp', running: true, lastFinishedAt: null })
    const ctx = await steer.started
    expect(await status()).toMatchObject({
      running: true,
      progress: { table: 'site_torrents', read: 0, total: 3 },
      lastStartedAt: new Date(NOW).toISOString(),
    })
    ctx.progress({ table: 'site_peers', read: 250, total: null })
    expect((await status()).progress).toEqual({ table: 'site_peers', read: 250, total: null })

    // Asked again while it runs: the status, nothing started, nothing logged twice.
    expect(await run()).toMatchObject({ running: true, progress: { table: 'site_peers', read: 250, total: null } })
    expect(steer.source.calls).toBe(1)
    const logs = await runLogs()
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      operator_name: 'admin',
      target_type: 'sync',
      detail: '立即同步（数据源：NexusPHP 数据库）',
      ip: '127.0.0.1',
    })
    expect(Number(logs[0].at)).toBe(NOW)

    steer.finish({ site_torrents: 3, site_peers: 250 })
    await vi.waitFor(async () => expect((await status()).running).toBe(false), { timeout: 10_000, interval: 20 })
    expect(await status()).toEqual({
      source: 'nexusphp',
      running: false,
      progress: null,
      lastStartedAt: new Date(NOW).toISOString(),
      lastFinishedAt: expect.any(String),
      lastError: null,
      rows: { site_torrents: 3, site_peers: 250 },
    })
    // The end is the start plus what the sync took (the test clock stands still).
    const finished = Date.parse((await status()).lastFinishedAt!)
    expect(finished).toBeGreaterThanOrEqual(NOW)
    expect(finished).toBeLessThan(NOW + MIN)
  })

  it('shows the error of a failed sync and keeps the previous run’s figures; the API keeps serving', async () => {
    const previousEnd = (await status()).lastFinishedAt
    const steer = steeredSource()
    useSource(steer.source)
    clock.set(NOW + 10 * MIN)
    await run()
    await steer.started
    steer.finish(new Error('无法连接 NexusPHP 数据库：Access denied for user "seed"'))
    await vi.waitFor(async () => expect((await status()).running).toBe(false), { timeout: 10_000, interval: 20 })
    expect(await status()).toEqual({
      source: 'nexusphp',
      running: false,
      progress: null,
      lastStartedAt: new Date(NOW + 10 * MIN).toISOString(),
      lastFinishedAt: previousEnd, // the previous, successful run
      lastError: '无法连接 NexusPHP 数据库：Access denied for user "seed"',
      rows: { site_torrents: 3, site_peers: 250 },
    })
    expect((await t.call('GET', '/health')).status).toBe(200)

    // The next good run clears the error.
    const next = steeredSource()
    useSource(next.source)
    clock.set(NOW + 20 * MIN)
    await run()
    await next.started
    next.finish({ site_torrents: 1 })
    await vi.waitFor(async () => expect((await status()).running).toBe(false), { timeout: 10_000, interval: 20 })
    const after = await status()
    expect(after).toMatchObject({ lastError: null, lastStartedAt: new Date(NOW + 20 * MIN).toISOString(), rows: { site_torrents: 1 } })
    expect(Date.parse(after.lastFinishedAt!)).toBeGreaterThanOrEqual(NOW + 20 * MIN)
  })

  it('reads a new member from the site at once: tying a site uid starts a sync (NexusPHP), not on the demo', async () => {
    const steer = steeredSource('nexusphp')
    useSource(steer.source)
    clock.set(NOW + 30 * MIN)
    const created = await t.call<{ id: number }>('POST', '/user/create', {
      token: tokens.admin,
      body: { username: 'newbie', password: 'Member-pass-9', siteUid: 4242 },
    })
    expect(created.status, created.body.msg).toBe(200)
    await steer.started
    expect(steer.source.calls).toBe(1)
    steer.finish({ site_snatched: 12 })
    await vi.waitFor(async () => expect((await status()).running).toBe(false), { timeout: 10_000, interval: 20 })
    // A remark alone ties nothing: no sync.
    const edited = await t.call('POST', '/user/update', { token: tokens.admin, body: { id: created.body.data.id, remark: '新人' } })
    expect(edited.status).toBe(200)
    expect(steer.source.calls).toBe(1)

    const demo = steeredSource('demo')
    useSource(demo.source)
    const other = await t.call('POST', '/user/create', {
      token: tokens.admin,
      body: { username: 'newbie2', password: 'Member-pass-9', siteUid: 4243 },
    })
    expect(other.status).toBe(200)
    expect(demo.source.calls).toBe(0)
  })

  it('shows a source that cannot even tell its time as failed', async () => {
    const source: Source = {
      kind: 'nexusphp',
      clock: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:3306')
      },
      sync: async () => ({}),
    }
    useSource(source)
    await run() // may already have failed by the time it answers
    await vi.waitFor(
      async () => expect(await status()).toMatchObject({ running: false, lastError: 'connect ECONNREFUSED 127.0.0.1:3306' }),
      {
        timeout: 10_000,
        interval: 20,
      },
    )
  })

  it('sees a sync of another process by its lease, and does not start one beside it', async () => {
    const steer = steeredSource()
    useSource(steer.source)
    clock.set(NOW + 30 * MIN)
    const { db } = t.db.database
    await db
      .updateTable('sync_state')
      .set({ lock_owner: 'another-process', lock_expires_at: NOW + 40 * MIN })
      .where('id', '=', 1)
      .execute()
    expect(await status()).toMatchObject({ running: true, progress: null })
    const before = (await runLogs()).length
    expect(await run()).toMatchObject({ running: true })
    expect(steer.source.calls).toBe(0)
    expect(await runLogs()).toHaveLength(before)

    // A lease past its time belonged to a process that died.
    clock.set(NOW + 41 * MIN)
    expect((await status()).running).toBe(false)
  })
})
