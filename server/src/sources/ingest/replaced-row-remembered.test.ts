/**
 * Found by an outside tester (fixed since; the test keeps it so): a row the server itself removed because the site re-created it under another id (the
 * natural-key replacement in mirror/upsert.ts: a re-claim replacing the old claim, a renumbered peer replacing the old
 * peer row — "though its delete never reached us", as routes/ingest-replay.test.ts has it) is not remembered as
 * deleted. Once the new row is then deleted by a push (un-claim, client stopped), a retry or late push of the OLD row
 * finds neither a deletion nor a newer row of its key, and is written back: the un-claim / the stop is undone.
 *
 * README「推送接入」: 「比已保存的同一行旧的 … claims（… 或同一用户和种子已有 created_at 更晚的另一条认领，即重新认领）不会覆盖它」 and
 * 「之后到达的重试或迟到的推送里再出现这些行 … 不会写回 … ——取消的认领、停止的客户端 … 不会重新出现」. Each rule holds on its own
 * (ingest-replay.test.ts tests them one at a time); in sequence the old row came back. A replaced row is now remembered
 * as deleted (mirror/upsert.ts onReplaced → deletions.ts), as a pushed delete is.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { hexId, pushedClaim, pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW
const MIN = 60_000
const DAY = 86_400_000

describe.each(openTestDatabases())('a row replaced by its re-created successor, then deleted, on $name', (backend) => {
  const { t, push, settled, recordOf } = useIngestApp(backend)
  const statusOf = async (torrentId: number) => (await recordOf(torrentId))?.status
  const torrent = (id: number) => pushedTorrent(id, NOW - 30 * DAY, { seeders: 3 })

  it('an old claim pushed late does not come back after the re-claim that replaced it was un-claimed', async () => {
    const claim = (id: number, createdAt: number) => pushedClaim({ id, uid: 501, torrent: 5, createdAt })
    const batchA = {
      teams: [{ id: 1, name: 'FRDS' }],
      torrents: [torrent(5)],
      peers: [pushedPeer({ id: 51, torrent: 5, userid: 501, started: NOW - 2 * DAY, lastAction: NOW - 30 * MIN })],
      claims: [claim(501, NOW - 30 * DAY)],
    }
    await push(batchA)
    // alice un-claimed and claimed again (the push with the delete of 501 was lost): the site's claim is 502.
    await push({ claims: [claim(502, NOW - 3 * 60 * MIN)] })
    // Then she un-claimed torrent 5 for good.
    expect((await push({ deleted: { claims: [502] } })).body.data.deleted.claims).toBe(1)
    await settled()
    expect(await statusOf(5)).toBe(4) // 做种中（未认领）
    // The first push, retried / delivered late.
    const late = await push(batchA)
    await settled()
    const claims = await t.db.database.db.selectFrom('site_claims').select('id').where('torrent_id', '=', 5).execute()
    // Still unclaimed, claim 501 left out (it was written back: 3 做种中, claimed and paid).
    expect({ status: await statusOf(5), claims: claims.map((r) => Number(r.id)), ignored: late.body.data.ignoredOlder.claims }).toEqual({
      status: 4,
      claims: [],
      ignored: 1,
    })
  })

  it('a stopped client does not come back through the late push of its row before the tracker renumbered it', async () => {
    const peer = (id: number, lastAction: number) =>
      pushedPeer({ id, torrent: 7, userid: 501, peerId: hexId(777), started: NOW - 2 * 60 * MIN, lastAction })
    const batchA = { torrents: [torrent(7)], peers: [peer(90_001, NOW - 20 * MIN)] }
    await push(batchA)
    // The tracker restarted (MEMORY peers table): the same client's row is now id 3; the old id was never deleted by a push.
    await push({ peers: [peer(3, NOW - 10 * MIN)] })
    // The client stopped: the tracker deleted peer 3.
    await push({ deleted: { peers: [3] } })
    await settled()
    expect(await statusOf(7)).toBeUndefined()
    // The first push, retried / delivered late.
    const late = await push(batchA)
    await settled()
    // No record (stopped): the row of before the renumbering stays out (it came back: 4 做种中（未认领）).
    expect({ status: await statusOf(7), taken: late.body.data.accepted.peers }).toEqual({ status: undefined, taken: 0 })
  })
})
