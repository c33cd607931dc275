/**
 * Found by an outside tester (fixed since; the test keeps it so). 工资计算 export (.xlsx / .csv) vs the screen: a wage counted from a first observation is marked 部分月份
 * (domain.md §4: "takes the counters of its first observation as its baseline and is marked 部分月份"). 工资计算's
 * table shows the mark beside the member's name (SavedWages.tsx PartialMonthTag) and GET /wages/page returns
 * `partial: true`; the export — the file admins pay from, or hand on — had no such column or mark: a 部分月份 wage read
 * exactly like a whole month's. The export's last column, 计算范围, now says 部分月份 or 整月.
 *
 * Figures: 2026-01, alice 120.50 (partial: her baseline is her first observation on 01-20), bob 300.00 (whole month).
 * The screen shows alice's row with 部分月份; the file's alice row must say so too.
 */
import ExcelJS from 'exceljs'
import { parse as parseCsv } from 'csv-parse/sync'
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRecord } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { GIB } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { wageDb } from '../wages/tables'

const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)

describe.each(openTestDatabases())('the export marks 部分月份 as the screen does ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    const alice = await w.member('alice', 1001)
    const bob = await w.member('bob', 1002)
    const row = (userId: number, amount: number, partial: number) => ({
      user_id: userId,
      period: '2026-01',
      amount,
      torrent_count: 1,
      total_size: 10 * GIB,
      seed_hours: 300,
      sum_value: 1,
      below_minimum: 0,
      partial,
      paid_at: null,
      paid_by_id: null,
      paid_by_name: null,
      computed_at: NOW,
      rule_version: 1,
    })
    await wageDb(db)
      .insertInto('wage_records')
      .values([row(alice, 120.5, 1), row(bob, 300, 0)])
      .execute()
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  const download = (format: 'csv' | 'xlsx') =>
    t.app.inject({ method: 'GET', url: '/api/v1/wages/export', query: { period: '2026-01', format }, headers: { 'Access-Token': token } })

  it('(control) the screen’s records say alice’s wage is 部分月份', async () => {
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', { token, body: { page: 1, pageSize: 10, period: '2026-01' } })
    expect(page.body.data.list.map((r) => [r.username, r.partial])).toEqual([
      ['bob', false],
      ['alice', true],
    ])
  })

  it('CSV: alice’s row says 部分月份, bob’s does not', async () => {
    const raw = await download('csv')
    expect(raw.statusCode).toBe(200)
    const rows = parseCsv(raw.rawPayload, { bom: true }) as string[][]
    const alice = rows.find((r) => r[1] === 'alice')!
    const bob = rows.find((r) => r[1] === 'bob')!
    expect(alice.some((cell) => cell.includes('部分月份'))).toBe(true)
    expect(bob.some((cell) => cell.includes('部分月份'))).toBe(false)
  })

  it('xlsx: alice’s row says 部分月份', async () => {
    const raw = await download('xlsx')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(raw.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]
    const cells: string[][] = []
    sheet.eachRow((r) => cells.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))))
    const alice = cells.find((r) => r[1] === 'alice')!
    expect(alice.some((cell) => cell.includes('部分月份'))).toBe(true)
  })
})
