/**
 * Found by an outside tester (fixed since; the test keeps it so): a push of torrents whose sizes the ingest accepts (each ≤ its 1 PiB cap, MAX_COUNTER = 2^50) stops the
 * whole console once their sizes add up past 2^63 — about 8,200 such torrents, well inside one push (50,000 rows)
 * and far inside the scale domain.md §6 promises (1,000,000 torrents).
 *
 * What a tracker (or a buggy exporter that sends sizes in the wrong unit / saturated) sees: HTTP 200, every row
 * accepted, no rejection, no note. What everyone then sees: the derivation fails on every sync
 * (/sync/status lastError「integer overflow」on SQLite, 「bigint out of range」on PostgreSQL), so no seed record
 * is derived any more — not even for an ordinary 8 GiB torrent pushed afterwards — and on SQLite the dashboard
 * (GET /statistics/all-seeding-sta, a member call) and 刷新统计 answer 500.
 *
 * Contract: domain.md §5 — bad rows are rejected with a per-row reason, good rows still land; api.md — 500 only
 * for a server error. sources/nexusphp/reader.ts itself promises "Sums of thousands of them still fit the
 * derivation's and the wages' 64-bit columns" — they don't beyond 8,192. A value the server cannot add up must
 * be refused (or clamped lower) at the door: sizes are now kept within 16 TiB (MAX_TORRENT_SIZE, with a note),
 * which takes 524,288 such torrents to reach 2^63.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabases } from '../test/harness'
import { INGEST_NOW, useIngestApp } from '../sources/ingest/testing-app'
import { pushedPeer, pushedTorrent } from '../sources/ingest/testing'
import { defaultRuleBody, saveRules } from '../rules/rules'

/** Torrents of 1 PiB (the ingest's own cap, MAX_COUNTER): 8,200 of them sum to more than 2^63 bytes. */
const HUGE = 8_200
const PIB = 2 ** 50
const NORMAL_TORRENT = 100_000

describe.each(openTestDatabases())('ingest: sizes that add up past 64 bits on $name', (backend) => {
  const { t, push, settled } = useIngestApp(backend)
  beforeAll(async () => {
    await saveRules(t.db.database.db, { ...defaultRuleBody, officialTeams: ['Team'] }, INGEST_NOW - 86_400_000, null)
  })

  it('an accepted push of large torrents does not stop the derivation, the dashboard or later pushes', { timeout: 240_000 }, async () => {
    const added = INGEST_NOW - 30 * 86_400_000
    const seeding = (id: number) =>
      pushedPeer({ id, torrent: id, userid: 501, started: INGEST_NOW - 86_400_000, lastAction: INGEST_NOW - 60_000 })
    expect((await push({ teams: [{ id: 1, name: 'Team' }] })).status).toBe(200)
    const big = await push({
      torrents: Array.from({ length: HUGE }, (_, i) => pushedTorrent(i + 1, added, { size: PIB })),
      peers: Array.from({ length: HUGE }, (_, i) => seeding(i + 1)),
    })
    expect(big.status).toBe(200)
    // Then an ordinary torrent alice seeds.
    expect((await push({ torrents: [pushedTorrent(NORMAL_TORRENT, added)], peers: [seeding(NORMAL_TORRENT)] })).status).toBe(200)
    let syncError: unknown = null
    try {
      await settled()
    } catch (error) {
      syncError = error
    }

    const admin = await t.login('admin', 'Admin-pass-1')
    const status = await t.call<{ lastError: string | null }>('GET', '/sync/status', { token: admin })
    const refresh = await t.call('GET', '/statistics/refresh-index-statistics-cache', { token: admin })
    const dashboard = await t.call('GET', '/statistics/all-seeding-sta', { token: admin })
    // (Alice has 8,201 records: the ordinary one looked up by its key, not on the first page of a list.)
    const record = await t.db.database.db
      .selectFrom('seed_records')
      .select('id')
      .where('torrent_id', '=', NORMAL_TORRENT)
      .executeTakeFirst()
    expect({
      syncError: syncError === null ? null : String(syncError),
      lastError: status.body.data.lastError,
      refresh: refresh.status,
      dashboard: dashboard.status,
      ordinaryTorrentDerived: record !== undefined,
    }).toEqual({ syncError: null, lastError: null, refresh: 200, dashboard: 200, ordinaryTorrentDerived: true })
  })
})
