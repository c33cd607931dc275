/**
 * Paying while a month computes: a wage record keeps its identity across recomputes, pays and
 * computes of a month serialize, and "already paid" only ever means paid — on SQLite and
 * PostgreSQL, through the API.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRecord } from '@shared/entities'
import { derive } from '../derive'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
const MEMBERS = 8

describe.each(openTestDatabases())('pay during compute on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 86_400_000) })
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - 86_400_000, null)
    for (let i = 1; i <= MEMBERS; i++) {
      await w.member(`m${i}`, 1000 + i)
      await w.torrent(i, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
      await w.snatch(1000 + i, i, { finished: true, seedtime: 100 * H, lastAction: JAN_START - 86_400_000 })
      await w.claim(1000 + i, i, Date.UTC(2025, 6, 1))
    }
    await derive(t.db.database, { now: JAN_START + 60_000 })
    await copyRecordCounters(db, 20260101)
    for (let i = 1; i <= MEMBERS; i++) await w.updateSnatch(1000 + i, i, { seedtime: (400 + i) * H })
    await derive(t.db.database, { now: FEB_START + 60_000 })
    await copyRecordCounters(db, 20260201)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  const records = async () =>
    (await t.call<{ list: WageRecord[] }>('POST', '/wages/page', { token, body: { page: 1, pageSize: 100, period: '2026-01' } })).body.data
      .list
  const compute = () => t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
  const pay = (ids: number[]) => t.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', { token, body: { ids } })

  it('a recompute keeps every record id', async () => {
    expect((await compute()).status).toBe(200)
    const before = (await records()).map((r) => [r.userId, r.id]).sort((a, b) => a[0]! - b[0]!)
    expect(before).toHaveLength(MEMBERS)
    expect((await compute()).status).toBe(200)
    const after = (await records()).map((r) => [r.userId, r.id]).sort((a, b) => a[0]! - b[0]!)
    expect(after).toEqual(before)
  })

  it('each pay racing a compute pays its record; nothing is reported paid that is not', async () => {
    const list = await records()
    for (const record of list) {
      const [computed, paid] = await Promise.all([compute(), pay([record.id])])
      expect(computed.status).toBe(200)
      expect(paid.status, String(paid.body.msg)).toBe(200)
      expect(paid.body.data).toEqual({ paid: 1, alreadyPaid: 0 })
    }
    const after = await records()
    expect(after.map((r) => r.id).sort((a, b) => a - b)).toEqual(list.map((r) => r.id).sort((a, b) => a - b))
    expect(after.every((r) => r.payment === 1)).toBe(true)
    // Paying again is a no-op that says so; an id that does not exist is 404, nothing paid.
    expect((await pay([list[0]!.id])).body.data).toEqual({ paid: 0, alreadyPaid: 1 })
    expect((await pay([list[0]!.id, 999_999])).status).toBe(404)
  })

  it('computes and pays from many callers at once leave every record paid exactly once', async () => {
    // Back to unpaid (a test shortcut), then everyone at once.
    await t.db.database.db
      .updateTable('wage_records' as never)
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null } as never)
      .execute()
    const ids = (await records()).map((r) => r.id)
    const calls = await Promise.all([...ids.map((id) => pay([id])), ...ids.map((id) => pay([id])), compute(), compute(), compute()])
    expect(calls.every((c) => c.status === 200)).toBe(true)
    const pays = calls.slice(0, ids.length * 2) as Awaited<ReturnType<typeof pay>>[]
    expect(pays.reduce((s, c) => s + c.body.data.paid, 0)).toBe(ids.length)
    expect(pays.reduce((s, c) => s + c.body.data.alreadyPaid, 0)).toBe(ids.length)
    const after = await records()
    expect(after.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b))
    expect(after.every((r) => r.payment === 1)).toBe(true)
  })
})
