/**
 * Found by an outside tester (fixed since; the test keeps it so): 立即同步 clicked several times at once (a double
 * click, two admins) started one sync but wrote a 「立即同步」 row per click: every request read "not running" before
 * any of them started it. docs/api.md `sync.run`: "While one runs … nothing new starts and the status is the answer".
 * (Two server processes clicked within the same instant still both log: the lease is taken after the answer.)
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SyncStatus } from '@shared/entities'
import { SyncRunner } from '../jobs/sync'
import type { Source } from '../sources/source'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
/** Polled until it holds: a sync's end (its derivation) takes seconds on a busy 2-core machine, not vi.waitFor's 1 s. */
const SETTLE = { timeout: 60_000, interval: 20 }
const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)

describe.each(openTestDatabases())('sync.run double click on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let admin = ''
  let original: SyncRunner
  let runner: SyncRunner | null = null
  let release: () => void = () => {}

  beforeAll(async () => {
    admin = await t.login('admin', ADMIN_PASSWORD)
    original = t.app.services.sync
  })
  afterAll(async () => {
    release()
    await runner?.stop()
    t.app.services.sync = original
  })

  it('立即同步 sent several times at once start one sync and log one 立即同步', async () => {
    const source: Source & { calls: number } = {
      kind: 'nexusphp',
      calls: 0,
      async sync(ctx) {
        source.calls += 1
        ctx.progress({ table: 'site_torrents', read: 0, total: 1 })
        await new Promise<void>((resolve) => (release = resolve))
        return { site_torrents: 1 }
      },
    }
    runner = new SyncRunner({ database: t.db.database, source, wages: t.app.services.wages, clock })
    t.app.services.sync = runner
    const runLogs = async () =>
      (await t.db.database.db.selectFrom('operation_log').select('id').where('action', '=', 'sync.run').execute()).length

    // Five rounds; in each, a double click from each of two admins' windows, then the sync is let finish.
    for (let round = 1; round <= 5; round++) {
      const answers = await Promise.all([1, 2, 3, 4].map(() => t.call<SyncStatus>('POST', '/sync/run', { token: admin })))
      for (const res of answers) expect(res.status, res.body.msg).toBe(200)
      await vi.waitFor(() => expect(source.calls).toBe(round), SETTLE)
      // One sync started this round: the operation log should say 立即同步 once per sync that started.
      expect(await runLogs(), `round ${round}: 立即同步 rows for ${source.calls} syncs started`).toBe(source.calls)
      release()
      await vi.waitFor(async () => {
        const res = await t.call<SyncStatus>('GET', '/sync/status', { token: admin })
        expect(res.body.data.running).toBe(false)
      }, SETTLE)
    }
  })
})
