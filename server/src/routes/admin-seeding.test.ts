/**
 * Admin actions on the seeding side: assignments (manual and automatic), rule versions and manual seed types,
 * each re-labelling torrents and records; bad input writes nothing; one log row per mutation.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { allSeedingStatsSchema, rulesSchema, type Rules } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { lastLog, snapshot } from '../test/admin-helpers'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

type Pair = { torrentId: number; userId: number }

describe.each(openTestDatabases())('admin actions on seeding data ($name)', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock })
  const m: Record<string, number> = {}
  let admin = 0
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    admin = (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id
    for (const [i, name] of ['m1', 'm2', 'm3', 'm4'].entries()) m[name] = await w.member(name, 1001 + i)
    m.keeperAdmin = await w.member('keeper_admin', 1100, { role: 'admin' })
    m.banned = await w.member('banned', 1101, { status: 0 })
    m.noUid = await w.member('no_uid', null)
    await w.team(1, 'CedarHD')
    await w.team(2, 'MistyBay')
    // 1–6 CedarHD (official once the rules say so), 7 MistyBay, 8 CedarHD but small.
    for (let id = 1; id <= 6; id++) await w.torrent(id, { team: 1, size: 4 * GIB })
    await w.torrent(7, { team: 2, size: 4 * GIB })
    await w.torrent(8, { team: 1, size: GIB / 4 })
    // Torrent 1: m1 keeps (claimed, status 3), m2 keeps unclaimed (status 4).
    await w.peer(1001, 1, { seeder: true, lastAction: NOW - 5 * MIN })
    await w.claim(1001, 1)
    await w.peer(1002, 1, { seeder: true, lastAction: NOW - 5 * MIN })
    // Torrent 2: m3 keeps; torrent 3: m1 stopped (status 7, not a keeper).
    await w.peer(1003, 2, { seeder: true, lastAction: NOW - 5 * MIN })
    await w.snatch(1001, 3, { finished: true })
    // Torrent 6 is already assigned (to m4): auto-assign leaves it alone.
    await w.assign(m.m4, 6)
    await derive(t.db.database, { now: NOW })
    token = await createSession(db, admin, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  const label = (id: number) =>
    t.db.database.db.selectFrom('torrent_labels').selectAll().where('torrent_id', '=', id).executeTakeFirstOrThrow()
  const record = (userId: number, torrentId: number) =>
    t.db.database.db
      .selectFrom('seed_records')
      .selectAll()
      .where('user_id', '=', userId)
      .where('torrent_id', '=', torrentId)
      .executeTakeFirst()

  describe('rules', () => {
    it('GET answers the current version; POST saves a new one, logs what changed and re-labels torrents and records', async () => {
      const figures = async () => {
        const stats = allSeedingStatsSchema.parse((await t.call<unknown>('GET', '/statistics/all-seeding-sta', { token })).body.data)
        return { official: stats.officialTorrents, completed: stats.completedOfficial }
      }
      expect(await figures()).toEqual({ official: 0, completed: 0 })
      const cur = await t.call<Rules>('GET', '/config/rules', { token })
      expect(cur.status).toBe(200)
      expect(rulesSchema.parse(cur.body.data)).toEqual({ version: 1, ...defaultRuleBody })
      expect((await label(1)).seed_type).toBe(2)
      expect((await record(m.m1, 1))!.seed_type).toBe(2)
      expect((await label(1)).completion).toBe(3) // unofficial with keepers

      const body = { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 2 }
      const saved = await t.call<Rules>('POST', '/config/rules', { token, body })
      expect(saved.status, saved.body.msg).toBe(200)
      expect(saved.body.data).toEqual({ version: 2, ...body })
      expect((await t.call<Rules>('GET', '/config/rules', { token })).body.data.version).toBe(2)

      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'config.rules', operatorId: admin, targetType: 'rules', targetId: '2' })
      expect(log.detail).toBe('版本 1 → 2：官方制作组：空 → CedarHD；目标保种人数：3 → 2')

      expect(await label(1)).toMatchObject({ seed_type: 1, seed_type_source: 'rule', keepers: 2, completion: 1 })
      expect(await label(2)).toMatchObject({ seed_type: 1, keepers: 1, completion: 2 })
      expect(await label(7)).toMatchObject({ seed_type: 2, completion: 4 })
      expect(await label(8)).toMatchObject({ seed_type: 2 }) // below minSizeGiB
      expect((await record(m.m1, 1))!.seed_type).toBe(1)
      expect((await record(m.m3, 2))!.seed_type).toBe(1)

      // 首页's figures (cached since they were read above) follow, refreshed in the background after the pass.
      await expect.poll(figures, { timeout: 30_000 }).toMatchObject({ completed: 1 })
      expect((await figures()).official).toBeGreaterThanOrEqual(2)
    })

    it('refuses bad rules with the field named in Chinese, and saves nothing', async () => {
      const before = await snapshot(t)
      const base = { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 2 }
      for (const [body, msg] of [
        [{}, /^请输入官方制作组$/],
        [{ ...base, targetKeepers: -1 }, /^目标保种人数：/],
        [{ ...base, targetKeepers: 2.5 }, /^目标保种人数：/],
        [{ ...base, targetKeepers: 1e9 }, /^目标保种人数：/],
        [{ ...base, minSizeGiB: '1' }, /^最小体积（GiB）：/],
        [{ ...base, timezone: 'Mars/Olympus' }, /^时区：不是有效的时区/],
        [{ ...base, officialTeams: ['x'.repeat(10_000)] }, /^官方制作组：/],
        [{ ...base, officialTags: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }, /^官方标签：/],
        [{ ...base, keeperRankFactors: [] }, /^保种顺位系数：/],
        [{ ...base, n0: 1 }, /^做种人数参数 N0：/],
      ] as const) {
        const res = await t.call('POST', '/config/rules', { token, body })
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400)
        expect(res.body.msg).toMatch(msg)
      }
      expect(await snapshot(t)).toEqual(before)
    })

    it("refuses a save made on an older version than the current one: a second admin never silently undoes the first's change", async () => {
      const cur = (await t.call<Rules>('GET', '/config/rules', { token })).body.data
      const { version, ...loaded } = cur
      // Admin A saves first.
      const first = await t.call<Rules>('POST', '/config/rules', { token, body: { ...loaded, targetKeepers: 8, baseVersion: version } })
      expect(first.status, first.body.msg).toBe(200)
      expect(first.body.data).toMatchObject({ version: version + 1, targetKeepers: 8 })
      expect(first.body.data).not.toHaveProperty('baseVersion')
      // Admin B, still on the form loaded from the old version, changes another field.
      const before = await snapshot(t)
      const second = await t.call('POST', '/config/rules', { token, body: { ...loaded, minSizeGiB: 3, baseVersion: version } })
      expect(second.status).toBe(409)
      expect(second.body.msg).toContain(`已被其他管理员保存为 v${version + 1}（你的修改基于 v${version}）`)
      expect(await snapshot(t)).toEqual(before)
      // Saved on the new version (or without a base, as before) it goes through, A's change kept.
      const third = await t.call<Rules>('POST', '/config/rules', {
        token,
        body: { ...first.body.data, version: undefined, minSizeGiB: 3, baseVersion: version + 1 },
      })
      expect(third.status, third.body.msg).toBe(200)
      expect(third.body.data).toMatchObject({ version: version + 2, targetKeepers: 8, minSizeGiB: 3 })
      // The rules as the tests after this one expect them.
      expect((await t.call('POST', '/config/rules', { token, body: loaded })).status).toBe(200)
    })
  })

  describe('torrent.setType', () => {
    it('a manual type outranks the rules, null goes back; updated counts changed torrents; records follow', async () => {
      const res = await t.call<{ updated: number }>('POST', '/torrent/set-type', { token, body: { ids: [7, 1, 7], seedType: 1 } })
      expect(res.body.data).toEqual({ updated: 2 })
      expect(await label(7)).toMatchObject({ seed_type: 1, seed_type_source: 'manual', completion: 2 })
      expect(await label(1)).toMatchObject({ seed_type: 1, seed_type_source: 'manual' })
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'torrent.set-type', operatorId: admin, targetId: null })
      expect(log.detail).toBe(
        '种子类型：按规则 → 官种（手动） 2 个：#1《Torrent.1.2024.1080p.WEB-DL.x264-Test》、#7《Torrent.7.2024.1080p.WEB-DL.x264-Test》',
      )

      const count = log.count
      expect((await t.call('POST', '/torrent/set-type', { token, body: { ids: [7], seedType: 1 } })).body.data).toEqual({ updated: 0 })
      expect((await lastLog(t)).count).toBe(count)

      expect((await t.call('POST', '/torrent/set-type', { token, body: { ids: [1], seedType: 2 } })).body.data).toEqual({ updated: 1 })
      expect(await label(1)).toMatchObject({ seed_type: 2, completion: 3 })
      expect((await record(m.m1, 1))!.seed_type).toBe(2)
      expect((await lastLog(t)).detail).toBe('种子类型：官种（手动） → 非官种（手动） 1 个：#1《Torrent.1.2024.1080p.WEB-DL.x264-Test》')

      expect((await t.call('POST', '/torrent/set-type', { token, body: { ids: [1, 7], seedType: null } })).body.data).toEqual({
        updated: 2,
      })
      expect(await label(1)).toMatchObject({ seed_type: 1, seed_type_source: 'rule', completion: 1 })
      expect(await label(7)).toMatchObject({ seed_type: 2, seed_type_source: 'rule' })
      expect((await record(m.m1, 1))!.seed_type).toBe(1)
      expect(await t.db.database.db.selectFrom('seed_type_overrides').selectAll().execute()).toEqual([])
    })
  })

  describe('bad input on assignments and seed types', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => i + 1)
    it('answers 4xx naming the problem and writes nothing', async () => {
      const before = await snapshot(t)
      const cases: [string, unknown, number, RegExp][] = [
        ['/torrent/set-type', { ids: [], seedType: 1 }, 400, /^编号列表：/],
        ['/torrent/set-type', { ids: many, seedType: 1 }, 400, /^编号列表：/],
        ['/torrent/set-type', { ids: [1] }, 400, /种子类型/],
        ['/torrent/set-type', { ids: [1], seedType: 3 }, 400, /^种子类型：/],
        ['/torrent/set-type', { ids: [-1], seedType: 1 }, 400, /^编号列表：/],
        ['/torrent/set-type', { ids: ['1'], seedType: 1 }, 400, /^编号列表：/],
        ['/torrent/set-type', { ids: [1, 99_999], seedType: 1 }, 404, /^种子不存在：99999$/],
        ['/task/assign', {}, 400, /^请输入种子列表$/],
        ['/task/assign', { torrentIds: [], userIds: [m.m1] }, 400, /^种子列表：/],
        ['/task/assign', { torrentIds: [1], userIds: [] }, 400, /^用户列表：/],
        ['/task/assign', { torrentIds: many, userIds: [m.m1] }, 400, /^种子列表：/],
        ['/task/assign', { torrentIds: [1], userIds: many }, 400, /^用户列表：/],
        ['/task/assign', { torrentIds: [1], userIds: [2 ** 40] }, 400, /^用户列表：/],
        ['/task/assign', { torrentIds: [1, 99_999], userIds: [m.m1] }, 404, /^种子不存在：99999$/],
        ['/task/assign', { torrentIds: [1], userIds: [m.m1, 99_999] }, 404, /^用户不存在：99999$/],
        ['/task/assign', { torrentIds: [1], userIds: [m.m1, m.banned] }, 409, /^只能分配给状态正常的用户：banned$/],
        ['/task/assign', { torrentIds: many.slice(0, 1000), userIds: many.slice(0, 200) }, 400, /一次最多分配 20000 对/],
        ['/task/unassign', { torrentIds: [] }, 400, /^种子列表：/],
        ['/task/unassign', { torrentIds: [1], userIds: [] }, 400, /^用户列表：/],
        ['/task/unassign', { torrentIds: [99_999] }, 404, /^种子不存在：99999$/],
        ['/task/unassign', { torrentIds: [6], userIds: [99_999] }, 404, /^用户不存在：99999$/],
        ['/task/auto-assign', {}, 400, /^请输入预览$/],
        ['/task/auto-assign', { preview: 'yes' }, 400, /^预览：/],
        ['/task/auto-assign', { preview: false, perTorrent: 0 }, 400, /^每个种子的保种人数：/],
        ['/task/auto-assign', { preview: false, perTorrent: 1e9 }, 400, /^每个种子的保种人数：/],
        ['/task/auto-assign', { preview: false, perTorrent: -2 }, 400, /^每个种子的保种人数：/],
      ]
      for (const [path, body, status, msg] of cases) {
        const res = await t.call('POST', path, { token, body })
        expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}: ${res.body.msg}`).toBe(status)
        expect(res.body.msg).toMatch(msg)
      }
      expect(await snapshot(t)).toEqual(before)
    })
  })

  describe('assign and unassign', () => {
    it('assign counts created and existed, labels records and torrents; unassign without users clears the torrent', async () => {
      const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [3, 4, 3], userIds: [m.m1, m.m2] } })
      expect(res.body.data).toEqual({ created: 4, existed: 0 })
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'task.assign', operatorId: admin })
      expect(log.detail).toBe(
        '分配种子 #3《Torrent.3.2024.1080p.WEB-DL.x264-Test》、#4《Torrent.4.2024.1080p.WEB-DL.x264-Test》 给 m1、m2：新增 4 条，已存在 0 条',
      )
      expect(await label(4)).toMatchObject({ assigned: 1 })
      expect(await record(m.m1, 3)).toMatchObject({ assigned: 1, status: 7, assigned_at: NOW })
      expect(await record(m.m2, 4)).toMatchObject({ assigned: 1, status: 1 })
      const member = (await t.call<{ assignedCount: number }>('GET', `/user/${m.m2}`, { token })).body.data
      expect(member.assignedCount).toBe(2)

      expect((await t.call('POST', '/task/assign', { token, body: { torrentIds: [4], userIds: [m.m2, m.m3] } })).body.data).toEqual({
        created: 1,
        existed: 1,
      })
      const count = (await lastLog(t)).count
      expect((await t.call('POST', '/task/assign', { token, body: { torrentIds: [4], userIds: [m.m2] } })).body.data).toEqual({
        created: 0,
        existed: 1,
      })
      expect((await lastLog(t)).count).toBe(count)

      const one = await t.call('POST', '/task/unassign', { token, body: { torrentIds: [3], userIds: [m.m2] } })
      expect(one.body.data).toEqual({ removed: 1 })
      expect(await record(m.m2, 3)).toBeUndefined() // assignment was its only tie
      expect(await record(m.m1, 3)).toMatchObject({ assigned: 1 })
      const all = await t.call('POST', '/task/unassign', { token, body: { torrentIds: [3, 4] } })
      expect(all.body.data).toEqual({ removed: 4 })
      expect((await lastLog(t)).detail).toBe(
        '取消分配种子 #3《Torrent.3.2024.1080p.WEB-DL.x264-Test》、#4《Torrent.4.2024.1080p.WEB-DL.x264-Test》（全部用户）：移除 4 条',
      )
      expect(await record(m.m1, 3)).toMatchObject({ assigned: 2, status: 7 })
      expect(await label(3)).toMatchObject({ assigned: 2 })
      expect(await label(4)).toMatchObject({ assigned: 2 })
    })
  })

  describe('auto-assign', () => {
    it('preview writes nothing; commit writes exactly the preview, never to a keeper, up to perTorrent; then nothing is left', async () => {
      const before = await snapshot(t)
      const preview = await t.call<{ plan: Pair[]; created: number }>('POST', '/task/auto-assign', { token, body: { preview: true } })
      expect(preview.status, preview.body.msg).toBe(200)
      expect(preview.body.data.created).toBe(0)
      expect(await snapshot(t)).toEqual(before)
      const again = await t.call<{ plan: Pair[] }>('POST', '/task/auto-assign', { token, body: { preview: true } })
      expect(again.body.data.plan).toEqual(preview.body.data.plan)

      const plan = preview.body.data.plan
      // Rules: official = CedarHD ≥ 1 GiB → 1–6; 6 is assigned; targetKeepers 2 (rule version 2).
      // 1 has 2 keepers (full); 2 has m3 → needs 1; 3, 4, 5 need 2 each. Members: m1–m4 (normal, uid, active).
      const byTorrent = new Map<number, number[]>()
      for (const p of plan) byTorrent.set(p.torrentId, [...(byTorrent.get(p.torrentId) ?? []), p.userId])
      expect([...byTorrent.keys()].sort()).toEqual([2, 3, 4, 5])
      expect(byTorrent.get(2)).toHaveLength(1)
      expect(byTorrent.get(2)).not.toContain(m.m3)
      for (const id of [3, 4, 5]) expect(byTorrent.get(id)).toHaveLength(2)
      const allowed = new Set([m.m1, m.m2, m.m3, m.m4])
      expect(plan.every((p) => allowed.has(p.userId))).toBe(true)
      // Load spread: m4 had one assignment already; 7 picks over 4 members from loads 0,0,0,1 → all end at 2.
      const load = new Map<number, number>([[m.m4, 1]])
      for (const p of plan) load.set(p.userId, (load.get(p.userId) ?? 0) + 1)
      expect([...load.values()].sort()).toEqual([2, 2, 2, 2])
      // Neediest first: torrents with no keepers come before torrent 2.
      expect(plan[0].torrentId).toBe(3)
      // Each pair named as the preview shows it (a torrent assigned only to an inactive member is not in the 未分配 list).
      const torrentNames = new Map(
        (await t.db.database.db.selectFrom('site_torrents').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
      )
      const usernames = new Map(
        (await t.db.database.db.selectFrom('users').select(['id', 'username']).execute()).map((r) => [r.id, r.username]),
      )
      for (const p of plan as (Pair & { torrentName: string; username: string })[])
        expect([p.torrentName, p.username]).toEqual([torrentNames.get(p.torrentId), usernames.get(p.userId)])
      expect((plan[0] as Pair & { torrentName: string }).torrentName).toBe('Torrent.3.2024.1080p.WEB-DL.x264-Test')

      const committed = await t.call<{ plan: Pair[]; created: number }>('POST', '/task/auto-assign', { token, body: { preview: false } })
      expect(committed.body.data).toEqual({ plan, created: plan.length })
      const rows = await t.db.database.db
        .selectFrom('assignments')
        .select(['torrent_id', 'user_id'])
        .where('torrent_id', 'in', [2, 3, 4, 5])
        .execute()
      expect(rows.map((r) => `${r.torrent_id}:${r.user_id}`).sort()).toEqual(plan.map((p) => `${p.torrentId}:${p.userId}`).sort())
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'task.auto-assign', operatorId: admin, targetType: 'torrent' })
      expect(log.detail).toBe(`自动分配：4 个种子分配给 4 人，共 ${plan.length} 条（每个种子最多 2 人）`)
      for (const id of [2, 3, 4, 5]) expect(await label(id)).toMatchObject({ assigned: 1 })
      for (const p of plan) expect(await record(p.userId, p.torrentId)).toMatchObject({ assigned: 1 })

      const count = log.count
      const rest = await t.call('POST', '/task/auto-assign', { token, body: { preview: false } })
      expect(rest.body.data).toEqual({ plan: [], created: 0 })
      expect((await lastLog(t)).count).toBe(count)
    })

    it('perTorrent overrides the rules and counts current keepers', async () => {
      const { db } = t.db.database
      await t.call('POST', '/task/unassign', { token, body: { torrentIds: [1, 2, 3, 4, 5] } })
      const res = await t.call<{ plan: Pair[] }>('POST', '/task/auto-assign', { token, body: { preview: true, perTorrent: 3 } })
      const plan = res.body.data.plan
      const on1 = plan.filter((p) => p.torrentId === 1).map((p) => p.userId)
      expect(on1).toHaveLength(1) // 2 keepers + 1
      expect(on1).not.toContain(m.m1)
      expect(on1).not.toContain(m.m2)
      expect(plan.filter((p) => p.torrentId === 3)).toHaveLength(3)
      expect(new Set(plan.map((p) => `${p.torrentId}:${p.userId}`)).size).toBe(plan.length)
      expect(await db.selectFrom('assignments').select('id').where('torrent_id', 'in', [1, 2, 3, 4, 5]).execute()).toEqual([])
    })
  })

  it('while a sync holds the lease the change commits and stays queued; the next pass applies it', async () => {
    const { db } = t.db.database
    await db
      .updateTable('sync_state')
      .set({ lock_owner: 'running-sync', lock_expires_at: NOW + 3600_000 })
      .where('id', '=', 1)
      .execute()
    try {
      const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [7], userIds: [m.m4] } })
      expect(res.body.data).toEqual({ created: 1, existed: 0 })
      expect(await record(m.m4, 7)).toBeUndefined()
      expect((await db.selectFrom('derive_queue').selectAll().where('torrent_id', '=', 7).execute()).length).toBeGreaterThan(0)
    } finally {
      await db.updateTable('sync_state').set({ lock_owner: null, lock_expires_at: null }).where('id', '=', 1).execute()
    }
    await derive(t.db.database, { now: NOW })
    expect(await record(m.m4, 7)).toMatchObject({ assigned: 1, status: 1 })
    expect(await label(7)).toMatchObject({ assigned: 1 })
  })

  it('a rule change through saveRules outside the API is applied by the next pass as well (no double work)', async () => {
    await saveRules(t.db.database.db, { ...defaultRuleBody, officialTeams: [], targetKeepers: 2 }, NOW, null)
    await derive(t.db.database, { now: NOW })
    expect((await label(1)).seed_type).toBe(2)
  })
})
