/**
 * Found by an outside tester (fixed since; the test keeps it so): a deleted torrent-tag id is remembered with its torrent only, not its tag. When the site
 * writes a NEW row under the same id on the same torrent but for ANOTHER tag (an older MySQL reuses the highest
 * AUTO_INCREMENT ids after a restart; an editor swapped 禁转 for 官种), the row is judged a replay of the removed one and
 * left out for a week: the torrent stays 非官种 although the site tags it 官种. A replay carries the same tag_id;
 * a row with another tag_id cannot be one.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../../test/harness'
import { SeedingWorld } from '../../test/seeding-world'
import { pushedPeer, pushedTorrent } from './testing'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const KEY = 'ingest-key-0123456789abcdef'

describe.each(openTestDatabases())('a tag id reused on the same torrent for another tag on $name', (backend) => {
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
  const seedTypeOf = async (torrentId: number) => {
    const { body } = await t.call<{ list: { username: string; torrentId: number; seedType: number }[] }>('POST', '/user/page-seed', {
      token: admin,
      body: { page: 1, pageSize: 100 },
    })
    return body.data.list.find((r) => r.username === 'alice' && r.torrentId === torrentId)?.seedType
  }

  it('takes the new row of a removed tag id when it names another tag', async () => {
    await push({
      teams: [{ id: 1, name: 'FRDS' }],
      tags: [
        { id: 1, name: '官种' },
        { id: 2, name: '禁转' },
      ],
      torrents: [pushedTorrent(6, NOW - 30 * 86_400_000, { seeders: 3 })],
      torrent_tags: [{ id: 61, torrent_id: 6, tag_id: 2 }],
      peers: [pushedPeer({ id: 61, torrent: 6, userid: 501, started: NOW - 3_600_000, lastAction: NOW - 5 * 60_000 })],
    })
    // The editor removed 禁转 (row 61 deleted) …
    await push({ deleted: { torrent_tags: [61] } })
    await settled()
    expect(await seedTypeOf(6)).toBe(2) // 非官种
    // … the site's database restarted, and the editor tagged the torrent 官种: the new row got id 61 again.
    const added = await push({ torrent_tags: [{ id: 61, torrent_id: 6, tag_id: 1 }] })
    await settled()
    expect(await seedTypeOf(6)).toBe(1) // 官种, as on the site
    expect([added.body.data.accepted.torrent_tags, added.body.data.ignoredOlder.torrent_tags]).toEqual([1, 0])
  })
})
