/**
 * Found by an outside tester (fixed since; the test keeps it so): a tag removal that reaches the server BEFORE the push that added the tag (two pushes
 * out of order, or the adding push retried after a client timeout) does not stop the tag. The deletion of an id the
 * mirror never held is remembered with stamp = now (a time), and a torrent tag is judged a replay when the pushed
 * torrent_id equals the stamp — it never does, so the removed tag is written and the torrent counts as 官种 again.
 * Peers and claims in the same order are left out (their time ≤ now); tags are not.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { pushedClaim, pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW

describe.each(openTestDatabases())('torrent tag removed before its add arrives on $name', (backend) => {
  const { push, settled, recordOf } = useIngestApp(backend, { officialTags: ['官种'] })
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
