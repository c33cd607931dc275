/**
 * A whole month through every layer, the real site the judge: a NexusPHP database from NexusPHP's schema
 * (the connector's fixture, both site shapes), written the way the site writes it — announce.php growing
 * snatches and touching peers and torrents, Laravel writing claims with the snatch's counters, NexusPHP's
 * claim cron settling on the 1st — synced by the real sync at instants inside the month (the last day of
 * February, the 1st and the last day of March, the 1st of April: the month's boundary snapshots are the
 * sync's own), the month computed under 「NexusPHP 认领结算」 (POST /wages/compute) and paid into the same
 * site with `settleClaims` (POST /wages/payout).
 *
 * The judge: on the site's rows as they are when the payout runs, NexusPHP's own ClaimRepository::settleUser
 * (wages/testing/nexusphp-settle.ts, transcribed from its code) — each member's seedbonus moved by what it
 * would have credited less its deductions, to 0.1 point (docs/domain.md §4), and its claims left as it leaves
 * them; paying again changes nothing.
 *
 * Where the site's rows and the console's month could differ on purpose (docs/domain.md §4), the scenario keeps
 * them together and says so: NexusPHP's cron ran on the 1st of March (claims older than the month begin at the
 * counters then, which is the start snapshot: no announce between the cron and the first sync of the day), the
 * settlement is judged at the cron's moment on the 1st of April (torrent age), and no announce reaches the site
 * between the last sync of March and the payout (the console pays the month's counters, NexusPHP the live ones).
 *
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set; the console on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { RowDataPacket } from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { nexusphpClaimsPreset } from '@shared/entities'
import type { PayoutResult } from '@shared/payout'
import { loadConfig } from '../config'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { fixtureShapes, NexusFixture } from '../sources/nexusphp/testing/fixture'
import { addMember } from '../sources/nexusphp/testing/member'
import { buildTestApp, openTestDatabases, testClock, type TestDatabase } from '../test/harness'
import { pendingWageEstimates } from '../wages/estimates'
import { settleUser, type NexusClaim, type NexusTorrent } from '../wages/testing/nexusphp-settle'
import { NexusSite } from './testing/nexus-site'
import { formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const ADMIN_PASSWORD = 'Admin-pass-1'
const PERIOD = '2026-03'
/** The site's wall clock (+08:00, NexusPHP's shipped PRC and the fixture's zone) → epoch ms. */
const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)
/** NexusPHP's claim cron: on the 1st, seconds after midnight. */
const CRON_MARCH = local('2026-03-01 00:00') + 5_000
const CRON_APRIL = local('2026-04-01 00:00') + 5_000
const START_BONUS = '5000.0'

const torrents = [
  // id, size, added, seeders at first (torrent 1 and 5 change during the month)
  { id: 1, size: 40 * GIB, added: '2025-03-10 20:00', seeders: 2 },
  { id: 2, size: 8 * GIB, added: '2026-02-20 10:00', seeders: 1 },
  { id: 3, size: 15 * GIB, added: '2024-06-01 09:00', seeders: 0 },
  { id: 4, size: 4 * GIB, added: '2025-12-01 12:00', seeders: 6 },
  { id: 5, size: 20 * GIB, added: '2025-06-01 12:00', seeders: 3 },
  { id: 6, size: 10 * GIB, added: '2025-09-01 12:00', seeders: 1 },
  { id: 7, size: 25 * GIB, added: '2025-08-01 12:00', seeders: 4 },
]

const members = [
  { uid: 1001, name: 'alice' },
  { uid: 1002, name: 'bob' },
  { uid: 1003, name: 'carol' },
  { uid: 1004, name: 'dave' },
  // Made a member of the team on the 10th: the console first sees her records then.
  { uid: 1005, name: 'erin', joins: '2026-03-10 11:55' },
]

/**
 * Every seeding client: the snatch it had before the scenario (hours, GiB), when it announces from and
 * until (stopped: announce.php deletes the peer), and what it uploads per hour.
 */
