/** Read side of the wage records: rank, pages, detail, stats, export rows. */
import { type Kysely, sql } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { WageDetail, WageRankEntry, WageRecord, WageStats } from '@shared/entities'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { binaryOrder } from '../db/sql-fragments'
import { offsetOf, sortOf } from '../paging/order'
import { averageSeedHours } from './hours'
import { readItemSet } from './item-sets'
import { wageDb } from './tables'

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

/** The newest period that has wage records, or null. */
export async function lastComputedPeriod(db: Kysely<DB>): Promise<string | null> {
  const row = await wageDb(db)
    .selectFrom('wage_records')
    .select((eb) => eb.fn.max('period').as('p'))
    .executeTakeFirst()
  return (row?.p as string | null | undefined) ?? null
}

/**
 * Byte-order comparison of usernames (UTF-8 bytes: code point order), the same as both databases' (BINARY, "C"). JS's
 * `<` compares UTF-16 units, which puts a name with a character beyond U+FFFF (𠮷) before one with a full-width letter
 * (ｆ, U+FF46) — the other way round from the databases' order of 工资计算 and the 首页 top 10.
 */
export const byName = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))

/**
 * The whole rank of a period (≤ a few thousand members): amount desc, listed by username within a tie. Equal amounts
 * share a rank (1, 2, 2, 4): two members paid the same are not first and second, nor the many at 0 ranked 184th–198th.
 */
export async function periodRank(db: Kysely<DB>, period: string): Promise<WageRankEntry[]> {
  const rows = await wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.user_id', 'u.username', 'w.amount', 'w.torrent_count', 'w.total_size'])
    .where('w.period', '=', period)
    .execute()
  const sorted = rows
    .map((r) => ({
      userId: r.user_id,
      username: r.username,
      period,
      amount: Number(r.amount),
      torrentCount: Number(r.torrent_count),
      totalSize: Number(r.total_size),
    }))
    .sort((a, b) => b.amount - a.amount || byName(a.username, b.username))
  return sharedRanks(sorted)
}

/** A list sorted by amount desc, ranked: equal amounts share one rank (1, 2, 2, 4). */
export function sharedRanks<T extends { amount: number }>(sorted: readonly T[]): (T & { rank: number })[] {
  let rank = 0
  return sorted.map((r, index) => {
    if (index === 0 || r.amount !== sorted[index - 1].amount) rank = index + 1
    return { ...r, rank }
  })
}

export async function rankPage(db: Kysely<DB>, input: ParsedInput<'wages.rank'>): Promise<{ list: WageRankEntry[]; total: number }> {
  const period = input.period ?? (await lastComputedPeriod(db))
  if (!period) return { list: [], total: 0 }
  const all = await periodRank(db, period)
  if (input.orderBy?.endsWith('DESC')) all.reverse()
  const from = offsetOf(input.page, input.pageSize)
  return { list: all.slice(from, from + input.pageSize), total: all.length }
}

const recordColumns = [
  'w.id',
  'w.user_id',
  'u.username',
  'w.period',
  'w.amount',
  'w.torrent_count',
  'w.total_size',
  'w.seed_hours',
  'w.payment',
  'w.paid_at',
  'w.paid_by_name',
  'w.computed_at',
  'w.rule_version',
  'w.partial',
  'w.below_minimum',
] as const

type RecordRow = {
  id: number
  user_id: number
  username: string
  period: string
  amount: number
  torrent_count: number
  total_size: number
  seed_hours: number
  payment: number
  paid_at: number | null
  paid_by_name: string | null
  computed_at: number
  rule_version: number
  partial: number
  below_minimum: number
}

export function recordOut(r: RecordRow): WageRecord {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    username: r.username,
    period: r.period,
    amount: Number(r.amount),
    torrentCount: Number(r.torrent_count),
    totalSize: Number(r.total_size),
    seedHours: Number(r.seed_hours),
    payment: Number(r.payment) === 1 ? 1 : 0,
    paidAt: iso(r.paid_at),
    paidBy: r.paid_by_name,
    computedAt: iso(r.computed_at)!,
    ruleVersion: Number(r.rule_version),
    partial: Number(r.partial) === 1,
    belowMinimum: Number(r.below_minimum) === 1,
    avgSeedHours: averageSeedHours(Number(r.seed_hours), Number(r.torrent_count)),
  }
}

