/**
 * The demo's peers announce the way NexusPHP's do: at the interval its announce.php gives the torrent's
 * age, so a sync moves only the peers that were due, each by whole intervals, and their snatches grow by
 * exactly the time announced.
 */
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { currentRules } from '../../../rules/rules'
import { openTestDatabases, type TestDatabase } from '../../../test/harness'
import { announceIntervalMs } from '../announce'
import type { DemoScale } from '../scale'
import { generateTestDemo } from '../testing/generate'
import { demoSource } from '../index'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)
const MIN = 60_000
const tiny: DemoScale = { members: 12, extraAdmins: 2, siteUsers: 150, torrents: 400, recordsPerMember: 40, historyDays: 10 }

interface PeerRow {
  id: number
  userid: number
  torrent: number
  seeder: number
  last_action: number
  added: number
  seedtime: number | null
  pair_peers: number
}

describe.each(openTestDatabases())('demo sync on $name: peers announce at NexusPHP intervals', (backend) => {
  const opened: TestDatabase[] = []
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.cleanup()
  })

  async function community() {
    const db = await backend.open()
    opened.push(db)
    await generateTestDemo(db.database, { seed: 'announce', scale: tiny, now: NOW })
    return db
  }

  async function peers(db: TestDatabase): Promise<Map<number, PeerRow>> {
    const { rows } = await sql<PeerRow>`select p.id, p.userid, p.torrent, p.seeder, p.last_action, t.added, s.seedtime,
        (select count(*) from site_peers q where q.userid = p.userid and q.torrent = p.torrent) as pair_peers
      from site_peers p join site_torrents t on t.id = p.torrent
      left join site_snatched s on s.userid = p.userid and s.torrentid = p.torrent`.execute(db.database.db)
    return new Map(rows.map((r) => [Number(r.id), { ...r, last_action: Number(r.last_action), added: Number(r.added) }]))
  }

  async function sync(db: TestDatabase, now: number) {
    await demoSource().sync({ database: db.database, now, rules: await currentRules(db.database.db), progress: () => {} })
  }

  it('a 10-minute sync moves only the due peers, by whole intervals, and grows their snatches by that time', async () => {
    const db = await community()
    const before = await peers(db)
    const now = NOW + 10 * MIN
    await sync(db, now)
    const after = await peers(db)

    let due = 0
    let announced = 0
    let grewSnatch = 0
    for (const [id, was] of before) {
      const is = after.get(id)
      if (!is) continue // the tracker's cleanup dropped it
      const every = announceIntervalMs(was.added, now)
      const wasDue = was.last_action + every <= now
      if (wasDue) due++
      if (is.last_action === was.last_action) continue
      announced++
      expect(wasDue, `peer ${id} announced before its interval`).toBe(true)
      expect((is.last_action - was.last_action) % every).toBe(0)
      expect(is.last_action).toBeLessThanOrEqual(now)
      expect(is.last_action).toBeGreaterThan(now - every)
      if (was.seeder === 1 && was.seedtime !== null && Number(was.pair_peers) === 1) {
        expect(Number(is.seedtime) - Number(was.seedtime)).toBe((is.last_action - was.last_action) / 1000)
        grewSnatch++
      }
    }
    // 3 % of the due peers miss their turn; the rest announce.
    expect(announced).toBeGreaterThan(due * 0.85)
    expect(grewSnatch).toBeGreaterThan(0)
    // Intervals of 30–60 minutes: a 10-minute sync sees a sixth to a third of the peers, not all of them.
    expect(announced / before.size).toBeGreaterThan(0.08)
    expect(announced / before.size).toBeLessThan(0.5)
  })

  it('after an hour without a sync every active peer has announced, but those that miss their turn', async () => {
    const db = await community()
    const before = await peers(db)
    const active = [...before.values()].filter((p) => p.last_action >= NOW - 80 * MIN)
    await sync(db, NOW + 60 * MIN)
    const after = await peers(db)
    const moved = active.filter((p) => after.get(p.id)!.last_action !== p.last_action)
    expect(moved.length).toBeGreaterThan(active.length * 0.9)
  })
})
