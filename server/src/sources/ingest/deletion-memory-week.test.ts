/**
 * Found by an outside tester (fixed since; the test keeps it so): README「推送接入」says a push's deletions are remembered for a week
 * (「deleted 删掉的 peers、claims 和 torrent_tags 服务端记一周」; deletions.ts: "What a push deleted, kept a week"). The week
 * is enforced only as a clean-up inside rememberDeletions (deletions.ts:53-56), which runs when a LATER push deletes
 * something; the lookup deletedMatches never looked at `deleted_at` (it does now). A tracker that pushes no
 * deletion for a while keeps every older deletion in force for ever: a torrent tag row of that id — for the same torrent
 * and tag, as the site writes it again when an older MySQL restarted and handed out the freed auto-increment id again —
 * was still left out weeks later as a "replay", and the torrent never becomes 官种 again.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW
const DAY = 86_400_000

describe.each(openTestDatabases())('a tag deletion older than a week on $name', (backend) => {
  const { push, clock } = useIngestApp(backend, { officialTags: ['官种'] })

  it('no longer keeps out a row of that id nine days later', async () => {
    clock.set(NOW - 9 * DAY)
    await push({
      teams: [{ id: 1, name: 'FRDS' }],
      tags: [{ id: 1, name: '官种' }],
      torrents: [pushedTorrent(6, NOW - 30 * DAY, { seeders: 3 })],
      torrent_tags: [{ id: 71, torrent_id: 6, tag_id: 1 }],
      peers: [pushedPeer({ id: 61, torrent: 6, userid: 501, started: NOW - 9 * DAY - 3_600_000, lastAction: NOW - 9 * DAY - 60_000 })],
    })
    // The editor removes the tag; the tracker pushes the removal.
    expect((await push({ deleted: { torrent_tags: [71] } })).body.data.deleted.torrent_tags).toBe(1)
    // Nine days on (no other deletion pushed meanwhile), the site tags torrent 6 官种 again: row 71 once more.
    clock.set(NOW)
    const again = await push({ torrent_tags: [{ id: 71, torrent_id: 6, tag_id: 1 }] })
    expect(again.status).toBe(200)
    // A deletion is remembered a week: this row is the site's, written.
    expect([again.body.data.accepted.torrent_tags, again.body.data.ignoredOlder.torrent_tags]).toEqual([1, 0])
  })
})
