/**
 * Who can be given a torrent, and who already seeds it — one rule for the picker (/task/members), the
 * automatic plan (/task/auto-assign) and manual assign (/task/assign):
 * - a member can keep torrents only with status 正常, a site uid, and a site account the site's announce
 *   takes (not disabled — NexusPHP `users.enabled = no` —, nor deleted where the mirror would know);
 * - the plan never gives a torrent to a member with an active seeding peer on it, whatever the record's
 *   status says besides (5 无工资, 6 发布者, 2 下载中 with a second client seeding) — and still gives it
 *   to an uploader who does not seed it;
 * - an assignment only to a member who cannot keep the torrent (banned, deleted, site account disabled)
 *   leaves the torrent a candidate of the plan.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { SeedStatus } from '@shared/enums'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const RECENT = NOW - 60_000

interface Pair {
  torrentId: number
  userId: number
}

describe.each(openTestDatabases())('who can keep a torrent ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  const m: Record<string, number> = {}
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    // A source that mirrors the site's whole users table: a member whose site account is gone is known as deleted.
    await db.updateTable('sync_state').set({ source: 'nexusphp' }).where('id', '=', 1).execute()
    const w = new SeedingWorld(db)
    m.noWage = await w.member('no-wage', 1001)
    m.uploader = await w.member('uploader', 1002)
    m.twoClients = await w.member('two-clients', 1003)
    m.idle = await w.member('idle', 1004)
    m.disabled = await w.member('disabled', 1005, { siteEnabled: false })
    m.gone = await w.member('gone', 1006)
    await db.deleteFrom('site_users').where('id', '=', 1006).execute()
    m.banned = await w.member('banned', 1007)
    m.deleted = await w.member('deleted', 1008)
    m.nouid = await w.member('nouid', null)
    m.keeperAdmin = await w.member('keeper-admin', 1009, { role: 'admin' })
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 3 }, NOW, null)

    // 1: made 官种 by hand below minSizeGiB — no-wage claims it and seeds: status 5 无工资.
    await w.torrent(1, { team: 1, size: 0.5 * GIB })
    await w.override(1, 1)
    await w.claim(1001, 1)
    await w.peer(1001, 1, { seeder: true, lastAction: RECENT })
    // 2: uploaded by uploader, who seeds it: status 6 发布者.
    await w.torrent(2, { team: 1, size: 4 * GIB, owner: 1002 })
    await w.peer(1002, 2, { seeder: true, lastAction: RECENT })
    // 3: two-clients downloads it on one client and seeds it on another: a keeper, status 4 做种中（未认领）.
    await w.torrent(3, { team: 1, size: 4 * GIB })
    await w.peer(1003, 3, { seeder: false, lastAction: RECENT })
    await w.peer(1003, 3, { seeder: true, lastAction: RECENT })
    // 4: uploaded by idle, who does not seed it (status 6, no peer): idle can still be given it.
    await w.torrent(4, { team: 1, size: 4 * GIB, owner: 1004 })
    // 5, 6, 7: assigned only to members who cannot keep them (banned, deleted here; site account disabled).
    for (const id of [5, 6, 7]) await w.torrent(id, { team: 1, size: 4 * GIB })
    await w.assign(m.banned, 5)
    await w.assign(m.deleted, 6)
    await w.assign(m.disabled, 7)
    // 8: assigned to a member who can keep it: not a candidate.
    await w.torrent(8, { team: 1, size: 4 * GIB })
    await w.assign(m.idle, 8)
    await w.setMemberStatus(m.banned, 0)
    await w.setMemberStatus(m.deleted, 1)
    await derive(t.db.database, { now: NOW })
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    m.admin = admin.id
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  it('the world is what the cases need', async () => {
    const w = new SeedingWorld(t.db.database.db)
    expect(await siteAccountsMirrored(t.db.database.db)).toBe(true)
    expect(await w.record(m.noWage, 1)).toMatchObject({ status: SeedStatus.NoWage, seeding: 1 })
    expect(await w.record(m.uploader, 2)).toMatchObject({ status: SeedStatus.Uploader, seeding: 1 })
    expect(await w.record(m.twoClients, 3)).toMatchObject({ status: SeedStatus.SeedingUnclaimed, seeding: 1 })
    expect(await w.record(m.idle, 4)).toMatchObject({ status: SeedStatus.Uploader, seeding: 0 })
    // Keepers (docs/domain.md §3): two-clients on 3 and the uploader seeding 2; not no-wage (5) on 1,
    // nor idle, who uploaded 4 but does not seed it.
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8])
      expect(await w.label(id)).toMatchObject({ seed_type: 1, keepers: id === 2 || id === 3 ? 1 : 0 })
  })

  it('/task/members leaves out members whose site account is disabled or deleted, and those without a site uid', async () => {
    const res = await t.call<{ username: string }[]>('GET', '/task/members', { token })
    expect(res.status).toBe(200)
    expect(res.body.data.map((x) => x.username)).toEqual(['idle', 'keeper-admin', 'no-wage', 'two-clients', 'uploader'])
  })

  describe('/task/auto-assign', () => {
    // perTorrent 5 > the 4 members who can be planned: each torrent gets every one of them that may have it.
    const plan = async () => {
      const res = await t.call<{ plan: Pair[] }>('POST', '/task/auto-assign', { token, body: { preview: true, perTorrent: 5 } })
      expect(res.status, res.body.msg).toBe(200)
      const byTorrent: Record<number, number[]> = {}
      for (const p of res.body.data.plan) (byTorrent[p.torrentId] ??= []).push(p.userId)
      for (const list of Object.values(byTorrent)) list.sort((a, b) => a - b)
      return byTorrent
    }

    it('never plans a torrent for a member seeding it, whatever the status (5, 6, 2); an uploader not seeding it is planned', async () => {
      const byTorrent = await plan()
      expect(byTorrent[1]).not.toContain(m.noWage)
      expect(byTorrent[2]).not.toContain(m.uploader)
      expect(byTorrent[3]).not.toContain(m.twoClients)
      expect(byTorrent[4]).toContain(m.idle)
    })

    it('plans only 保种员 who can keep torrents (not a disabled or deleted site account, not an admin)', async () => {
      const planned = [...new Set(Object.values(await plan()).flat())].sort((a, b) => a - b)
      expect(planned).toEqual([m.noWage, m.uploader, m.twoClients, m.idle])
    })

    it('plans again a torrent assigned only to members who cannot keep it (banned, deleted, site account disabled)', async () => {
      const byTorrent = await plan()
      const all = [m.noWage, m.uploader, m.twoClients, m.idle]
      for (const id of [5, 6, 7]) expect(byTorrent[id], `torrent ${id}`).toEqual(all)
      expect(byTorrent[8]).toBeUndefined() // assigned to idle, who can keep it
    })

    it('the whole plan', async () => {
      const all = [m.noWage, m.uploader, m.twoClients, m.idle]
      expect(await plan()).toEqual({
        1: all.filter((id) => id !== m.noWage),
        2: all.filter((id) => id !== m.uploader),
        3: all.filter((id) => id !== m.twoClients),
        4: all,
        5: all,
        6: all,
        7: all,
      })
    })
  })

  it('/task/assign refuses members who cannot keep torrents by name and reason (as the picker leaves them out), writing nothing', async () => {
    const before = await snapshot(t)
    const cases: [number[], string][] = [
      [[m.admin], 'admin 没有绑定站点 UID，不能分配种子'],
      [[m.idle, m.nouid], 'nouid 没有绑定站点 UID，不能分配种子'],
      [[m.disabled], 'disabled 的站点账号已被禁用，不能分配种子'],
      [[m.gone], 'gone 的站点账号已被站点删除，不能分配种子'],
      [[m.banned], '只能分配给状态正常的用户：banned'],
      [
        [m.gone, m.disabled, m.idle, m.admin, m.banned, m.nouid],
        '只能分配给状态正常的用户：banned；admin、nouid 没有绑定站点 UID，不能分配种子；disabled 的站点账号已被禁用，不能分配种子；gone 的站点账号已被站点删除，不能分配种子',
      ],
    ]
    for (const [userIds, msg] of cases) {
      const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [4], userIds } })
      expect(res.status, msg).toBe(409)
      expect(res.body.msg).toBe(msg)
    }
    expect(await snapshot(t)).toEqual(before)
  })

  it('/task/assign takes exactly the members /task/members offers', async () => {
    const { db } = t.db.database
    const offered = (await t.call<{ id: number }[]>('GET', '/task/members', { token })).body.data.map((x) => x.id).sort((a, b) => a - b)
    const users = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((u) => u.id)
    const taken: number[] = []
    for (const id of users) {
      const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [4], userIds: [id] } })
      expect([200, 409]).toContain(res.status)
      if (res.status === 200) taken.push(id)
    }
    expect(taken).toEqual(offered)
    await t.call('POST', '/task/unassign', { token, body: { torrentIds: [4] } })
  })
})
