import { beforeAll, describe, expect, it } from 'vitest'
import {
  allSeedingStatsSchema,
  seedRecordSchema,
  torrentSchema,
  userDetailSchema,
  userSchema,
  userSeedingStatsSchema,
  type SeedRecord,
  type Torrent,
  type User,
} from '@shared/entities'
import { messages } from '@shared/messages'
import { hashPassword } from '../auth/password'
import { derive } from '../derive'
import { localDay } from '../domain/local-day'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { recordDailyStats } from '../stats/daily'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'
const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

type Paged<T> = { list: T[]; total: number }

describe.each(openTestDatabases())('seeding read API on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, bob: 0, carol: 0, banned: 0, helper: 0 }
  const tokens = { admin: '', alice: '', bob: '' }
  /** Every record, as the API shows it, for checking sorts and filters against plain JS. */
  let all: SeedRecord[] = []

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    const hash = await hashPassword(MEMBER_PASSWORD, testScrypt)
    ids.alice = await w.member('alice', 1001, { passwordHash: hash })
    ids.bob = await w.member('Bob', 1002, { passwordHash: hash })
    ids.carol = await w.member('carol_wang', 1003, { passwordHash: hash })
    ids.banned = await w.member('banned', 1004, { passwordHash: hash, status: 0 })
    ids.helper = await w.member('helper', 1005, { role: 'admin', passwordHash: hash })
    await w.team(1, 'CedarHD')
    await w.team(2, 'MistyBay')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, NOW, null)
    const names = [
      'Silent.Harbor.2019.1080p.BluRay.x264-CedarHD',
      '星河烟火 Lost.Voyage.2021.2160p.WEB-DL-MistyBay',
      'The.Paper.Kites.2018.FLAC',
      'Iron.Tide.2020.1080p.WEB-DL-CedarHD',
      'Glass_Orchard.100%.2017',
    ]
    for (let i = 0; i < 30; i++) {
      await w.torrent(1 + i, {
        name: `${names[i % names.length]}.${i}`,
        team: (i % 3) + 1 > 2 ? null : (i % 3) + 1,
        size: (1 + (i % 7)) * GIB,
        added: NOW - i * 86_400_000,
        seeders: i % 11,
      })
    }
    const uids = [1001, 1002, 1003, 1004]
    for (let i = 0; i < 30; i++) {
      for (const [k, uid] of uids.entries()) {
        if ((i + k) % 2 === 0)
          await w.snatch(uid, 1 + i, {
            finished: (i + k) % 4 === 0,
            uploaded: ((i * 7 + k * 3) % 13) * GIB,
            seedtime: ((i * 5 + k) % 17) * 3600,
            lastAction: NOW - (i + k) * 3600_000,
          })
        if ((i + k) % 3 === 0) await w.peer(uid, 1 + i, { seeder: true, lastAction: NOW - ((i + k) % 5) * MIN })
        if ((i * (k + 1)) % 4 === 1) await w.claim(uid, 1 + i)
      }
    }
    await w.assign(ids.alice, 2, NOW - 5 * 86_400_000)
    await w.assign(ids.alice, 29, NOW - 2 * 86_400_000)
    await w.assign(ids.carol, 7, NOW - 3 * 86_400_000)
    await derive(t.db.database, { now: NOW })
    await recordDailyStats(db, localDay(NOW, 'Asia/Shanghai'))

    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.alice = await t.login('alice', MEMBER_PASSWORD)
    tokens.bob = await t.login('bob', MEMBER_PASSWORD)
    all = (await pageSeed(tokens.admin, { page: 1, pageSize: 200 })).list
  })

  async function pageSeed(token: string, body: object) {
    const res = await t.call<Paged<SeedRecord>>('POST', '/user/page-seed', { token, body })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data
  }

  describe('access', () => {
    const adminOnly: [string, string, object?][] = [
      ['GET', '/user/list'],
      ['POST', '/user/page-admin', { page: 1, pageSize: 10 }],
      ['POST', '/user/page-normal', { page: 1, pageSize: 10 }],
      ['POST', '/torrent/page', { page: 1, pageSize: 10 }],
      ['GET', '/statistics/refresh-index-statistics-cache'],
    ]
    const memberCalls: [string, string, object?][] = [
      ['POST', '/user/page-seed', { page: 1, pageSize: 10 }],
      ['GET', `/user/1`],
      ['GET', '/statistics/all-seeding-sta'],
      ['GET', '/statistics/user-seeding-sta'],
    ]

    it('anonymous callers get 401 on every call, before any validation', async () => {
      for (const [method, path, body] of [...adminOnly, ...memberCalls]) {
        const res = await t.call(method as 'GET' | 'POST', path, { body: body ? { ...body, pageSize: 'nonsense' } : undefined })
        expect(res.status, path).toBe(401)
        expect(res.body.msg).toBe(messages.notLoggedIn)
      }
    })

    it('members get 403 on admin calls', async () => {
      for (const [method, path, body] of adminOnly) {
        const res = await t.call(method as 'GET' | 'POST', path, { token: tokens.alice, body })
        expect(res.status, path).toBe(403)
        expect(res.body).toEqual({ code: 403, msg: messages.forbidden, data: null })
      }
    })

    it('a banned member cannot log in, and a session of a member banned later stops working', async () => {
      const login = await t.call('POST', '/user/login', { body: { username: 'banned', password: MEMBER_PASSWORD } })
      expect(login.status).toBe(403)
      const token = await t.login('carol_wang', MEMBER_PASSWORD)
      await t.db.database.db.updateTable('users').set({ status: 0 }).where('id', '=', ids.carol).execute()
      try {
        const res = await t.call('POST', '/user/page-seed', { token, body: { page: 1, pageSize: 10 } })
        expect(res.status).toBe(401)
      } finally {
        await t.db.database.db.updateTable('users').set({ status: 2 }).where('id', '=', ids.carol).execute()
      }
    })

    it('user.detail: a member sees their own, not another (403); admins see anyone; unknown ids are 404', async () => {
      const own = await t.call<unknown>('GET', `/user/${ids.alice}`, { token: tokens.alice })
      expect(own.status).toBe(200)
      expect(userDetailSchema.parse(own.body.data)).toMatchObject({ id: ids.alice, username: 'alice', siteUid: 1001 })
      expect((await t.call('GET', `/user/${ids.bob}`, { token: tokens.alice })).status).toBe(403)
      expect((await t.call('GET', `/user/${ids.bob}`, { token: tokens.admin })).status).toBe(200)
      expect((await t.call('GET', '/user/999999', { token: tokens.admin })).status).toBe(404)
      expect((await t.call('GET', '/user/abc', { token: tokens.admin })).status).toBe(400)
    })
  })

  describe('page-seed', () => {
    it('returns valid records with an exact total', async () => {
      const page = await pageSeed(tokens.admin, { page: 1, pageSize: 10 })
      expect(page.list).toHaveLength(10)
      for (const record of page.list) seedRecordSchema.parse(record)
      const count = await t.db.database.db
        .selectFrom('seed_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expect(page.total).toBe(Number(count.n))
      expect(all).toHaveLength(page.total)
    })

    it('forces a member to their own records, even when they ask for another userId', async () => {
      const own = await pageSeed(tokens.alice, { page: 1, pageSize: 200 })
      const asked = await pageSeed(tokens.alice, { page: 1, pageSize: 200, userId: ids.bob })
      expect(own.total).toBeGreaterThan(0)
      expect(asked).toEqual(own)
      expect(own.list.every((r) => r.userId === ids.alice && r.username === 'alice')).toBe(true)
      expect(own.total).toBe(all.filter((r) => r.userId === ids.alice).length)
    })

    it('admins filter by any member', async () => {
      const bob = await pageSeed(tokens.admin, { page: 1, pageSize: 200, userId: ids.bob })
      expect(bob.list.map((r) => r.id).sort()).toEqual(
        all
          .filter((r) => r.userId === ids.bob)
          .map((r) => r.id)
          .sort(),
      )
    })

    it('sorts by every allowed field in both directions, ties broken by id, with stable pages', async () => {
      const key: Record<string, (r: SeedRecord) => number> = {
        uploaded: (r) => r.uploaded,
        downloaded: (r) => r.downloaded,
        seedTimeSec: (r) => r.seedTimeSec,
        lastAction: (r) => (r.lastAction ? Date.parse(r.lastAction) : 0),
        assignedAt: (r) => (r.assignedAt ? Date.parse(r.assignedAt) : 0),
        size: (r) => r.size,
        status: (r) => r.status,
      }
      for (const [field, of] of Object.entries(key)) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const sign = direction === 'ASC' ? 1 : -1
          const expected = [...all].sort((a, b) => sign * (of(a) - of(b) || a.id - b.id)).map((r) => r.id)
          const first = await pageSeed(tokens.admin, { page: 1, pageSize: 7, orderBy: `${field} ${direction}` })
          const second = await pageSeed(tokens.admin, { page: 2, pageSize: 7, orderBy: `${field} ${direction}` })
          expect(
            [...first.list, ...second.list].map((r) => r.id),
            `${field} ${direction}`,
          ).toEqual(expected.slice(0, 14))
        }
      }
    })

    it('with a torrent name, sorts and pages the same way (PostgreSQL reads a narrow match first, then sorts)', async () => {
      const named = all.filter((r) => r.torrentName.toLowerCase().includes('harbor'))
      expect(named.length).toBeGreaterThan(4)
      const key: Record<string, (r: SeedRecord) => number> = {
        uploaded: (r) => r.uploaded,
        lastAction: (r) => (r.lastAction ? Date.parse(r.lastAction) : 0),
        status: (r) => r.status,
      }
      for (const [field, of] of Object.entries(key)) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const sign = direction === 'ASC' ? 1 : -1
          const expected = [...named].sort((a, b) => sign * (of(a) - of(b) || a.id - b.id)).map((r) => r.id)
          const body = { pageSize: 3, torrentName: 'harbor', orderBy: `${field} ${direction}` }
          const first = await pageSeed(tokens.admin, { page: 1, ...body })
          const second = await pageSeed(tokens.admin, { page: 2, ...body })
          expect(
            [...first.list, ...second.list].map((r) => r.id),
            `${field} ${direction}`,
          ).toEqual(expected.slice(0, 6))
          expect(first.total).toBe(named.length)
        }
      }
    })

    it('filters by status, seed type, claim state, assignment, torrent and torrent name, with exact totals', async () => {
      const cases: [object, (r: SeedRecord) => boolean][] = [
        [{ status: 3 }, (r) => r.status === 3],
        [{ status: 7, userId: ids.alice }, (r) => r.status === 7 && r.userId === ids.alice],
        [{ seedType: 1 }, (r) => r.seedType === 1],
        [{ claimState: 2, seedType: 2 }, (r) => r.claimState === 2 && r.seedType === 2],
        [{ assigned: 1 }, (r) => r.assigned === 1],
        [{ torrentId: 3 }, (r) => r.torrentId === 3],
        [{ torrentName: 'harbor' }, (r) => r.torrentName.toLowerCase().includes('harbor')],
        [{ torrentName: '星河' }, (r) => r.torrentName.includes('星河')],
        [{ torrentName: '100%' }, (r) => r.torrentName.includes('100%')],
        [{ torrentName: '_' }, (r) => r.torrentName.includes('_')],
        [
          { torrentName: 'Kites', status: 4, userId: ids.bob },
          (r) => r.torrentName.includes('Kites') && r.status === 4 && r.userId === ids.bob,
        ],
        [{ torrentName: 'no such torrent' }, () => false],
      ]
      for (const [filter, match] of cases) {
        const page = await pageSeed(tokens.admin, { page: 1, pageSize: 200, ...filter })
        const expected = all.filter(match)
        expect(page.total, JSON.stringify(filter)).toBe(expected.length)
        expect(page.list.map((r) => r.id).sort(), JSON.stringify(filter)).toEqual(expected.map((r) => r.id).sort())
      }
    })

    it("an empty filter is no filter; the seed clients' keyword is ignored", async () => {
      const page = await pageSeed(tokens.admin, { page: 1, pageSize: 5, torrentName: '   ', keyword: 'x' })
      expect(page.total).toBe(all.length)
    })

    it('refuses a misspelt filter with 400 naming it, rather than answering every row', async () => {
      const res = await t.call('POST', '/user/page-seed', { token: tokens.admin, body: { page: 1, pageSize: 5, stauts: 3 } })
      expect(res.status).toBe(400)
      expect(res.body.msg).toContain('stauts')
    })

    it('a page beyond the end is empty with the same total', async () => {
      const page = await pageSeed(tokens.admin, { page: 1000, pageSize: 50 })
      expect(page).toEqual({ list: [], total: all.length })
    })

    it('a page asked again answers the same until a derivation commits, then shows what it changed', async () => {
      const { db } = t.db.database
      const w = new SeedingWorld(db)
      const body = { page: 1, pageSize: 20, torrentId: 3 }
      const before = await pageSeed(tokens.admin, body)
      const [record] = before.list.filter((r) => r.userId === ids.carol)
      const original = { name: before.list[0].torrentName, uploaded: record.uploaded }
      // The mirror changes (a sync's source step, or another process's): nothing is derived yet.
      await w.updateTorrent(3, { name: 'Renamed.Torrent.2026' })
      await w.updateSnatch(1003, 3, { uploaded: original.uploaded + GIB })
      expect(await pageSeed(tokens.admin, body)).toEqual(before)
      // Derived outside this app's requests, as another server process would: the next answer is new.
      await derive(t.db.database, { now: NOW })
      const after = await pageSeed(tokens.admin, body)
      expect(after.list.every((r) => r.torrentName === 'Renamed.Torrent.2026')).toBe(true)
      expect(after.list.find((r) => r.id === record.id)?.uploaded).toBe(original.uploaded + GIB)
      expect(
        (await pageSeed(tokens.alice, { page: 1, pageSize: 200 })).list.filter((r) => r.torrentId === 3).map((r) => r.torrentName),
      ).toEqual(all.filter((r) => r.torrentId === 3 && r.userId === ids.alice).map(() => 'Renamed.Torrent.2026'))
      // Put the data back for the other tests.
      await w.updateTorrent(3, { name: original.name })
      await w.updateSnatch(1003, 3, { uploaded: original.uploaded })
      await derive(t.db.database, { now: NOW })
      expect(await pageSeed(tokens.admin, body)).toEqual(before)
    })

    it('refuses bad paging and sorting with 400 and a Chinese message', async () => {
      const bad: [object, RegExp][] = [
        [{ page: 1, pageSize: 0 }, /每页条数/],
        [{ page: 1, pageSize: 201 }, /每页条数/],
        [{ page: 1, pageSize: 'ten' }, /每页条数/],
        [{ page: 0, pageSize: 10 }, /页码/],
        [{ pageSize: 10 }, /请输入页码/],
        [{ page: 1, pageSize: 10, orderBy: 'username ASC' }, /排序：只能按 uploaded、downloaded/],
        [{ page: 1, pageSize: 10, orderBy: 'uploaded UP' }, /排序/],
        [{ page: 1, pageSize: 10, orderBy: 'uploaded; drop table users' }, /排序/],
        [{ page: 1, pageSize: 10, status: 9 }, /状态/],
      ]
      for (const [body, msg] of bad) {
        const res = await t.call('POST', '/user/page-seed', { token: tokens.admin, body })
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.msg).toMatch(msg)
      }
    })
  })

  describe('users', () => {
    it('user.list lists every member and admin who is not deleted', async () => {
      await t.db.database.db.updateTable('users').set({ status: 1 }).where('id', '=', ids.carol).execute()
      try {
        const res = await t.call<{ id: number; username: string }[]>('GET', '/user/list', { token: tokens.admin })
        expect(res.body.data.map((u) => u.username).sort()).toEqual(['Bob', 'admin', 'alice', 'banned', 'helper'].sort())
      } finally {
        await t.db.database.db.updateTable('users').set({ status: 2 }).where('id', '=', ids.carol).execute()
      }
    })

    it('page-admin lists admins; page-normal lists members with their figures, filters and sorts', async () => {
      const admins = await t.call<Paged<User>>('POST', '/user/page-admin', {
        token: tokens.admin,
        body: { page: 1, pageSize: 10, orderBy: 'username ASC' },
      })
      expect(admins.body.data.list.map((u) => u.username)).toEqual(['admin', 'helper'])
      expect(admins.body.data.total).toBe(2)

      const members = await t.call<Paged<User>>('POST', '/user/page-normal', {
        token: tokens.admin,
        body: { page: 1, pageSize: 10, orderBy: 'seedingCount DESC' },
      })
      expect(members.body.data.total).toBe(4)
      for (const u of members.body.data.list) userSchema.parse(u)
      const counts = members.body.data.list.map((u) => u.seedingCount)
      expect(counts).toEqual([...counts].sort((a, b) => b - a))
      const alice = members.body.data.list.find((u) => u.id === ids.alice)!
      const seeding = await t.db.database.db
        .selectFrom('seed_records')
        .select(['size'])
        .where('user_id', '=', ids.alice)
        .where('seeding', '=', 1)
        .execute()
      expect(alice.seedingCount).toBe(seeding.length)
      expect(alice.seedingSize).toBe(seeding.reduce((sum, r) => sum + Number(r.size), 0))
      expect(alice.assignedCount).toBe(2)

      const filtered: [object, string[]][] = [
        [{ status: 0 }, ['banned']],
        // Names sort regardless of case (banned before Bob), as an admin reads them.
        [{ username: 'B' }, ['banned', 'Bob']],
        [{ username: '_w' }, ['carol_wang']],
        [{ siteUid: 1002 }, ['Bob']],
      ]
      for (const [filter, names] of filtered) {
        const res = await t.call<Paged<User>>('POST', '/user/page-normal', {
          token: tokens.admin,
          body: { page: 1, pageSize: 10, orderBy: 'username ASC', ...filter },
        })
        expect(
          res.body.data.list.map((u) => u.username),
          JSON.stringify(filter),
        ).toEqual(names)
        expect(res.body.data.total).toBe(names.length)
      }
    })

    it('a member’s figures match their records', async () => {
      const res = await t.call<User & { byStatus: Record<string, number> }>('GET', `/user/${ids.bob}`, { token: tokens.admin })
      const bob = all.filter((r) => r.userId === ids.bob)
      const byStatus = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((s) => [s, bob.filter((r) => r.status === s).length]))
      expect(res.body.data.byStatus).toEqual(byStatus)
      expect(res.body.data.assignedCount).toBe(bob.filter((r) => r.assigned === 1).length)
    })
  })

  describe('torrent.page', () => {
    async function torrents(body: object) {
      const res = await t.call<Paged<Torrent>>('POST', '/torrent/page', { token: tokens.admin, body })
      expect(res.status, res.body.msg).toBe(200)
      return res.body.data
    }

    it('lists torrents with labels, filters and sorts', async () => {
      const page = await torrents({ page: 1, pageSize: 100 })
      expect(page.total).toBe(30)
      for (const torrent of page.list) torrentSchema.parse(torrent)
      const first = page.list[0]
      expect(first).toMatchObject({ id: 1, siteTorrentId: 1, targetKeepers: 3, team: 'CedarHD', seedType: 1, seedTypeSource: 'rule' })
      expect(page.list.map((x) => x.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1)) // newest first by default

      const official = await torrents({ page: 1, pageSize: 100, seedType: 1 })
      expect(official.total).toBe(page.list.filter((x) => x.seedType === 1).length)
      expect(official.list.every((x) => x.team === 'CedarHD')).toBe(true)
      const misty = await torrents({ page: 1, pageSize: 100, team: 'mistybay' })
      expect(misty.list.every((x) => x.team === 'MistyBay')).toBe(true)
      expect(misty.total).toBe(page.list.filter((x) => x.team === 'MistyBay').length)
      const named = await torrents({ page: 1, pageSize: 100, name: 'harbor' })
      expect(named.list.map((x) => x.id).sort()).toEqual(
        page.list
          .filter((x) => /harbor/i.test(x.name))
          .map((x) => x.id)
          .sort(),
      )
      const assigned = await torrents({ page: 1, pageSize: 100, assigned: 1 })
      expect(assigned.list.map((x) => x.id).sort((a, b) => a - b)).toEqual([2, 7, 29])
      for (const completion of [1, 2, 3, 4]) {
        const c = await torrents({ page: 1, pageSize: 100, completion })
        expect(c.total).toBe(page.list.filter((x) => x.completion === completion).length)
      }

      const byKeepers = await torrents({ page: 1, pageSize: 100, orderBy: 'keepers DESC' })
      const keepers = byKeepers.list.map((x) => x.keepers)
      expect(keepers).toEqual([...keepers].sort((a, b) => b - a))
      const byName = await torrents({ page: 1, pageSize: 100, orderBy: 'name ASC' })
      const names = byName.list.map((x) => x.name)
      expect(names).toEqual([...names].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.from(a) > Buffer.from(b) ? 1 : 0)))
      expect(
        (await t.call('POST', '/torrent/page', { token: tokens.admin, body: { page: 1, pageSize: 10, orderBy: 'uploaded DESC' } })).status,
      ).toBe(400)
    })
  })

  describe('statistics', () => {
    it('all-seeding-sta is served from the cache; refresh recomputes it (computedAt moves)', async () => {
      clock.set(NOW + 10 * MIN)
      const first = await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token: tokens.alice })
      expect(first.status).toBe(200)
      const stats = allSeedingStatsSchema.parse(first.body.data)
      expect(stats.computedAt).toBe(new Date(NOW + 10 * MIN).toISOString())
      expect(stats).toMatchObject({ topWages: [], estimatedWages: 0, members: 4 - 1 /* banned */ })
      expect(Object.values(stats.byStatus).reduce((a, b) => a + b, 0)).toBe(all.length)
      expect(stats.byStatus[3]).toBe(all.filter((r) => r.status === 3).length)
      expect(stats.officialTorrents).toBe(10)
      expect(stats.daily.at(-1)).toMatchObject({ date: '2026-01-15', seedingCount: expect.any(Number) })

      clock.set(NOW + 20 * MIN)
      const cached = await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token: tokens.admin })
      expect(allSeedingStatsSchema.parse(cached.body.data).computedAt).toBe(stats.computedAt)

      const refreshed = await t.call<unknown>('GET', '/statistics/refresh-index-statistics-cache', { token: tokens.admin })
      expect(allSeedingStatsSchema.parse(refreshed.body.data).computedAt).toBe(new Date(NOW + 20 * MIN).toISOString())
      const after = await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token: tokens.alice })
      expect(allSeedingStatsSchema.parse(after.body.data).computedAt).toBe(new Date(NOW + 20 * MIN).toISOString())
    })

    it('a refresh in the same millisecond and data version with other figures is seen by the next call', async () => {
      const { db } = t.db.database
      const before = allSeedingStatsSchema.parse(
        (await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token: tokens.admin })).body.data,
      )
      // A new member changes the figures without a derivation (no new data version); the clock stands still.
      const dave = await new SeedingWorld(db).member('dave', 1009)
      const refreshed = allSeedingStatsSchema.parse(
        (await t.call<unknown>('GET', '/statistics/refresh-index-statistics-cache', { token: tokens.admin })).body.data,
      )
      expect(refreshed.computedAt).toBe(before.computedAt)
      expect(refreshed).not.toEqual(before)
      const after = await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token: tokens.alice })
      expect(allSeedingStatsSchema.parse(after.body.data)).toEqual(refreshed)
      expect(refreshed.members).toBe(before.members + 1)
      await db.deleteFrom('users').where('id', '=', dave).execute()
    })

    it('user-seeding-sta: members get their own whatever userId says; admins anyone; days bounds', async () => {
      const own = await t.call<unknown>('GET', '/statistics/user-seeding-sta', {
        token: tokens.alice,
        query: { userId: String(ids.bob), days: '7' },
      })
      const stats = userSeedingStatsSchema.parse(own.body.data)
      expect(stats.userId).toBe(ids.alice)
      expect(stats).toMatchObject({ estimatedWage: 0, rank: null })
      expect(stats.daily).toHaveLength(1)
      expect(Object.values(stats.byStatus).reduce((a, b) => a + b, 0)).toBe(all.filter((r) => r.userId === ids.alice).length)
      const admin = await t.call<unknown>('GET', '/statistics/user-seeding-sta', {
        token: tokens.admin,
        query: { userId: String(ids.bob) },
      })
      expect(userSeedingStatsSchema.parse(admin.body.data).userId).toBe(ids.bob)
      expect((await t.call('GET', '/statistics/user-seeding-sta', { token: tokens.admin, query: { userId: '999999' } })).status).toBe(404)
      expect((await t.call('GET', '/statistics/user-seeding-sta', { token: tokens.admin, query: { days: '0' } })).status).toBe(400)
      expect((await t.call('GET', '/statistics/user-seeding-sta', { token: tokens.admin, query: { days: '366' } })).status).toBe(400)
    })
  })
})
