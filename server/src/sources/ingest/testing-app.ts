/**
 * The server as a tracker pushing to /ingest/snapshot sees it (SOURCE=ingest, one ingest key), for the push scenario
 * tests: alice is the member of site uid 501; `push` sends a snapshot, `settled` lets the derivation catch up, and
 * `recordOf` is alice's record of a torrent as the admin's 我的任务 view lists it (status, seed type).
 */
import { beforeAll } from 'vitest'
import { loadConfig } from '../../config'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { testClock, useTestApp, type TestBackend } from '../../test/harness'
import { SeedingWorld } from '../../test/seeding-world'

/** The scenarios' clock: 2026-11-20 04:00 UTC. */
export const INGEST_NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const KEY = 'ingest-key-0123456789abcdef'
const ADMIN_PASSWORD = 'Admin-pass-1'

interface PushAnswer {
  accepted: Record<string, number>
  ignoredOlder: Record<string, number>
  deleted: Record<string, number>
  rejected: { entity: string; index: number; id: number | null; reason: string }[]
  rejectedTotal: number
}

export function useIngestApp(backend: TestBackend, options: { officialTags?: string[] } = {}) {
  const clock = testClock(INGEST_NOW)
  const config = loadConfig({ DATA_DIR: '/tmp/seeding-test-unused', SOURCE: 'ingest', INGEST_KEYS: KEY })
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock, config })
  let admin = ''

  beforeAll(async () => {
    await new SeedingWorld(t.db.database.db).member('alice', 501)
    if (options.officialTags)
      await saveRules(t.db.database.db, { ...defaultRuleBody, officialTags: options.officialTags }, INGEST_NOW - 86_400_000, null)
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  const push = (body: unknown) => t.call<PushAnswer>('POST', '/ingest/snapshot', { body, headers: { 'X-Ingest-Key': KEY } })
  /** Until a sync of its own has run after the pushes: the runs they requested first (waited for, never timed). */
  async function settled(): Promise<void> {
    do await t.app.services.sync.whenIdle()
    while (!(await t.app.services.sync.runOnce(INGEST_NOW)).ran)
  }
  const recordOf = async (torrentId: number) => {
    const { body } = await t.call<{ list: { username: string; torrentId: number; status: number; seedType: number }[] }>(
      'POST',
      '/user/page-seed',
      { token: admin, body: { page: 1, pageSize: 100 } },
    )
    return body.data.list.find((r) => r.username === 'alice' && r.torrentId === torrentId)
  }
  return { t, clock, push, settled, recordOf }
}