export async function wagePage(
  db: Kysely<DB>,
  dialect: DialectName,
  input: ParsedInput<'wages.page'>,
): Promise<{ list: WageRecord[]; total: number }> {
  const sort = sortOf(
    'wagesPage',
    input.orderBy,
    {
      period: sql`w.period`,
      amount: sql`w.amount`,
      torrentCount: sql`w.torrent_count`,
      totalSize: sql`w.total_size`,
      seedHours: sql`w.seed_hours`,
      paidAt: sql`coalesce(w.paid_at, 0)`,
      username: binaryOrder(dialect, sql`u.username_lower`),
    },
    { field: 'period', direction: 'DESC' },
  )
  let query = wageDb(db).selectFrom('wage_records as w').innerJoin('users as u', 'u.id', 'w.user_id')
  if (input.period) query = query.where('w.period', '=', input.period)
  if (input.userId !== undefined) query = query.where('w.user_id', '=', input.userId)
  if (input.payment !== undefined) query = query.where('w.payment', '=', input.payment)
  const [rows, count] = await Promise.all([
    query
      .select([...recordColumns])
      .orderBy(
        sql`${sort.expr} ${sql.raw(sort.direction === 'DESC' ? 'desc' : 'asc')}, w.id ${sql.raw(sort.direction === 'DESC' ? 'desc' : 'asc')}`,
      )
      .limit(input.pageSize)
      .offset(offsetOf(input.page, input.pageSize))
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { list: rows.map((r) => recordOut(r as RecordRow)), total: Number(count.n) }
}

export async function wageRecord(db: Kysely<DB>, id: number): Promise<WageRecord | null> {
  const row = await wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select([...recordColumns])
    .where('w.id', '=', id)
    .executeTakeFirst()
  return row ? recordOut(row as RecordRow) : null
}

/** A record with its per-torrent items (best value first, then the non-qualifying ones). */
export async function wageDetail(db: Kysely<DB>, record: WageRecord): Promise<WageDetail> {
  return { ...record, items: await readItemSet(db, record.period, record.userId) }
}

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100

export function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : round2((sorted[mid - 1] + sorted[mid]) / 2)
}

/**
 * GET /wages/stats: per month (the last `months` that have records, oldest first) paid and unpaid
 * totals, members with a wage (amount > 0), their average and median, the members paid a wage
 * (领取人数); the distribution of the newest month's non-zero wages in ten equal bins.
 */
export async function wageStats(db: Kysely<DB>, months: number): Promise<WageStats> {
  const w = wageDb(db)
  const periods = (await w.selectFrom('wage_records').select('period').distinct().orderBy('period', 'desc').limit(months).execute()).map(
    (r) => r.period,
  )
  periods.reverse()
  const out: WageStats['months'] = []
  let latest: number[] = []
  for (const period of periods) {
    const rows = await w.selectFrom('wage_records').select(['amount', 'payment']).where('period', '=', period).execute()
    let paid = 0
    let unpaid = 0
    let paidMembers = 0
    const amounts: number[] = []
    for (const r of rows) {
      const amount = Number(r.amount)
      if (Number(r.payment) === 1) paid += amount
      else unpaid += amount
      if (amount > 0) amounts.push(amount)
      // A zero wage marked 已发放 paid nobody anything.
      if (amount > 0 && Number(r.payment) === 1) paidMembers++
    }
    amounts.sort((a, b) => a - b)
    const total = amounts.reduce((s, a) => s + a, 0)
    out.push({
      period,
      paid: round2(paid),
      unpaid: round2(unpaid),
      members: amounts.length,
      average: amounts.length ? round2(total / amounts.length) : 0,
      median: median(amounts),
      paidMembers,
    })
    latest = amounts
  }
  return { months: out, distribution: histogram(latest, 10) }
}

export function histogram(sorted: readonly number[], bins: number): WageStats['distribution'] {
  if (sorted.length === 0) return []
  const max = sorted[sorted.length - 1]
  // Round bin widths up to a "nice" step so the labels read well (e.g. 0–500, 500–1000).
  const raw = max / bins
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(raw, 0.01)))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw
  const count = Math.max(1, Math.ceil(max / step + 1e-9))
  const out = Array.from({ length: count }, (_, i) => ({ from: round2(i * step), to: round2((i + 1) * step), count: 0 }))
  for (const a of sorted) out[Math.min(count - 1, Math.floor(a / step))].count++
  return out
}

/** A record as exported: with the member's site UID (null when none is bound) and rank (as 工资排行 has it). */
export type ExportRecord = WageRecord & { siteUid: number | null; rank: number }

/** The rows of one period's export, in rank order. */
export async function exportRows(db: Kysely<DB>, period: string): Promise<ExportRecord[]> {
  const rows = await wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select([...recordColumns, 'u.site_uid'])
    .where('w.period', '=', period)
    .execute()
  return sharedRanks(
    rows
      .map((r) => ({ ...recordOut(r as RecordRow), siteUid: r.site_uid === null ? null : Number(r.site_uid) }))
      .sort((a, b) => b.amount - a.amount || byName(a.username, b.username)),
  )
}
