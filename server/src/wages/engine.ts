/**
 * The wage engine: feeds the pure calculator (formula.ts) from the streaming period reader, and
 * turns its results into previews, saved wage records with items, and estimates.
 */
import { type Kysely, sql } from 'kysely'
import type { WageItem, WagePreviewEntry } from '@shared/entities'
import { bulkInsert, type BulkColumns, type BulkRow } from '../db/bulk'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { recordOperation } from '../operation-log/record'
import { currentRules, type Rules, type RuleBody } from '../rules/rules'
import { createWageCalculator, type MemberWage, type WageItemResult } from './formula'
import { ItemSetCollector } from './item-sets'
import { periodBounds, type PeriodBounds } from './period'
import { periodCounters, periodRecords, wageMembers } from './reader'
import { wageDb } from './tables'

export interface WageRun {
  rules: Rules
  bounds: PeriodBounds
  members: (MemberWage & { username: string })[]
}

/**
 * Computes one period. `onItems` receives each batch's items (a batch = a few thousand torrents)
 * as soon as their keeper ranks are settled; `body` overrides the rules' formula parameters (the
 * estimates' pace-scaled standards) without changing the version they are reported under.
 */
export async function runWages(
  db: Kysely<DB>,
  period: string,
  options: { rules?: Rules; body?: RuleBody; onItems?: (items: WageItemResult[]) => Promise<void> | void } = {},
): Promise<WageRun> {
  const rules = options.rules ?? (await currentRules(db))
  const bounds = periodBounds(period, rules.timezone)
  const counters = await periodCounters(db, bounds)
  const members = await wageMembers(db)
  const calculator = createWageCalculator(options.body ?? rules, members, bounds.endMs)
  for await (const batch of periodRecords(db, counters, members)) {
    const items: WageItemResult[] = []
    for (const torrent of batch) for (const item of calculator.addTorrent(torrent)) items.push(item)
    if (options.onItems) await options.onItems(items)
  }
  const results = calculator
    .finish()
    .filter((m) => members.has(m.userId))
    .map((m) => ({ ...m, username: members.get(m.userId)!.username }))
  return { rules, bounds, members: results }
}

const byAmountThenName = (a: { amount: number; username: string }, b: { amount: number; username: string }) =>
  b.amount - a.amount || (a.username < b.username ? -1 : a.username > b.username ? 1 : 0)

export function itemOut(item: WageItemResult): WageItem {
  return {
    torrentId: item.torrentId,
    torrentName: item.torrentName,
    size: item.size,
    seeders: item.seeders,
    seedHours: item.seedHours,
    uploaded: item.uploaded,
    keeperRank: item.keeperRank,
    value: item.value,
    qualified: item.qualified,
    reason: item.reason,
  }
}

/** POST /wages/preview: nothing saved; items only for `userId` (the breakdown drawer). */
export async function previewWages(db: Kysely<DB>, period: string, now: number, userId?: number): Promise<{ ruleVersion: number; list: WagePreviewEntry[] }> {
  const items: WageItem[] = []
  const run = await runWages(db, period, {
    onItems: userId === undefined ? undefined : (batch) => void batch.forEach((i) => i.userId === userId && items.push(itemOut(i))),
  })
  const computedAt = new Date(now).toISOString()
  const list = run.members
    .filter((m) => userId === undefined || m.userId === userId)
    .sort(byAmountThenName)
    .map((m) => ({
      userId: m.userId,
      username: m.username,
      period,
      amount: m.amount,
      torrentCount: m.torrentCount,
      totalSize: m.totalSize,
      seedHours: m.seedHours,
      computedAt,
      ruleVersion: run.rules.version,
      belowMinimum: m.belowMinimum,
      ...(userId === undefined ? {} : { items }),
    }))
  return { ruleVersion: run.rules.version, list }
}

/** Members' item sets per insert statement (each a few kB to a few hundred kB of JSON). */
const ITEM_SETS_PER_INSERT = 100

const itemSetColumns: BulkColumns = [
  ['period', 'text'],
  ['user_id', 'integer'],
  ['items', 'text'],
]

/**
 * POST /wages/compute: in ONE transaction, replaces the period's unpaid records (and their items)
 * by a fresh computation, never touching a paid record or its items, and logs the operation.
 */