interface Keep {
  uid: number
  torrent: number
  seedHours: number
  uploadedGiB: number
  from: string
  to?: string
  gibPerHour: number
}
const keeps: Keep[] = [
  // alice: two old claims she keeps seeding, one (made in February) whose client stops on the 5th — unreached, removed with 600.
  { uid: 1001, torrent: 1, seedHours: 2100, uploadedGiB: 130, from: '2026-02-26 12:00', gibPerHour: 0.02 },
  { uid: 1001, torrent: 2, seedHours: 120, uploadedGiB: 9, from: '2026-02-26 12:00', gibPerHour: 0.05 },
  { uid: 1001, torrent: 6, seedHours: 400, uploadedGiB: 2, from: '2026-02-26 12:00', to: '2026-03-05 08:00', gibPerHour: 0.01 },
  // bob: torrent 1 reached by upload (≥ 80 GiB) in five days; torrent 3 by time; torrent 5 claimed on the 25th, not reached since (kept).
  { uid: 1002, torrent: 1, seedHours: 300, uploadedGiB: 20, from: '2026-02-26 12:00', to: '2026-03-06 00:00', gibPerHour: 0.72 },
  { uid: 1002, torrent: 3, seedHours: 5000, uploadedGiB: 40, from: '2026-02-26 12:00', gibPerHour: 0.003 },
  { uid: 1002, torrent: 5, seedHours: 800, uploadedGiB: 15, from: '2026-02-26 12:00', gibPerHour: 0.004 },
  // carol: an old claim, and torrent 4 downloaded on the 5th and claimed on the 12th (counted from its claim).
  { uid: 1003, torrent: 5, seedHours: 1500, uploadedGiB: 60, from: '2026-02-26 12:00', gibPerHour: 0.01 },
  { uid: 1003, torrent: 4, seedHours: 0, uploadedGiB: 0, from: '2026-03-05 12:00', gibPerHour: 0.03 },
  // dave: one claim, seeded two days in March — unreached, removed with 600; his wage is 0.
  { uid: 1004, torrent: 7, seedHours: 90, uploadedGiB: 1, from: '2026-02-26 12:00', to: '2026-03-03 02:00', gibPerHour: 0.01 },
  // erin: an old claim seeded all month, which the console counts from her first observation (the 10th).
  { uid: 1005, torrent: 3, seedHours: 900, uploadedGiB: 10, from: '2026-02-26 12:00', gibPerHour: 0.002 },
]

/** Claims made before the scenario (as Laravel made them then: created_at, counters of the snatch then). */
const oldClaims = [
  { uid: 1001, torrent: 1, at: '2026-01-15 21:00' },
  { uid: 1001, torrent: 2, at: '2026-02-25 09:30' },
  { uid: 1001, torrent: 6, at: '2026-02-10 22:00' },
  { uid: 1002, torrent: 1, at: '2026-02-03 08:00' },
  { uid: 1002, torrent: 3, at: '2025-11-11 11:11' },
  { uid: 1003, torrent: 5, at: '2025-10-01 10:00' },
  { uid: 1004, torrent: 7, at: '2026-02-05 19:00' },
  { uid: 1005, torrent: 3, at: '2025-12-01 20:00' },
]

/** A row of `claims` with what settleUser reads beside it. */
interface SiteClaim extends RowDataPacket {
  id: string
  uid: number
  torrent_id: number
  seed_time_begin: string
  uploaded_begin: string
  /** created_at as Laravel stored it, read back as the site's wall clock (a session in the server's zone). */
  created: string
  last_settle_at: string | null
  seedtime: string
  uploaded: string
}

const combinations = openTestDatabases().flatMap((backend) =>
  fixtureShapes.map((shape) => ({ backend, shape, name: `${backend.name}, ${shape} site` })),
)

