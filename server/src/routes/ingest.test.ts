/**
 * Push ingest: POST /ingest/snapshot with X-Ingest-Key — a good batch lands and is derived,
 * a mixed batch lands its good rows and reports each bad one, wrong or missing key → 401, a source
 * that is not ingest → 403, oversize body and malformed JSON → clear 400s, duplicate rows and a
 * repeated push change nothing twice, deletions of peers remove them.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { ingestKeyMatches } from '../auth/ingest-key'
import { INGEST_BODY_LIMIT } from './ingest'

const NOW = Date.UTC(2026, 10, 20, 4, 0, 0)
const KEY = 'ingest-key-0123456789abcdef'
const iso = (ms: number) => new Date(ms).toISOString()
const hash = (n: number) => n.toString(16).padStart(40, '0')

type Outcome = {
  accepted: Record<string, number>
  ignoredOlder: Record<string, number>
  written: Record<string, number>
  deleted: Record<string, number>
  rejected: { entity: string; index: number; id: number | null; reason: string }[]
  rejectedTotal: number
}

const torrent = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  info_hash: hash(id),
  name: `Torrent ${id} 1080p`,
  size: 8 * 1024 ** 3,
  team: 1,
  added: iso(NOW - 30 * 86_400_000),
  seeders: 3,
  ...extra,
})
const peer = (id: number, torrentId: number, userid: number, extra: Record<string, unknown> = {}) => ({
  id,
  torrent: torrentId,
  peer_id: hash(1000 + id),
  seeder: 'yes',
  started: iso(NOW - 3_600_000),
  last_action: iso(NOW - 60_000),
  userid,
  ...extra,
})

describe('ingest key comparison', () => {
  it('matches only a configured key, whatever its length', () => {
    expect(ingestKeyMatches(KEY, ['another-key-0123456789', KEY])).toBe(true)
    expect(ingestKeyMatches(`${KEY}x`, [KEY])).toBe(false)
    expect(ingestKeyMatches('', [KEY])).toBe(false)
  })
})

describe.each(openTestDatabases())('push ingest on $name', (backend) => {
  const clock = testClock(NOW)
  const config = loadConfig({ DATA_DIR: '/tmp/seeding-test-unused', SOURCE: 'ingest', INGEST_KEYS: `${KEY},second-key-0123456789` })
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock, config })
  let admin = ''

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    await w.member('alice', 501)
    await w.member('bob', 502)
    admin = await t.login('admin', 'Admin-pass-1')
  })

  const push = (body: unknown, key: string | null = KEY) =>
    t.call<Outcome>('POST', '/ingest/snapshot', { body, headers: key === null ? {} : { 'X-Ingest-Key': key } })

  /** Waits for the sync the ingest asked for (it runs in the background). */
  async function settled(): Promise<void> {
    for (let i = 0; i < 200 && t.app.services.sync.busy; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    await t.app.services.sync.runOnce(NOW)
  }

  const seedRecords = async () => {
    const { body } = await t.call<{ list: { username: string; torrentId: number; status: number }[] }>('POST', '/user/page-seed', {
      token: admin,
      body: { page: 1, pageSize: 100 },
    })
    return body.data.list.map((r) => `${r.username}:${r.torrentId}:${r.status}`).sort()
  }

  it('refuses a missing or wrong key with 401 and writes nothing', async () => {
    for (const key of [null, '', 'wrong-key-0123456789abc', `${KEY} `.repeat(2)]) {
      const res = await push({ torrents: [torrent(1)] }, key)
      expect(res.status).toBe(401)
      expect(res.body.msg).toContain('X-Ingest-Key')
    }
    const rows = await t.db.database.db.selectFrom('site_torrents').select('id').execute()
    expect(rows).toEqual([])
  })

  it('lands a good batch and derives it: statuses and labels follow', async () => {
    const res = await push({
      teams: [{ id: 1, name: 'FRDS' }],
      users: [
        { id: 501, username: 'alice_site', added: iso(NOW - 400 * 86_400_000) },
        { id: 502, username: 'bob_site', added: Math.floor((NOW - 300 * 86_400_000) / 1000), enabled: 'no' },
      ],
      torrents: [torrent(1), torrent(2, { team: null })],
      peers: [peer(11, 1, 501), peer(12, 2, 502, { seeder: 'no', to_go: 1024 })],
      snatches: [
        {
          id: 21,
          torrentid: 1,
          userid: 501,
          uploaded: 5 * 1024 ** 3,
          seedtime: 7200,
          last_action: iso(NOW - 60_000),
          startdat: iso(NOW - 86_400_000),
          finished: 'yes',
        },
      ],
      claims: [{ id: 31, uid: 501, torrent_id: 1, created_at: iso(NOW - 86_400_000), updated_at: iso(NOW - 86_400_000) }],
    })
    expect(res.status).toBe(200)
    expect(res.body.data.accepted).toMatchObject({ teams: 1, users: 2, torrents: 2, peers: 2, snatches: 1, claims: 1 })
    expect(res.body.data.rejected).toEqual([])
    await settled()
    // alice seeds torrent 1 and claimed it → 3 做种中 (her gains are far below the month's minimums,
    // but less than a day of counters judges nobody 无工资); bob downloads torrent 2 → 2 下载中.
    expect(await seedRecords()).toEqual(['alice:1:3', 'bob:2:2'])
    const peerRow = await t.db.database.db.selectFrom('site_peers').selectAll().where('id', '=', 11).executeTakeFirstOrThrow()
    expect(peerRow).toMatchObject({ peer_id: hash(1011), seeder: 1, connectable: 1, last_action: NOW - 60_000, prev_action: NOW - 60_000 })
    const bob = await t.db.database.db.selectFrom('site_users').selectAll().where('id', '=', 502).executeTakeFirstOrThrow()
    expect(bob).toMatchObject({ enabled: 0, added: NOW - 300 * 86_400_000 })
  })

  it('lands the good rows of a mixed batch and names each bad row with its reason', async () => {
    const res = await push({
      torrents: [
        torrent(3),
        torrent(4, { info_hash: 'xyz' }),
        { id: 5, name: 'no hash', size: 1, added: iso(NOW) },
        torrent(6, { size: -1 }),
        torrent(7, { added: '2026-11-01 08:00:00' }),
        'not a row',
      ],
      peers: [peer(13, 3, 502), peer(14, 3, 501, { seeder: 'maybe' })],
    })
    expect(res.status).toBe(200)
    const { accepted, rejected, rejectedTotal } = res.body.data
    expect(accepted).toMatchObject({ torrents: 1, peers: 1 })
    expect(rejectedTotal).toBe(6)
    expect(rejected.map((r) => [r.entity, r.index, r.id])).toEqual([
      ['torrents', 1, 4],
      ['torrents', 2, 5],
      ['torrents', 3, 6],
      ['torrents', 4, 7],
      ['torrents', 5, null],
      ['peers', 1, 14],
    ])
    expect(rejected[0]!.reason).toContain('info_hash')
    expect(rejected[1]!.reason).toContain('info_hash')
    for (const r of rejected) expect(r.reason.length).toBeGreaterThan(3)
    const ids = (await t.db.database.db.selectFrom('site_torrents').select('id').orderBy('id').execute()).map((r) => r.id)
    expect(ids).toEqual([1, 2, 3])
    await settled()
    expect(await seedRecords()).toContain('bob:3:4')
  })

  it('takes the last of duplicate rows, reports the earlier, and writes nothing when the same rows come again', async () => {
    const batch = { torrents: [torrent(8, { seeders: 1 }), torrent(8, { seeders: 9 })] }
    const first = await push(batch)
    expect(first.body.data.accepted.torrents).toBe(1)
    expect(first.body.data.written.torrents).toBe(1)
    expect(first.body.data.rejected).toEqual([{ entity: 'torrents', index: 0, id: 8, reason: 'id 与第 2 行重复，以后者为准' }])
    const stored = await t.db.database.db.selectFrom('site_torrents').select('seeders').where('id', '=', 8).executeTakeFirstOrThrow()
    expect(stored.seeders).toBe(9)
    const again = await push({ torrents: [torrent(8, { seeders: 9 })] })
    expect(again.body.data).toMatchObject({ accepted: { torrents: 1 }, written: { torrents: 0 } })
  })

  it('answers how many rows it left out as older than the mirror (a replayed push), and keeps the newer counters', async () => {
    const GiB = 1024 ** 3
    await push({ torrents: [torrent(20)], peers: [peer(901, 20, 501, { uploaded: 40 * GiB, last_action: iso(NOW - 10_000) })] })
    const replay = await push({ peers: [peer(901, 20, 501, { uploaded: 10 * GiB, last_action: iso(NOW - 120_000) })] })
    expect(replay.status).toBe(200)
    expect(replay.body.data).toMatchObject({ accepted: { peers: 0 }, ignoredOlder: { peers: 1 }, written: { peers: 0 }, rejected: [] })
    const stored = await t.db.database.db.selectFrom('site_peers').select('uploaded').where('id', '=', 901).executeTakeFirstOrThrow()
    expect(Number(stored.uploaded)).toBe(40 * GiB)
  })

  it('a peer stamped years past the server clock is not counted as seeding', async () => {
    const res = await push({ torrents: [torrent(21)], peers: [peer(902, 21, 502, { last_action: iso(NOW + 5 * 365 * 86_400_000) })] })
    expect(res.body.data.accepted.peers).toBe(1)
    await settled()
    const records = await seedRecords()
    const bob = records.filter((r) => r.startsWith('bob:21:'))
    expect(bob).toHaveLength(1)
    expect(['bob:21:3', 'bob:21:4']).not.toContain(bob[0]) // 做种中 / 做种中（未认领）
  })

  it('refuses a key with spaces around it (the header must match exactly)', async () => {
    for (const key of [` ${KEY}`, `${KEY} `, `\t${KEY}`]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/snapshot',
        payload: { torrents: [torrent(90)] },
        headers: { 'x-ingest-key': key },
      })
      expect(res.statusCode, JSON.stringify(key)).toBe(401)
    }
    expect(await t.db.database.db.selectFrom('site_torrents').select('id').where('id', '=', 90).execute()).toEqual([])
  })

  it('one row the database cannot hold (NUL, an id or count beyond its column) is rejected with its reason; the good rows land', async () => {
    const res = await push({
      users: [
        { id: 601, username: 'carol\u0000site', added: iso(NOW) },
        { id: 602, username: 'dave_site', added: iso(NOW), class: 2 ** 40 },
        { id: 603, username: 'erin_site', added: iso(NOW) },
      ],
      torrents: [torrent(140), torrent(141, { name: 'bad\u0000name' }), torrent(2 ** 31), torrent(143, { seeders: 2 ** 31 })],
      peers: [peer(2 ** 40, 140, 501)],
    })
    expect(res.status).toBe(200)
    const { accepted, rejected } = res.body.data
    expect(accepted).toMatchObject({ users: 1, torrents: 1, peers: 1 })
    expect(rejected.map((r) => [r.entity, r.index])).toEqual([
      ['users', 0],
      ['users', 1],
      ['torrents', 1],
      ['torrents', 2],
      ['torrents', 3],
    ])
    expect(rejected[0]!.reason).toBe('用户名：不能包含空字符')
    expect(rejected[2]!.reason).toBe('名称：不能包含空字符')
    expect(rejected[3]!.reason).toMatch(/^编号：不能大于 2147483647$/)
    const ids = (await t.db.database.db.selectFrom('site_torrents').select('id').where('id', '>=', 140).orderBy('id').execute()).map(
      (r) => r.id,
    )
    expect(ids).toEqual([140])
  })

  it("a NUL under a key named like a prototype member: the reason names the key, not JavaScript's source", async () => {
    const res = await push({
      users: [
        { id: 611, username: 'fay_site', added: iso(NOW), constructor: 'x\u0000' },
        { id: 612, username: 'gus_site', added: iso(NOW), extra: { toString: '\u0000' } },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.data.rejected.map((r) => r.reason)).toEqual(['constructor：不能包含空字符', 'extra.toString：不能包含空字符'])
  })

  it('two rows of one natural key are not both accepted: the earlier is rejected with a reason', async () => {
    const res = await push({
      torrents: [torrent(50)],
      peers: [peer(51, 50, 501, { peer_id: hash(77) }), peer(52, 50, 501, { peer_id: hash(77), uploaded: 5 })],
      snatches: [
        { id: 53, torrentid: 50, userid: 502, last_action: iso(NOW), startdat: iso(NOW), finished: 'no' },
        { id: 54, torrentid: 50, userid: 502, last_action: iso(NOW), startdat: iso(NOW), finished: 'yes' },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.data.accepted).toMatchObject({ peers: 1, snatches: 1 })
    expect(res.body.data.rejected).toEqual([
      { entity: 'snatches', index: 0, id: 53, reason: 'userid + torrentid 与第 2 行相同，以后者为准' },
      { entity: 'peers', index: 0, id: 51, reason: 'torrent + peer_id + userid 与第 2 行相同，以后者为准' },
    ])
    const peers = await t.db.database.db.selectFrom('site_peers').select(['id', 'uploaded']).where('torrent', '=', 50).execute()
    expect(peers).toEqual([{ id: 52, uploaded: 5 }])
  })

  it('says what is wrong with a time (not 无效输入)', async () => {
    const res = await push({ torrents: [torrent(60, { added: '2026-11-01 08:00:00' })] })
    expect(res.body.data.rejected[0]!.reason).toBe('added：应为带时区的 ISO 8601 时间（如 2026-11-01T08:00:00+08:00）或 Unix 秒数')
  })

  it('removes deleted peers (a client stopped) and the record stops seeding', async () => {
    const res = await push({ deleted: { peers: [11, 999] } })
    expect(res.body.data.deleted).toMatchObject({ peers: 1 })
    await settled()
    // No active peer any more; alice's finished snatch makes it 7 已停止.
    expect(await seedRecords()).toContain('alice:1:7')
  })

  it('a row without to_go is complete only when it says so (finished snatch, seeder peer), so it is not 已停止 by default', async () => {
    const snatch = (id: number, torrentid: number, extra: Record<string, unknown>) => ({
      id,
      torrentid,
      userid: 501,
      last_action: iso(NOW - 5 * 86_400_000),
      startdat: iso(NOW - 9 * 86_400_000),
      ...extra,
    })
    const res = await push({
      torrents: [torrent(41), torrent(42), torrent(43)],
      snatches: [snatch(141, 41, { finished: 'no' }), snatch(142, 42, { finished: 'no', to_go: 0 })],
      peers: [peer(143, 43, 502, { seeder: 'no' })],
    })
    expect(res.status).toBe(200)
    expect(res.body.data.rejected).toEqual([])
    await settled()
    const records = await seedRecords()
    // No to_go and not finished: 下载未完成; to_go 0 (cross-seeded): 已停止; a leecher without to_go: 下载中.
    expect(records).toEqual(expect.arrayContaining(['alice:41:8', 'alice:42:7', 'bob:43:2']))
  })

  it('refuses malformed JSON, unknown entities and too many rows as a whole, with a clear message', async () => {
    const malformed = await t.call('POST', '/ingest/snapshot', { rawBody: '{"torrents": [', headers: { 'X-Ingest-Key': KEY } })
    expect(malformed.status).toBe(400)
    expect(malformed.body.msg).toBe('请求体不是合法的 JSON')
    const unknown = await push({ torrent: [torrent(40)] })
    expect(unknown.status).toBe(400)
    const notArray = await push({ torrents: { id: 1 } })
    expect(notArray.status).toBe(400)
    const ids = (await t.db.database.db.selectFrom('site_torrents').select('id').where('id', '=', 40).execute()).length
    expect(ids).toBe(0)
  })

  it('refuses a body over the limit with the limit in the message, before any row is written', async () => {
    const filler = 'x'.repeat(1000)
    const rows = Array.from({ length: Math.ceil(INGEST_BODY_LIMIT / 1000) + 10 }, (_, i) => torrent(100_000 + i, { name: filler }))
    const res = await t.call('POST', '/ingest/snapshot', { rawBody: JSON.stringify({ torrents: rows }), headers: { 'X-Ingest-Key': KEY } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('请求体超过 16 MB 上限，请分批推送')
    const count = await t.db.database.db.selectFrom('site_torrents').select('id').where('id', '>=', 100_000).execute()
    expect(count).toEqual([])
  })
})

describe.each(openTestDatabases())('push ingest when the source is not ingest ($name)', (backend) => {
  const config = loadConfig({ DATA_DIR: '/tmp/seeding-test-unused', SOURCE: 'demo', INGEST_KEYS: KEY })
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', config })

  it('answers 403 and writes nothing', async () => {
    const res = await t.call('POST', '/ingest/snapshot', { body: { torrents: [torrent(1)] }, headers: { 'X-Ingest-Key': KEY } })
    expect(res.status).toBe(403)
    expect(res.body.msg).toContain('SOURCE')
    expect(await t.db.database.db.selectFrom('site_torrents').select('id').execute()).toEqual([])
  })
})
