/**
 * `deleted` ids are checked one by one, as rows are (README「推送接入」: 每一行单独检查). Found by an outside tester (fixed
 * since; the test keeps it so): one malformed id in `deleted` refused the whole push with 400 — its good rows and its other
 * deletes with it, so an exporter whose batch carried one bad id lost the client stops and un-claims of that batch too.
 */
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../../test/harness'
import { pushedPeer, pushedTorrent } from './testing'
import { INGEST_NOW, useIngestApp } from './testing-app'

const NOW = INGEST_NOW
const MIN = 60_000
const DAY = 86_400_000

describe.each(openTestDatabases())('ids of `deleted` checked one by one on $name', (backend) => {
  const { t, push } = useIngestApp(backend)

  it('a malformed id is rejected on its own; the push’s rows and its well-formed deletes land', async () => {
    const peer = (id: number, torrent: number) => pushedPeer({ id, torrent, userid: 501, started: NOW - DAY, lastAction: NOW - 10 * MIN })
    expect(
      (await push({ torrents: [pushedTorrent(1, NOW - 30 * DAY), pushedTorrent(2, NOW - 30 * DAY)], peers: [peer(11, 1)] })).status,
    ).toBe(200)

    const answer = await push({ peers: [peer(12, 2)], deleted: { peers: [11, 'x', -3, 1.5] } })
    expect(answer.status, answer.body.msg).toBe(200)
    expect(answer.body.data.deleted.peers).toBe(1)
    expect(answer.body.data.rejectedTotal).toBe(3)
    expect(answer.body.data.rejected.map((r) => [r.entity, r.index])).toEqual([
      ['deleted.peers', 1],
      ['deleted.peers', 2],
      ['deleted.peers', 3],
    ])
    const peers = await t.db.database.db.selectFrom('site_peers').select('id').orderBy('id').execute()
    expect(peers.map((p) => Number(p.id))).toEqual([12])
  })

  it('`deleted` that is not an object of arrays, or names an unknown entity, is still refused as a whole', async () => {
    expect((await push({ deleted: { peers: 11 } })).status).toBe(400)
    expect((await push({ deleted: { snatches: [1] } })).status).toBe(400)
  })
})