describe.skipIf(!serverUrl).each(combinations)(
  'a month of 「NexusPHP 认领结算」 synced from and paid into the site ($name)',
  ({ backend, shape }) => {
    let nx: NexusFixture
    let site: NexusSite
    let db: TestDatabase
    let app: FastifyInstance
    const clock = testClock(local('2026-02-26 12:00'))
    const stopped = new Set<Keep>()

    async function call<T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> {
      const res = await app.inject({ method, url: API_PREFIX + path, headers: { [TOKEN_HEADER]: token }, payload: body as object })
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200)
      return (res.json() as { data: T }).data
    }

    async function login(): Promise<string> {
      const res = await app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/login`,
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      })
      expect(res.statusCode).toBe(200)
      return (res.json() as { data: string }).data
    }

    /** A sync of the console at the site's wall clock `wall` (the sync's and the app's time). */
    async function sync(wall: string): Promise<void> {
      clock.set(local(wall))
      const result = await app.services.sync.runOnce(local(wall))
      if (!result.ran) throw new Error('the sync did not run')
    }

    /** Every running client announces at `wall` (a client stopping before then announces when it stops, and its peer goes). */
    async function announce(wall: string): Promise<void> {
      const t = local(wall)
      for (const keep of keeps) {
        if (stopped.has(keep) || local(keep.from) >= t) continue
        const at = Math.min(t, keep.to ? local(keep.to) : t)
        const [peer] = await nx.rows<{ last: string }>(
          'SELECT UNIX_TIMESTAMP(last_action) AS last FROM peers WHERE userid = ? AND torrent = ?',
          [keep.uid, keep.torrent],
        )
        const hours = (at / 1000 - Number(peer!.last)) / 3600
        await nx.announce({ userid: keep.uid, torrent: keep.torrent, at, uploaded: Math.round(hours * keep.gibPerHour * GIB) })
        if (keep.to && local(keep.to) <= t) {
          // The client's `stopped` event: announce.php deletes its peer.
          await nx.exec('DELETE FROM peers WHERE userid = ? AND torrent = ?', [keep.uid, keep.torrent])
          stopped.add(keep)
        }
      }
    }

    /** NexusPHP's claim cron on the 1st of March: every claim reached or in its first month, begins = the snatch's counters now. */
    async function nexusphpCron(at: number): Promise<void> {
      const wall = await nx.wallClock(at)
      await nx.laravel(() =>
        nx.exec(
          'UPDATE claims c JOIN snatched s ON s.id = c.snatched_id SET c.seed_time_begin = s.seedtime, c.uploaded_begin = s.uploaded, c.last_settle_at = ?, c.updated_at = ?',
          [wall, wall],
        ),
      )
    }

    /** The seeders NexusPHP reports for a torrent, changed as announce.php changes them (a started/stopped event, which touches last_action). */
    async function seeders(torrent: number, n: number, wall: string): Promise<void> {
      await nx.exec('UPDATE torrents SET seeders = ?, last_action = FROM_UNIXTIME(?) WHERE id = ?', [n, local(wall) / 1000, torrent])
    }

    /** The member's claims with their snatches, as the site has them now. */
    async function siteClaims(uid: number): Promise<SiteClaim[]> {
      return nx.laravel(() =>
        nx.rows<SiteClaim>(
          `SELECT c.id, c.uid, c.torrent_id, c.seed_time_begin, c.uploaded_begin, DATE_FORMAT(c.created_at, '%Y-%m-%d %H:%i:%s') AS created,
            DATE_FORMAT(c.last_settle_at, '%Y-%m-%d %H:%i:%s') AS last_settle_at, s.seedtime, s.uploaded
          FROM claims c JOIN snatched s ON s.id = c.snatched_id WHERE c.uid = ? ORDER BY c.id`,
          [uid],
        ),
      )
    }

    /**
     * settleUser's judgement of the member on the site's rows now, run at NexusPHP's April cron; `begins`: the
     * claims' begins replaced, by torrent (what the console counts from where it differs on purpose).
     */
    async function nexusphpSettlement(uid: number, begins = new Map<number, { seedtime: number; uploaded: number }>()) {
      const rows = await siteClaims(uid)
      const site = await nx.rows<{ id: number; added: string; size: string; seeders: number }>(
        'SELECT id, UNIX_TIMESTAMP(added) AS added, size, seeders FROM torrents',
      )
      const byId = new Map<number, NexusTorrent>(
        site.map((t) => [Number(t.id), { id: Number(t.id), added: Number(t.added), size: Number(t.size), seeders: Number(t.seeders) }]),
      )
      const claims: NexusClaim[] = rows.map((r) => ({
        id: Number(r.id),
        torrentId: Number(r.torrent_id),
        seedTimeBegin: begins.get(Number(r.torrent_id))?.seedtime ?? Number(r.seed_time_begin),
        uploadedBegin: begins.get(Number(r.torrent_id))?.uploaded ?? Number(r.uploaded_begin),
        createdMonth: Number(r.created.slice(0, 4)) * 12 + Number(r.created.slice(5, 7)) - 1,
        // last_settle_at: a DATETIME in the site's time.
        lastSettleAt: r.last_settle_at === null ? null : local(r.last_settle_at.slice(0, 16)) / 1000,
        snatch: { seedtime: Number(r.seedtime), uploaded: Number(r.uploaded) },
      }))
      return {
        rows,
        settlement: settleUser(claims, byId, CRON_APRIL / 1000, { month: 2026 * 12 + 3, at: local('2026-04-01 00:00') / 1000 }),
      }
    }

    beforeAll(async () => {
      nx = await NexusFixture.create(serverUrl!, { shape })
      site = await NexusSite.over(serverUrl!, nx)
      const writeDatabaseUrl = await site.writer()
      db = await backend.open()
      app = await buildTestApp({
        database: db.database,
        config: {
          ...db.config,
          source: 'nexusphp',
          nexusphp: loadConfig({ SOURCE: 'nexusphp', NEXUSPHP_DATABASE_URL: nx.url }).nexusphp,
          payout: { writeDatabaseUrl, webhookUrl: undefined, webhookSecret: undefined },
        },
        // The month's estimates are not what this is about; the compute below is the real one.
        wages: pendingWageEstimates,
        clock,
        adminPassword: ADMIN_PASSWORD,
      })
      await saveRules(db.database.db, { ...defaultRuleBody, ...nexusphpClaimsPreset, settleClaims: true }, local('2026-02-01 00:00'), null)

      // The site before the month.
      for (const { uid, name, joins } of members) {
        await nx.user({ id: uid, username: name })
        await nx.exec('UPDATE users SET seedbonus = ? WHERE id = ?', [START_BONUS, uid])
        if (!joins) await addMember(db.database, name, uid)
      }
      for (const t of torrents) await nx.torrent({ id: t.id, size: t.size, added: local(t.added), seeders: t.seeders })
      for (const keep of keeps.filter((k) => local(k.from) < local('2026-03-01 00:00'))) {
        const from = local(keep.from)
        await nx.snatch({
          userid: keep.uid,
          torrent: keep.torrent,
          finished: true,
          lastAction: from,
          startdat: from - 400 * 86_400_000,
          seedtime: keep.seedHours * 3600,
          uploaded: keep.uploadedGiB * GIB,
          downloaded: torrents.find((t) => t.id === keep.torrent)!.size,
        })
        await nx.peer({ userid: keep.uid, torrent: keep.torrent, seeder: true, lastAction: from, started: from - 86_400_000 })
      }
      // Claimed back then: Laravel noted the snatch's counters at the time (these snatches have not moved since).
      for (const c of oldClaims) await nx.claim({ uid: c.uid, torrent: c.torrent, createdAt: local(c.at) })

      await announce('2026-02-27 11:50')
      await sync('2026-02-27 12:00') // first import
      await announce('2026-02-28 23:40')
      await sync('2026-02-28 23:50') // the last day of February
      await announce('2026-02-28 23:55') // after that sync, before midnight: March's for both
      await nexusphpCron(CRON_MARCH)
      await sync('2026-03-01 00:10') // March's start snapshot

      // Carol downloads torrent 4 on the 5th, from 10:00 to 12:00, and seeds it from then on.
      await nx.snatch({ userid: 1003, torrent: 4, finished: false, lastAction: local('2026-03-05 10:00'), toGo: 4 * GIB })
      await nx.peer({ userid: 1003, torrent: 4, seeder: false, lastAction: local('2026-03-05 10:00'), toGo: 4 * GIB })
      await announce('2026-03-05 08:00')
      await nx.exec(
        "UPDATE snatched SET finished = 'yes', to_go = 0, downloaded = ?, leechtime = 7200, completedat = FROM_UNIXTIME(?), last_action = FROM_UNIXTIME(?) WHERE userid = 1003 AND torrentid = 4",
        [4 * GIB, local('2026-03-05 12:00') / 1000, local('2026-03-05 12:00') / 1000],
      )
      await nx.exec(
        "UPDATE peers SET seeder = 'yes', to_go = 0, prev_action = last_action, last_action = FROM_UNIXTIME(?), finishedat = ? WHERE userid = 1003 AND torrent = 4",
        [local('2026-03-05 12:00') / 1000, local('2026-03-05 12:00') / 1000],
      )
      await announce('2026-03-10 11:50')
      await addMember(db.database, 'erin', 1005)
      await sync('2026-03-10 12:00')
      await announce('2026-03-12 13:00')
      await nx.claim({ uid: 1003, torrent: 4, createdAt: local('2026-03-12 14:00') })
      await announce('2026-03-15 11:50')
      await sync('2026-03-15 12:00')
      await seeders(1, 3, '2026-03-20 10:00')
      await seeders(5, 5, '2026-03-20 10:00')
      await announce('2026-03-25 09:00')
      await nx.claim({ uid: 1002, torrent: 5, createdAt: local('2026-03-25 10:00') })
      await announce('2026-03-25 11:50')
      await sync('2026-03-25 12:00')
      await announce('2026-03-31 23:30')
      await sync('2026-03-31 23:50') // the last day of March
      await sync('2026-04-01 00:10') // the end snapshot; the site is quiet from here to the payout
      clock.set(local('2026-04-01 00:20'))
    }, 180_000)

    afterAll(async () => {
      await app?.close()
      await db?.cleanup()
      await site?.drop()
      await nx?.drop()
    })

    it("the month's boundary snapshots are the syncs' own: the 1st of March and of April (kept for good), the last day of March", async () => {
      const days = await db.database.db.selectFrom('counter_snapshots').select('day').distinct().orderBy('day').execute()
      // Every sync's day had its snapshot; the retention (snapshots/policy.ts) keeps the first of each month and the last 8 days.
      expect(days.map((d) => d.day)).toEqual([20260227, 20260301, 20260325, 20260331, 20260401])
      // March's start counters are those after the last announce of February (23:55, after the day's own sync at 23:50).
      const { rows } = await sql<{ day: number; seed_time_sec: number }>`select s.day, s.seed_time_sec from counter_snapshots s
      join seed_records r on r.id = s.record_id join users u on u.id = r.user_id
      where u.site_uid = 1001 and r.torrent_id = 1 and s.day in (20260301, 20260401) order by s.day`.execute(db.database.db)
      const [seedtime] = await nx.rows<{ seedtime: string }>('SELECT seedtime FROM snatched WHERE userid = 1001 AND torrentid = 1')
      const [claim] = await siteClaims(1001)
      expect(rows.map((r) => Number(r.seed_time_sec))).toEqual([Number(claim!.seed_time_begin), Number(seedtime!.seedtime)])
    })

    it("each member's seedbonus moves by NexusPHP's own settleUser on the site's rows, the claims are settled as it settles them, once", async () => {
      const token = await login()
      await call('POST', '/wages/compute', token, { period: PERIOD })

      // The judge, on the site's rows as the payout finds them.
      const before = new Map<number, { bonus: string; rows: SiteClaim[]; settlement: ReturnType<typeof settleUser> }>()
      for (const { uid } of members) before.set(uid, { bonus: (await site.bonus(uid))!, ...(await nexusphpSettlement(uid)) })
      // erin, first seen on the 10th (docs/domain.md §4, 「Members first seen mid-month」): the console counts her
      // old claim from its first observation (部分月份), NexusPHP from the begins its cron wrote on the 1st. The
      // console's credit is settleUser's with those begins; NexusPHP's own would pay her the 1st to the 10th too.
      const { rows: first } = await sql<{
        seed_time_sec: number
        uploaded: number
        seen_at: number
      }>`select f.seed_time_sec, f.uploaded, f.seen_at
      from record_first_counters f join seed_records r on r.id = f.record_id join users u on u.id = r.user_id
      where u.site_uid = 1005 and r.torrent_id = 3`.execute(db.database.db)
      expect(Number(first[0]!.seen_at)).toBe(local('2026-03-10 12:00'))
      const erinOwn = before.get(1005)!.settlement
      const erin = await nexusphpSettlement(
        1005,
        new Map([[3, { seedtime: Number(first[0]!.seed_time_sec), uploaded: Number(first[0]!.uploaded) }]]),
      )
      before.get(1005)!.settlement = erin.settlement
      expect(erinOwn.reached).toEqual([3])
      expect(erin.settlement.reached).toEqual([3])
      expect(erinOwn.bonusFinal - erin.settlement.bonusFinal).toBeGreaterThan(1000)
      const { list: wages } = await call<{ list: { username: string; partial?: boolean }[] }>('POST', '/wages/page', token, {
        page: 1,
        pageSize: 100,
        period: PERIOD,
      })
      expect(wages.filter((w) => w.partial).map((w) => w.username)).toEqual(['erin'])
      // The scenario exercises what it says.
      const judged = (uid: number) => before.get(uid)!.settlement
      expect(judged(1001)).toMatchObject({ reached: [1, 2], removed: [before.get(1001)!.rows[2]!.id].map(Number) })
      expect(judged(1002).reached).toEqual([1, 3])
      expect(judged(1002).updated).toHaveLength(3) // torrent 5, claimed on the 25th, kept unreached
      expect(judged(1003).reached).toEqual([5, 4])
      expect(judged(1004)).toMatchObject({ reached: [], bonusFinal: 0, totalDeduct: 600 })
      for (const { uid } of members) expect(judged(uid).settled).toBe(true)

      const { list } = await call<{ list: PayoutResult[] }>('POST', '/wages/payout', token, { period: PERIOD })
      expect(list.map((r) => [r.username, r.status, r.reason])).toEqual(members.map((m) => [m.name, 'paid', null]))

      for (const { uid, name } of members) {
        const { bonus, rows, settlement } = before.get(uid)!
        const moved = Number(formatTenths(parseTenths((await site.bonus(uid))!) - parseTenths(bonus)))
        const nexusphp = settlement.bonusFinal - settlement.totalDeduct
        expect(
          Math.abs(moved - nexusphp),
          `${name}: the site's seedbonus moved by ${moved}, NexusPHP's settleUser ${nexusphp}`,
        ).toBeLessThanOrEqual(0.1)
        // The claims as settleUser leaves them: the removed gone, the others begun again at the snatch's counters, settled now.
        const after = await siteClaims(uid)
        expect(after.map((c) => Number(c.id))).toEqual(rows.map((c) => Number(c.id)).filter((id) => !settlement.removed.includes(id)))
        for (const claim of after) {
          expect(settlement.updated, `${name}: claim ${claim.id}`).toContain(Number(claim.id))
          expect(claim).toMatchObject({ seed_time_begin: claim.seedtime, uploaded_begin: claim.uploaded })
          expect(claim.last_settle_at, `${name}: claim ${claim.id}`).not.toBeNull()
        }
      }

      // Paying again changes nothing on the site.
      const state = async () => ({
        bonus: await Promise.all(members.map((m) => site.bonus(m.uid))),
        claims: await Promise.all(members.map((m) => siteClaims(m.uid))),
        logs: (await site.logs()).length,
        messages: (await site.messages()).length,
      })
      const settled = await state()
      const again = await call<{ list: PayoutResult[] }>('POST', '/wages/payout', token, { period: PERIOD })
      expect(again.list.map((r) => r.status)).toEqual(members.map(() => 'already'))
      expect(await state()).toEqual(settled)
    })
  },
)
