/**
 * Found by an outside tester (fixed since; the test keeps it so): a tag removal that reaches the server BEFORE the push that added the tag (two pushes
 * out of order, or the adding push retried after a client timeout) does not stop the tag. The deletion of an id the
 * mirror never held is remembered with stamp = now (a time), and a torrent tag is judged a replay when the pushed
 * torrent_id equals the stamp — it never does, so the removed tag is written and the torrent counts as 官种 again.
 * Peers and claims in the same order are left out (their time ≤ now); tags are not.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../../test/harness'
import { SeedingWorld } from '../../test/seeding-world'
import { pushedClaim, pushedPeer, pushedTorrent } from './testing'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const KEY = 'ingest-key-0123456789abcdef'

describe.each(openTestDatabases())('torrent tag removed before its add arrives on $name', (backend) => {
  const clock = testClock(NOW)
  const config = loadConfig({ DATA_DIR: '/tmp/seeding-test-unused', SOURCE: 'ingest', INGEST_KEYS: KEY })
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock, config })
  let admin = ''

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    await w.member('alice', 501)
    await saveRules(t.db.database.db, { ...defaultRuleBody, officialTags: ['官种'] }, NOW - 86_400_000, null)
    admin = await t.login('admin', 'Admin-pass-1')
  })

  const push = (body: unknown) =>
    t.call<{ accepted: Record<string, number>; ignoredOlder: Record<string, number>; deleted: Record<string, number> }>(
      'POST',
      '/ingest/snapshot',
      { body, headers: { 'X-Ingest-Key': KEY } },
    )
  async function settled(): Promise<void> {
    for (let i = 0; i < 200 && t.app.services.sync.busy; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    await t.app.services.sync.runOnce(NOW)
  }
  const recordOf = async (torrentId: number) => {
    const { body } = await t.call<{ list: { username: string; torrentId: number; status: number; seedType: number }[] }>(
      'POST',
      '/user/page-seed',
      { token: admin, body: { page: 1, pageSize: 100 } },
    )
    return body.data.list.find((r) => r.username === 'alice' && r.torrentId === torrentId)
  }

  it('a tag whose removal arrived first is not written by the late push that added it', async () => {
    // The torrent and alice's seeding are known from an earlier push; the torrent is not official (no tag).
    await push({
      teams: [{ id: 1, name: 'FRDS' }],
      tags: [{ id: 1, name: '官种' }],
      torrents: [pushedTorrent(6, NOW - 30 * 86_400_000, { seeders: 3 })],
      peers: [pushedPeer({ id: 61, torrent: 6, userid: 501, started: NOW - 3_600_000, lastAction: NOW - 5 * 60_000 })],
    })
    await settled()
    expect((await recordOf(6))?.seedType).toBe(2) // 非官种

    // 10:00 the site tagged torrent 6 官种 (row 71); 10:05 an editor removed it again. The 10:00 push timed out
    // on the pusher's side and is retried; the 10:05 push (with the removal) reaches the server first.
    const removal = await push({ deleted: { torrent_tags: [71] } })
    expect(removal.status).toBe(200)
    const late = await push({ torrent_tags: [{ id: 71, torrent_id: 6, tag_id: 1 }] })
    expect(late.status).toBe(200)
    await settled()
    expect((await recordOf(6))?.seedType).toBe(2) // still 非官种: the site has no tag on torrent 6
    // As for a late peer or claim of a deleted id: left out and counted, not written.
    expect([late.body.data.accepted.torrent_tags, late.body.data.ignoredOlder.torrent_tags]).toEqual([0, 1])
  })

  it('(control) a claim whose un-claim arrived first is left out, as the contract says', async () => {
    await push({ deleted: { claims: [81] } })
    const late = await push({ claims: [pushedClaim({ id: 81, uid: 501, torrent: 6, createdAt: NOW - 10 * 60_000 })] })
    expect([late.body.data.accepted.claims, late.body.data.ignoredOlder.claims]).toEqual([0, 1])
  })
})
