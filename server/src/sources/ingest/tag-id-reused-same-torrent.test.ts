/**
 * Found by an outside tester (fixed since; the test keeps it so): a deleted torrent-tag id is remembered with its torrent only, not its tag. When the site
 * writes a NEW row under the same id on the same torrent but for ANOTHER tag (an older MySQL reuses the highest
 * AUTO_INCREMENT ids after a restart; an editor swapped 禁转 for 官种), the row is judged a replay of the removed one and
 * left out for a week: the torrent stays 非官种 although the site tags it 官种. A replay carries the same tag_id;
 * a row with another tag_id cannot be one.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW

describe.each(openTestDatabases())('a tag id reused on the same torrent for another tag on $name', (backend) => {
  const { push, settled, recordOf } = useIngestApp(backend, { officialTags: ['官种'] })
  const seedTypeOf = async (torrentId: number) => (await recordOf(torrentId))?.seedType

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
