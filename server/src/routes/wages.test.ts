/**
 * The wage endpoints on SQLite and PostgreSQL, over data built through the same tables the demo and
 * the sync write: mirror rows → derivation → counter snapshots at the month boundaries.
 */
import ExcelJS from 'exceljs'
import { parse as parseCsv } from 'csv-parse/sync'
import { beforeAll, describe, expect, it } from 'vitest'
import type { UserSeedingStats, WageDetail, WagePreviewEntry, WageRankEntry, WageRecord, WageStats } from '@shared/entities'
import { hashPassword } from '../auth/password'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { computeWages, type WageInput, type WageMember } from '../wages/formula'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'
const H = 3600
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0) // 2026-02-10 12:00 Asia/Shanghai
const JAN_START = Date.UTC(2025, 11, 31, 16, 0) // 2026-01-01 00:00 Asia/Shanghai
const FEB_START = Date.UTC(2026, 0, 31, 16, 0) // 2026-02-01 00:00 Asia/Shanghai
const ADDED = Date.UTC(2025, 5, 1)
const rules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }

type Paged<T> = { list: T[]; total: number }

describe.each(openTestDatabases())('wages on $name', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, bob: 0, carol: 0, banned: 0 }
  const tokens = { admin: '', alice: '', bob: '' }
  let w: SeedingWorld

  beforeAll(async () => {
    const { db } = t.db.database
    w = new SeedingWorld(db)
    const hash = await hashPassword(MEMBER_PASSWORD, testScrypt)
    ids.alice = await w.member('alice', 1001, { passwordHash: hash })
    ids.bob = await w.member('Bob', 1002, { passwordHash: hash })
    ids.carol = await w.member('王小明', 1003, { passwordHash: hash })
    ids.banned = await w.member('banned', 1004, { passwordHash: hash, status: 0 })
    await w.team(1, 'CedarHD')
    await saveRules(db, rules, JAN_START - 86_400_000, null)
    for (let id = 1; id <= 4; id++)
      await w.torrent(id, { team: 1, size: 10 * GIB, added: ADDED, seeders: id + 1, name: `星河 Official.${id}.2024.1080p-CedarHD` })
    await w.torrent(5, { team: null, size: 10 * GIB, added: ADDED, seeders: 2 })
    const start = { finished: true, seedtime: 1000 * H, uploaded: 5 * GIB, lastAction: JAN_START - 86_400_000 }
    for (const [uid, torrent] of [
      [1001, 1],
      [1001, 2],
      [1002, 1],
      [1003, 3],
      [1004, 4],
      [1001, 5],
    ] as const)
      await w.snatch(uid, torrent, start)
    await w.claim(1001, 1, Date.UTC(2025, 6, 1))
    await w.claim(1002, 1, Date.UTC(2025, 7, 1))
    await w.claim(1001, 2, Date.UTC(2025, 6, 2))
    await w.claim(1003, 3, Date.UTC(2025, 6, 3))
    await w.claim(1004, 4, Date.UTC(2025, 6, 4))
    await w.claim(1001, 5, Date.UTC(2025, 6, 5))
    await w.assign(ids.bob, 2, Date.UTC(2025, 8, 1))
    await derive(t.db.database, { now: JAN_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260101)
    // January: alice t1 400 h (by time), t2 100 h but 25 GiB up (2.5× by upload); bob t1 350 h; carol 10 h; banned 500 h.
    await w.updateSnatch(1001, 1, { seedtime: 1400 * H })
    await w.updateSnatch(1001, 2, { seedtime: 1100 * H, uploaded: 30 * GIB })
    await w.updateSnatch(1002, 1, { seedtime: 1350 * H })
    await w.updateSnatch(1003, 3, { seedtime: 1010 * H })
    await w.updateSnatch(1004, 4, { seedtime: 1500 * H })
    await w.updateSnatch(1001, 5, { seedtime: 1700 * H })
    await derive(t.db.database, { now: FEB_START + 30 * 60_000 })
    await copyRecordCounters(db, 20260201)

    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.alice = await t.login('alice', MEMBER_PASSWORD)
    tokens.bob = await t.login('bob', MEMBER_PASSWORD)
  })

  async function ok<T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown, query?: Record<string, string>): Promise<T> {
    const res = await t.call<T>(method, path, { token, body, query })
    expect(res.status, `${path}: ${res.body.msg}`).toBe(200)
    return res.body.data
  }
  const page = (token: string, body: object = {}) =>
    ok<Paged<WageRecord>>('POST', '/wages/page', token, { page: 1, pageSize: 100, ...body })
  const byUser = (list: WageRecord[]) => new Map(list.map((r) => [r.userId, r]))
  const stable = (r: WageRecord) => ({ ...r, id: 0, computedAt: '' })
  const opLogCount = async (action: string) =>
    Number(
      (
        await t.db.database.db
          .selectFrom('operation_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('action', '=', action)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('preview: the formula fed from the snapshots, nothing saved; items for one member', async () => {
    const { ruleVersion, list } = await ok<{ ruleVersion: number; list: WagePreviewEntry[] }>('POST', '/wages/preview', tokens.admin, {
      period: '2026-01',
    })
    expect(ruleVersion).toBe(2)
    // The same month computed by hand through the pure formula with the gains written above.
    const base = { torrentName: '', size: 10 * GIB, official: true, addedAt: ADDED, uploadedGain: 0 }
    const inputs: WageInput[] = [
      { ...base, userId: ids.alice, torrentId: 1, seeders: 2, claimedAt: Date.UTC(2025, 6, 1), seedTimeGainSec: 400 * H },
      { ...base, userId: ids.bob, torrentId: 1, seeders: 2, claimedAt: Date.UTC(2025, 7, 1), seedTimeGainSec: 350 * H },
      {
        ...base,
        userId: ids.alice,
        torrentId: 2,
        seeders: 3,
        claimedAt: Date.UTC(2025, 6, 2),
        seedTimeGainSec: 100 * H,
        uploadedGain: 25 * GIB,
      },
      { ...base, userId: ids.bob, torrentId: 2, seeders: 3, claimedAt: Date.UTC(2025, 8, 1), seedTimeGainSec: 0 },
      { ...base, userId: ids.carol, torrentId: 3, seeders: 4, claimedAt: Date.UTC(2025, 6, 3), seedTimeGainSec: 10 * H },
      { ...base, userId: ids.banned, torrentId: 4, seeders: 5, claimedAt: Date.UTC(2025, 6, 4), seedTimeGainSec: 500 * H },
    ]
    const members: WageMember[] = [
      ...[ids.alice, ids.bob, ids.carol].map((userId) => ({ userId, status: 2 as const })),
      { userId: ids.banned, status: 0 },
    ]
    const expected = computeWages(rules, members, inputs, FEB_START)
    const got = new Map(list.map((e) => [e.userId, e]))
    for (const m of expected.members) {
      expect(got.get(m.userId), `member ${m.userId}`).toMatchObject({
        amount: m.amount,
        torrentCount: m.torrentCount,
        totalSize: m.totalSize,
        belowMinimum: m.belowMinimum,
      })
    }
    expect(got.get(ids.alice)!.amount).toBeGreaterThan(0)
    expect(got.get(ids.alice)).toMatchObject({ seedHours: 500, avgSeedHours: 250 })
    expect(got.get(ids.carol)).toMatchObject({ amount: 0, belowMinimum: true, username: '王小明' })
    expect(list[0].userId).toBe(ids.alice) // best first
    expect(list.every((e) => e.items === undefined)).toBe(true)

    const one = await ok<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', tokens.admin, { period: '2026-01', userId: ids.bob })
    expect(one.list).toHaveLength(1)
    const items = one.list[0].items!
    expect(items.find((i) => i.torrentId === 1)).toMatchObject({
      keeperRank: 2,
      qualified: true,
      seedHours: 350,
      torrentName: '星河 Official.1.2024.1080p-CedarHD',
    })
    expect(items.find((i) => i.torrentId === 2)).toMatchObject({ keeperRank: 0, qualified: false })
    expect(items.find((i) => i.torrentId === 2)!.reason).toContain('做种时长不足')
    expect((await page(tokens.admin)).total).toBe(0)
  })

  it('compute: one record per member with its rule version and items; computing again gives identical records', async () => {
    const logs = await opLogCount('wages.compute')
    const first = await ok<{ ruleVersion: number; saved: number; keptPaid: number }>('POST', '/wages/compute', tokens.admin, {
      period: '2026-01',
    })
    expect(first).toEqual({ ruleVersion: 2, saved: 4, keptPaid: 0 })
    expect(await opLogCount('wages.compute')).toBe(logs + 1)
    const a = (await page(tokens.admin, { period: '2026-01' })).list
    expect(a).toHaveLength(4)
    expect(a.every((r) => r.ruleVersion === 2 && r.payment === 0)).toBe(true)
    const alice = a.find((r) => r.userId === ids.alice)!
    const detail = await ok<WageDetail>('GET', `/wages/${alice.id}`, tokens.admin)
    expect(detail.items.map((i) => i.torrentId).sort()).toEqual([1, 2])
    expect(detail.items.every((i) => i.qualified && i.keeperRank === 1)).toBe(true)
    // 400 h + 100 h on two qualified torrents: the formula multiplies by their average, 250 h.
    expect(alice).toMatchObject({ seedHours: 500, torrentCount: 2, avgSeedHours: 250, belowMinimum: false })
    // Nothing qualified: below the minimums, and the saved record says so (the breakdown explains its 0).
    const carol = a.find((r) => r.userId === ids.carol)!
    expect(carol).toMatchObject({ torrentCount: 0, avgSeedHours: 0, belowMinimum: true })
    expect(await ok<WageDetail>('GET', `/wages/${carol.id}`, tokens.admin)).toMatchObject({ amount: 0, belowMinimum: true })

    clock.advance(60_000)
    await ok('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
    const b = (await page(tokens.admin, { period: '2026-01' })).list
    expect(b.map(stable).sort((x, y) => x.userId - y.userId)).toEqual(a.map(stable).sort((x, y) => x.userId - y.userId))
    const again = await ok<WageDetail>('GET', `/wages/${b.find((r) => r.userId === ids.alice)!.id}`, tokens.admin)
    expect(again.items).toEqual(detail.items)
  })

  it('a rule change affects only months computed after it', async () => {
    const before = byUser((await page(tokens.admin, { period: '2026-01' })).list)
    const v3 = await saveRules(t.db.database.db, { ...rules, multiplier: 2 }, NOW, null)
    // Nothing recomputed by itself: the saved month still names version 2 and its numbers.
    const still = byUser((await page(tokens.admin, { period: '2026-01' })).list)
    expect(still.get(ids.alice)).toEqual(before.get(ids.alice))
    const res = await ok<{ ruleVersion: number }>('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
    expect(res.ruleVersion).toBe(v3.version)
    const after = byUser((await page(tokens.admin, { period: '2026-01' })).list)
    expect(after.get(ids.alice)!.ruleVersion).toBe(v3.version)
    expect(after.get(ids.alice)!.amount).toBeCloseTo(before.get(ids.alice)!.amount * 2, 1)
    await saveRules(t.db.database.db, rules, NOW, null)
    await ok('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
  })

  it('pay: once; again says alreadyPaid; a paid record survives recompute (keptPaid)', async () => {
    const alice = byUser((await page(tokens.admin, { period: '2026-01' })).list).get(ids.alice)!
    const logs = await opLogCount('wages.pay')
    expect(await ok('POST', '/wages/pay', tokens.admin, { ids: [alice.id] })).toEqual({ paid: 1, alreadyPaid: 0 })
    expect(await ok('POST', '/wages/pay', tokens.admin, { ids: [alice.id] })).toEqual({ paid: 0, alreadyPaid: 1 })
    // Only the pay that changed something is logged: the second one changed nothing.
    expect(await opLogCount('wages.pay')).toBe(logs + 1)
    const paid = await ok<WageRecord>('GET', `/wages/${alice.id}`, tokens.admin)
    expect(paid).toMatchObject({ payment: 1, paidBy: 'admin', paidAt: new Date(NOW + 60_000).toISOString() })

    await saveRules(t.db.database.db, { ...rules, multiplier: 3 }, NOW, null)
    const res = await ok<{ saved: number; keptPaid: number }>('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
    expect(res).toMatchObject({ saved: 3, keptPaid: 1 })
    const kept = await ok<WageDetail>('GET', `/wages/${alice.id}`, tokens.admin)
    expect({ ...kept, items: undefined }).toEqual({ ...paid, items: undefined })
    expect(kept.items.length).toBe(2)
    await saveRules(t.db.database.db, rules, NOW, null)
    await ok('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
  })

  it('pay with the amounts the admin saw: a record generated anew since stops the pay (409), nothing marked', async () => {
    const unpaid = (await page(tokens.admin, { period: '2026-01', payment: 0 })).list
    const seen = unpaid.find((r) => r.amount > 0)!
    const other = unpaid.find((r) => r.id !== seen.id)!
    // Another admin generates the month anew under doubled rules between this admin's view and 标记已发放.
    await saveRules(t.db.database.db, { ...rules, multiplier: 2 }, NOW, null)
    await ok('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
    const res = await t.call('POST', '/wages/pay', {
      token: tokens.admin,
      body: { ids: [seen.id, other.id], amounts: [seen.amount, other.amount] },
    })
    expect(res.status).toBe(409)
    expect(res.body.msg).toContain(`${seen.username} 2026-01 ${seen.amount} → `)
    expect(res.body.msg).toContain('请核对新的金额')
    expect((await page(tokens.admin, { period: '2026-01', payment: 0 })).total).toBe(unpaid.length)
    // The amounts must pair with the ids.
    const unpaired = await t.call('POST', '/wages/pay', { token: tokens.admin, body: { ids: [seen.id, other.id], amounts: [seen.amount] } })
    expect(unpaired.status).toBe(400)
    expect(unpaired.body.msg).toContain('amounts')
    await saveRules(t.db.database.db, rules, NOW, null)
    await ok('POST', '/wages/compute', tokens.admin, { period: '2026-01' })
  })

  it('stats: 领取人数 counts the members paid, not every member with a wage', async () => {
    const records = (await page(tokens.admin, { period: '2026-01' })).list
    const earning = records.filter((r) => r.amount > 0)
    expect(earning.length).toBeGreaterThan(1)
    expect(records.filter((r) => r.payment === 1).map((r) => r.userId)).toEqual([ids.alice])
    const [month] = (await ok<WageStats>('GET', '/wages/stats', tokens.admin)).months
    expect(month).toMatchObject({ period: '2026-01', members: earning.length, paidMembers: 1 })
  })

  it('20 concurrent pays of the same ids pay each once', async () => {
    const list = (await page(tokens.admin, { period: '2026-01', payment: 0 })).list
    const payIds = list.map((r) => r.id)
    expect(payIds.length).toBe(3)
    const logsBefore = await opLogCount('wages.pay')
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', { token: tokens.admin, body: { ids: payIds } }),
      ),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(results.reduce((s, r) => s + r.body.data.paid, 0)).toBe(3)
    expect(results.reduce((s, r) => s + r.body.data.alreadyPaid, 0)).toBe(57)
    // One log row per pay that paid something; the pays that found everything paid changed nothing.
    const paying = results.filter((r) => r.body.data.paid > 0).length
    expect(paying).toBeGreaterThanOrEqual(1)
    expect(await opLogCount('wages.pay')).toBe(logsBefore + paying)
    expect((await page(tokens.admin, { period: '2026-01', payment: 0 })).total).toBe(0)
  })

  it('rank and stats agree with the records', async () => {
    const records = (await page(tokens.admin, { period: '2026-01' })).list
    const rank = await ok<Paged<WageRankEntry>>('POST', '/wages/rank', tokens.bob, { page: 1, pageSize: 10 })
    expect(rank.total).toBe(4)
    expect(rank.list[0]).toMatchObject({ rank: 1, userId: ids.alice, period: '2026-01' })
    expect(rank.list.map((r) => r.amount)).toEqual([...records.map((r) => r.amount)].sort((a, b) => b - a))
    // Ties listed by username, sharing one rank: the zero amounts in name order, all ranked after the paid ones.
    const zeros = rank.list.filter((r) => r.amount === 0)
    expect(zeros.length).toBeGreaterThan(1)
    expect(zeros.map((r) => r.username)).toEqual(zeros.map((r) => r.username).sort())
    expect(new Set(zeros.map((r) => r.rank))).toEqual(new Set([rank.list.filter((r) => r.amount > 0).length + 1]))
    const stats = await ok<WageStats>('GET', '/wages/stats', tokens.admin)
    const paying = records.filter((r) => r.amount > 0)
    expect(stats.months).toEqual([
      {
        period: '2026-01',
        paid: Math.round(records.reduce((s, r) => s + r.amount, 0) * 100) / 100,
        unpaid: 0,
        members: paying.length,
        average: Math.round((paying.reduce((s, r) => s + r.amount, 0) / paying.length) * 100) / 100,
        median: expect.any(Number),
        paidMembers: paying.length,
      },
    ])
    expect(stats.distribution.reduce((s, b) => s + b.count, 0)).toBe(paying.length)
  })

  it('members see only their own records; admin-only calls are refused', async () => {
    const own = await page(tokens.bob, { userId: ids.alice })
    expect(own.list.length).toBe(1)
    expect(own.list.every((r) => r.userId === ids.bob)).toBe(true)
    const all = byUser((await page(tokens.admin, { period: '2026-01' })).list)
    expect((await t.call('GET', `/wages/${all.get(ids.alice)!.id}`, { token: tokens.bob })).status).toBe(403)
    expect((await t.call('GET', `/wages/999999`, { token: tokens.bob })).status).toBe(403)
    const mine = await ok<WageDetail>('GET', `/wages/${all.get(ids.bob)!.id}`, tokens.bob)
    expect(mine.items.length).toBe(2)
    for (const [method, path, body, query] of [
      ['POST', '/wages/preview', { period: '2026-01' }],
      ['POST', '/wages/compute', { period: '2026-01' }],
      ['POST', '/wages/pay', { ids: [1] }],
      ['GET', '/wages/stats'],
      ['GET', '/wages/export', undefined, { period: '2026-01', format: 'csv' }],
    ] as const) {
      const res = await t.call(method, path, { token: tokens.bob, body, query })
      expect(res.status, path).toBe(403)
    }
    expect((await t.call('GET', '/wages/export', { query: { period: '2026-01', format: 'csv' } })).status).toBe(401)
  })

  it('export: xlsx holds the API numbers; CSV has the BOM and round-trips Chinese names', async () => {
    const records = (await page(tokens.admin, { period: '2026-01' })).list
    const raw = await t.app.inject({
      method: 'GET',
      url: '/api/v1/wages/export',
      query: { period: '2026-01', format: 'xlsx' },
      headers: { 'Access-Token': tokens.admin },
    })
    expect(raw.statusCode).toBe(200)
    expect(raw.headers['content-type']).toContain('spreadsheetml')
    expect(raw.headers['content-disposition']).toBe(
      `attachment; filename="wages-2026-01.xlsx"; filename*=UTF-8''${encodeURIComponent('工资-2026-01.xlsx')}`,
    )
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(raw.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]
    const headers = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(headers.slice(0, 3)).toEqual(['排名', '保种员', '站点 UID'])
    const cell = (row: number, header: string) => sheet.getRow(row).getCell(headers.indexOf(header) + 1).value
    const fromSheet = new Map<string, number>()
    for (let i = 2; i <= sheet.rowCount; i++) fromSheet.set(String(cell(i, '保种员')), Number(cell(i, '工资')))
    expect(fromSheet).toEqual(new Map(records.map((r) => [r.username, r.amount])))
    // alice: site UID 1001; 400 h + 100 h on 2 qualified torrents → average 250 h, 500 h = 20.83 days in all.
    const aliceRow = [...Array(sheet.rowCount - 1).keys()].map((i) => i + 2).find((i) => cell(i, '保种员') === 'alice')!
    expect([cell(aliceRow, '站点 UID'), cell(aliceRow, '平均做种时长（小时）'), cell(aliceRow, '累计做种时长（天）')]).toEqual([
      1001, 250, 20.83,
    ])

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/v1/wages/export',
      query: { period: '2026-01', format: 'csv' },
      headers: { 'Access-Token': tokens.admin },
    })
    expect(csv.statusCode).toBe(200)
    expect([...csv.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const rows = parseCsv(csv.rawPayload, { bom: true, columns: true }) as Record<string, string>[]
    expect(rows.map((r) => r['保种员']).sort()).toEqual(records.map((r) => r.username).sort())
    expect(rows.find((r) => r['保种员'] === '王小明')).toMatchObject({ 工资: '0', 发放状态: '已发放', '站点 UID': '1003' })
    expect(rows.find((r) => r['保种员'] === 'alice')).toMatchObject({
      '站点 UID': '1001',
      '平均做种时长（小时）': '250',
      '累计做种时长（天）': '20.83',
    })
    expect(new Map(rows.map((r) => [r['保种员'], Number(r['工资'])]))).toEqual(new Map(records.map((r) => [r.username, r.amount])))
  })

  it('bad input: 400 for a bad month or empty ids, 404 for unknown ids, 409 without snapshots', async () => {
    expect((await t.call('POST', '/wages/preview', { token: tokens.admin, body: { period: '2026-13' } })).status).toBe(400)
    expect((await t.call('POST', '/wages/compute', { token: tokens.admin, body: { period: '2026-1' } })).status).toBe(400)
    expect((await t.call('POST', '/wages/pay', { token: tokens.admin, body: { ids: [] } })).status).toBe(400)
    const missing = await t.call('POST', '/wages/pay', { token: tokens.admin, body: { ids: [999999] } })
    expect(missing.status).toBe(404)
    expect((await t.call('GET', '/wages/999999', { token: tokens.admin })).status).toBe(404)
    expect((await t.call('POST', '/wages/compute', { token: tokens.admin, body: { period: '2025-06' } })).status).toBe(409)
    const badExport = await t.call('GET', '/wages/export', { token: tokens.admin, query: { period: '2026-13', format: 'xlsx' } })
    expect(badExport.status).toBe(400)
    expect(badExport.body.code).toBe(400)
    expect((await t.call('GET', '/wages/export', { token: tokens.admin, query: { period: '2025-06', format: 'csv' } })).status).toBe(404)
  })

  it("status 5 for a below-minimum member's claimed seeding records; estimates in the statistics", async () => {
    // February so far: alice seeds t1 (on pace), carol seeds t3 but gains nothing → below the minimum.
    await w.peer(1001, 1, { seeder: true, lastAction: NOW - 60_000 })
    await w.peer(1003, 3, { seeder: true, lastAction: NOW - 60_000 })
    await w.updateSnatch(1001, 1, { seedtime: 1400 * H + 200 * H })
    await derive(t.db.database, { now: NOW })
    expect((await w.record(ids.carol, 3))!.status).toBe(3)
    await ok('GET', '/statistics/refresh-index-statistics-cache', tokens.admin)
    await derive(t.db.database, { now: NOW + 60_000 })
    expect((await w.record(ids.carol, 3))!.status).toBe(5)
    expect((await w.record(ids.alice, 1))!.status).toBe(3)
    const all = await ok<{ topWages: WageRankEntry[]; estimatedWages: number }>(
      'GET',
      '/statistics/refresh-index-statistics-cache',
      tokens.admin,
    )
    expect(all.topWages).toEqual([expect.objectContaining({ rank: 1, userId: ids.alice, period: '2026-02' })])
    expect(all.estimatedWages).toBe(all.topWages[0].amount)
    const mine = await ok<UserSeedingStats>('GET', '/statistics/user-seeding-sta', tokens.alice)
    expect(mine).toMatchObject({ estimatedWage: all.topWages[0].amount, rank: 1 })
    const carol = await ok<UserSeedingStats>('GET', '/statistics/user-seeding-sta', tokens.admin, undefined, { userId: String(ids.carol) })
    expect(carol).toMatchObject({ estimatedWage: 0, rank: null })
  })

  it('the statistics refresh brings the estimates up to the data at once, not up to 10 minutes late', async () => {
    const before = await ok<{ estimatedWages: number }>('GET', '/statistics/refresh-index-statistics-cache', tokens.admin)
    // Within the estimates' refresh interval, alice seeds 100 h more and a sync derives it.
    await w.updateSnatch(1001, 1, { seedtime: 1400 * H + 300 * H })
    await derive(t.db.database, { now: NOW + 2 * 60_000 })
    const cached = await ok<{ estimatedWages: number }>('GET', '/statistics/all-seeding-sta', tokens.admin)
    expect(cached.estimatedWages).toBe(before.estimatedWages)
    const refreshed = await ok<{ estimatedWages: number }>('GET', '/statistics/refresh-index-statistics-cache', tokens.admin)
    expect(refreshed.estimatedWages).toBeGreaterThan(before.estimatedWages)
  })
})