export async function computeAndSave(
  database: AppDatabase,
  args: { period: string; now: number; operator: { id: number; username: string }; ip: string },
): Promise<{ ruleVersion: number; saved: number; keptPaid: number }> {
  const { period, now } = args
  return database.db.transaction().execute(async (trx) => {
    const w = wageDb(trx)
    // Two computes of the app or of two server processes must not interleave their delete/insert.
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${WAGE_LOCK_KEY})`.execute(trx)
    const paidRows = await w.selectFrom('wage_records').select('user_id').where('period', '=', period).where('payment', '=', 1).execute()
    const paid = new Set(paidRows.map((r) => r.user_id))
    let unpaidItems = w.deleteFrom('wage_item_sets').where('period', '=', period)
    if (paid.size) unpaidItems = unpaidItems.where('user_id', 'not in', [...paid])
    await unpaidItems.execute()
    await w.deleteFrom('wage_records').where('period', '=', period).where('payment', '=', 0).execute()

    const items = new ItemSetCollector()
    const run = await runWages(trx, period, {
      onItems: (batch) => {
        for (const item of batch) if (!paid.has(item.userId)) items.add(item)
      },
    })
    let rows: BulkRow[] = []
    for (const set of items.sets()) {
      rows.push([period, set.userId, set.items])
      if (rows.length === ITEM_SETS_PER_INSERT) {
        await bulkInsert(database, 'wage_item_sets', itemSetColumns, rows, trx)
        rows = []
      }
    }
    await bulkInsert(database, 'wage_item_sets', itemSetColumns, rows, trx)

    const fresh = run.members.filter((m) => !paid.has(m.userId))
    for (let i = 0; i < fresh.length; i += 500) {
      await w
        .insertInto('wage_records')
        .values(
          fresh.slice(i, i + 500).map((m) => ({
            user_id: m.userId,
            period,
            amount: m.amount,
            torrent_count: m.torrentCount,
            total_size: m.totalSize,
            seed_hours: m.seedHours,
            sum_value: m.sumValue,
            below_minimum: m.belowMinimum ? 1 : 0,
            paid_at: null,
            paid_by_id: null,
            paid_by_name: null,
            computed_at: now,
            rule_version: run.rules.version,
          })),
        )
        .execute()
    }
    const keptPaid = paid.size
    await recordOperation(
      trx,
      {
        operator: args.operator,
        action: 'wages.compute',
        targetType: 'wage-period',
        targetId: period,
        detail: `生成 ${period} 工资：${fresh.length} 条，保留已发放 ${keptPaid} 条，规则版本 ${run.rules.version}`,
        ip: args.ip,
      },
      now,
    )
    return { ruleVersion: run.rules.version, saved: fresh.length, keptPaid }
  })
}

/** pg_advisory_xact_lock key of wage computes ("wage" in ASCII). */
const WAGE_LOCK_KEY = 0x77616765

/** POST /wages/pay: 未发放 → 已发放 once per record, whoever pays concurrently. */
export async function payWages(
  db: Kysely<DB>,
  args: { ids: number[]; now: number; operator: { id: number; username: string }; ip: string },
): Promise<{ paid: number; alreadyPaid: number; missing: number[] }> {
  const ids = [...new Set(args.ids)]
  return db.transaction().execute(async (trx) => {
    const w = wageDb(trx)
    const found = await w.selectFrom('wage_records').select('id').where('id', 'in', ids).execute()
    if (found.length !== ids.length) {
      const have = new Set(found.map((r) => r.id))
      return { paid: 0, alreadyPaid: 0, missing: ids.filter((id) => !have.has(id)) }
    }
    // The condition is the guard: a concurrent pay that got there first leaves nothing to update.
    const result = await w
      .updateTable('wage_records')
      .set({ payment: 1, paid_at: args.now, paid_by_id: args.operator.id, paid_by_name: args.operator.username })
      .where('id', 'in', ids)
      .where('payment', '=', 0)
      .executeTakeFirst()
    const paid = Number(result.numUpdatedRows ?? 0)
    await recordOperation(
      trx,
      {
        operator: args.operator,
        action: 'wages.pay',
        targetType: 'wage-record',
        targetId: ids.length === 1 ? ids[0] : null,
        detail: `发放工资：${paid} 条，此前已发放 ${ids.length - paid} 条（记录 ${ids.slice(0, 50).join(', ')}${ids.length > 50 ? ' …' : ''}）`,
        ip: args.ip,
      },
      args.now,
    )
    return { paid, alreadyPaid: ids.length - paid, missing: [] }
  })
}
