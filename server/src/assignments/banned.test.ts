/**
 * A torrent the site has banned (NexusPHP `torrents.banned = yes`) cannot be kept, so it cannot be
 * assigned: /task/assign refuses it by name, /task/auto-assign leaves it out (and says so in the log),
 * and /torrent/page marks it — also when an admin's 官种 override keeps it official (the override
 * decides the seed type, not whether anyone can seed it).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { torrentSchema } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { lastLog, snapshot } from '../test/admin-helpers'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('assigning banned torrents ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  const m: Record<string, number> = {}
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    for (const [i, name] of ['m1', 'm2'].entries()) m[name] = await w.member(name, 1001 + i)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 1 }, NOW, null)
    // 1 official; 2 banned (unofficial by rule); 3 banned but made 官种 by hand.
    await w.torrent(1, { team: 1, size: 4 * GIB })
    await w.torrent(2, { team: 1, size: 4 * GIB, banned: true })
    await w.torrent(3, { team: 1, size: 4 * GIB, banned: true })
    await w.override(3, 1)
    await derive(t.db.database, { now: NOW })
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  it('/task/assign refuses a banned torrent by id and writes nothing', async () => {
    const before = await snapshot(t)
    const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [1, 3, 2], userIds: [m.m1] } })
    expect(res.status).toBe(409)
    expect(res.body.msg).toBe('种子已被站点禁止或未审核通过，无法保种，不能分配：2, 3')
    expect(await snapshot(t)).toEqual(before)
  })

  it('/torrent/page marks banned torrents, whatever their seed type', async () => {
    const res = await t.call<{ list: unknown[] }>('POST', '/torrent/page', { token, body: { page: 1, pageSize: 20 } })
    const list = res.body.data.list.map((x) => torrentSchema.parse(x))
    expect(Object.fromEntries(list.map((x) => [x.id, [x.seedType, x.banned]]))).toEqual({ 1: [1, false], 2: [2, true], 3: [1, true] })
  })

  it('/task/auto-assign leaves banned torrents out, even official ones, and logs how many it skipped', async () => {
    const preview = await t.call<{ plan: { torrentId: number }[] }>('POST', '/task/auto-assign', { token, body: { preview: true } })
    expect(preview.body.data.plan.map((p) => p.torrentId)).toEqual([1])
    const done = await t.call<{ created: number }>('POST', '/task/auto-assign', { token, body: { preview: false } })
    expect(done.body.data.created).toBe(1)
    expect((await lastLog(t)).detail).toBe(
      '自动分配：1 个种子分配给 1 人，共 1 条（每个种子最多 1 人）；跳过站点已禁止或未审核通过的种子 1 个',
    )
    expect(await t.db.database.db.selectFrom('assignments').select('torrent_id').execute()).toEqual([{ torrent_id: 1 }])
  })
})
