/**
 * Found by an outside tester (fixed since; the test keeps it so): a deletion is remembered with the time of the row the MIRROR held when the delete
 * arrived, not the time of the deletion. A push that timed out before the delete (so the mirror never saw its newer
 * state) and is retried after the delete carries a later last_action / updated_at than the mirror's copy, so it is
 * taken as "the site's later row of that id": the stopped client seeds again, the un-claimed torrent is claimed again.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { pushedClaim, pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW
const MIN = 60_000

describe.each(openTestDatabases())('a retried push older than the delete but newer than the mirror on $name', (backend) => {
  const { push, settled, recordOf } = useIngestApp(backend)
  const statusOf = async (torrentId: number) => (await recordOf(torrentId))?.status
  const torrent = (id: number) => pushedTorrent(id, NOW - 30 * 86_400_000, { seeders: 3 })
  const peer = (id: number, torrentId: number, lastAction: number) =>
    pushedPeer({ id, torrent: torrentId, userid: 501, started: NOW - 120 * MIN, lastAction })

  it('an un-claim is not undone by a retried push of the settlement made before it', async () => {
    const claim = (updatedAt: number) => pushedClaim({ id: 31, uid: 501, torrent: 1, createdAt: NOW - 30 * 86_400_000, updatedAt })
    // 09:50 push: alice seeds torrent 1 and has claimed it.
    await push({
      teams: [{ id: 1, name: 'FRDS' }],
      torrents: [torrent(1)],
      peers: [peer(11, 1, NOW - 15 * MIN)],
      claims: [claim(NOW - 86_400_000)],
    })
    // 09:55 push: the site settled the claim (updated_at 09:54) — the request times out on the pusher's side
    // before the server got it; the pusher queues a retry.
    const settledBatch = { peers: [peer(11, 1, NOW - 6 * MIN)], claims: [claim(NOW - 6 * MIN)] }
    // 10:00 push: alice un-claimed torrent 1 at 09:58.
    expect((await push({ peers: [peer(11, 1, NOW - 1 * MIN)], deleted: { claims: [31] } })).body.data.deleted.claims).toBe(1)
    await settled()
    expect(await statusOf(1)).toBe(4) // 做种中（未认领）
    // The retry of the 09:55 push arrives now.
    const retry = await push(settledBatch)
    expect(retry.status).toBe(200)
    await settled()
    expect(await statusOf(1)).toBe(4) // still 做种中（未认领）: she gave the torrent up at 09:58
    expect(retry.body.data.ignoredOlder.claims).toBe(1)
  })

  it('a stopped client is not brought back by a retried push of an announce made before it stopped', async () => {
    // 09:50 push: alice's client on torrent 2 (last announce 09:45).
    await push({ torrents: [torrent(2)], peers: [peer(21, 2, NOW - 15 * MIN)] })
    // 09:55 push (announce at 09:54) times out before the server got it.
    const lost = { peers: [peer(21, 2, NOW - 6 * MIN)] }
    // 10:00 push: the client stopped at 09:58, the tracker deleted peer 21.
    await push({ deleted: { peers: [21] } })
    await settled()
    expect(await statusOf(2)).toBeUndefined()
    const retry = await push(lost)
    await settled()
    expect(await statusOf(2)).toBeUndefined() // not 4 做种中（未认领）: the client is stopped
    expect([retry.body.data.accepted.peers, retry.body.data.ignoredOlder.peers]).toEqual([0, 1])
  })
})
