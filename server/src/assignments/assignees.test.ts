/**
 * 任务分配 names who each torrent is assigned to (/task/assignees), so one member can be removed
 * from a torrent with /task/unassign { userIds }, and its picker offers only members who can seed
 * (/task/members: status 正常 with a site uid and a site account that is not disabled — never an admin
 * without one; who-can-keep.test.ts has the whole rule), with their load.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('assignees and the member picker ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  const m: Record<string, number> = {}
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    m.carol = await w.member('carol', 1003)
    m.Bob = await w.member('Bob', 1002)
    m.alice = await w.member('alice', 1001)
    m.banned = await w.member('banned', 1004, { status: 0 })
    m.nouid = await w.member('nouid', null)
    m.keeperAdmin = await w.member('keeper-admin', 1005, { role: 'admin' })
    m.siteDisabled = await w.member('site-disabled', 1006, { siteEnabled: false })
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 3 }, NOW, null)
    for (const id of [1, 2, 3]) await w.torrent(id, { team: 1, size: 4 * GIB })
    // alice seeds torrent 3 (a peer announced just now).
    await w.peer(1001, 3, { seeder: true, lastAction: NOW - 60_000 })
    await w.assign(m.carol, 1, Date.UTC(2026, 0, 2))
    await w.assign(m.alice, 1, Date.UTC(2026, 0, 3))
    await w.assign(m.Bob, 1, Date.UTC(2026, 0, 4))
    await w.assign(m.alice, 2, Date.UTC(2026, 0, 5))
    // Assigned before the account was banned (or deleted): the assignment stays, the status says so.
    await w.assign(m.banned, 3, Date.UTC(2026, 0, 6))
    m.deleted = await w.member('deleted', 1007, { status: 1 })
    await w.assign(m.deleted, 3, Date.UTC(2026, 0, 7))
    await derive(t.db.database, { now: NOW })
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  it('/task/members offers members in status 正常 with a usable site account, by name, with assigned and seeding counts', async () => {
    const res = await t.call('GET', '/task/members', { token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: m.alice, username: 'alice', role: 'normal', assignedCount: 2, seedingCount: 1 },
      { id: m.Bob, username: 'Bob', role: 'normal', assignedCount: 1, seedingCount: 0 },
      { id: m.carol, username: 'carol', role: 'normal', assignedCount: 1, seedingCount: 0 },
      { id: m.keeperAdmin, username: 'keeper-admin', role: 'admin', assignedCount: 0, seedingCount: 0 },
    ])
  })

  it("/task/assignees names each torrent's members; removing one member leaves the others", async () => {
    const before = await t.call('POST', '/task/assignees', { token, body: { torrentIds: [2, 1, 3] } })
    const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString()
    expect(before.body.data).toEqual([
      { torrentId: 1, userId: m.alice, username: 'alice', status: 2, assignedAt: at(3) },
      { torrentId: 1, userId: m.Bob, username: 'Bob', status: 2, assignedAt: at(4) },
      { torrentId: 1, userId: m.carol, username: 'carol', status: 2, assignedAt: at(2) },
      { torrentId: 2, userId: m.alice, username: 'alice', status: 2, assignedAt: at(5) },
      // A banned (0) and a deleted (1) member: named with their status, so 任务分配 can show the torrent has no keeper.
      { torrentId: 3, userId: m.banned, username: 'banned', status: 0, assignedAt: at(6) },
      { torrentId: 3, userId: m.deleted, username: 'deleted', status: 1, assignedAt: at(7) },
    ])
    const one = await t.call('POST', '/task/unassign', { token, body: { torrentIds: [1], userIds: [m.Bob] } })
    expect(one.body.data).toEqual({ removed: 1 })
    const after = await t.call<{ username: string }[]>('POST', '/task/assignees', { token, body: { torrentIds: [1] } })
    expect(after.body.data.map((a) => a.username)).toEqual(['alice', 'carol'])
  })

  it('refuses bad input in Chinese and is for admins only', async () => {
    const empty = await t.call('POST', '/task/assignees', { token, body: { torrentIds: [] } })
    expect(empty.status).toBe(400)
    expect(empty.body.msg).toMatch(/^种子列表：/)
    expect((await t.call('GET', '/task/members')).status).toBe(401)
  })
})
