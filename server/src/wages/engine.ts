/**
 * The wage engine: feeds the pure calculator (formula.ts) from the streaming period reader, and
 * turns its results into previews, saved wage records with items, and estimates. On SQLite the
 * read + formula part runs in a worker thread (offload.ts); the writes stay here.
 *
 * Over 300 lines on purpose: compute, pay and their period lock are the rules that keep a paid
 * record untouched, and are read together here.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely'
import pLimit from 'p-limit'
import type { WageItem } from '@shared/entities'
import { bulkInsert, type BulkColumns, type BulkRow } from '../db/bulk'
import type { AppDatabase, DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { conflict } from '../errors'
import { yieldToEventLoop } from '../db/sql-fragments'
import { faultPause } from '../faults/pause'
import { recordOperation } from '../operation-log/record'
import { currentRules, type Rules, type RuleBody } from '../rules/rules'
import { createWageCalculator, reasonText, type WageItemResult } from './formula'
import { averageSeedHours } from './hours'
import { ItemSetCollector } from './item-sets'
import { periodBounds, type PeriodBounds } from './period'
import { runInWorker, workerFile } from './offload'
import { periodCounters, periodRecords, sameSecondClaims, wageMembers, type RangeScan } from './reader'
import { postgresParallelScan } from './pg-parallel-scan'
import { namedWageRecords } from './log-detail'
import { byName } from './queries'
import { wageDb } from './tables'
import type { ComputeArgs, ComputedPeriod, ComputeOutcome, PreviewAnswer, RunMember } from './worker-protocol'

export interface WageRun {
  rules: Rules
  bounds: PeriodBounds
  members: RunMember[]
}

/**
 * PostgreSQL wage runs at once in this process (more wait their turn). Each holds a pool connection for
 * its snapshot and takes a second one for half of its ranges: unbounded, as many runs as the pool has
 * connections would each hold one and wait for another until the pool's timeout failed them all. Two
 * leave the pool (database.ts: 10) room for requests, and bound the months' rows held in memory.
 */
export const POSTGRES_WAGE_RUNS = 2
const postgresRuns = pLimit(POSTGRES_WAGE_RUNS)

/**
 * Computes one period. `scan` reads the records' ranges (default: all here; the SQLite wage thread
 * splits them with a helper thread, parallel-scan.ts; a PostgreSQL run with a second connection,
 * pg-parallel-scan.ts). `onItems` receives each batch's items (a batch = a few thousand torrents)
 * as soon as their keeper ranks are settled; `body` overrides the rules' formula parameters (the
 * estimates' pace-scaled standards) without changing the version they are reported under.
 */
export async function runWages(
  db: Kysely<DB>,
  period: string,
  options: { rules?: Rules; body?: RuleBody; onItems?: (items: WageItemResult[]) => Promise<void> | void; scan?: RangeScan } = {},
): Promise<WageRun> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // One snapshot for every statement of the run, as the SQLite wage thread reads, its ranges read on two
    // connections (pg-parallel-scan.ts). A run inside a caller's transaction reads in that one, alone.
    if (!db.isTransaction)
      return postgresRuns(() =>
        db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute((trx) => runWages(trx, period, { ...options, scan: options.scan ?? postgresParallelScan(db, trx) })),
      )
    // The range statement's correlated lookups put its estimated cost over PostgreSQL's JIT thresholds: each of
    // the ~100 statements of a 2 M-record month was compiled with inlining and optimization (~0.7 s) to save
    // nothing on index lookups (a preview 58 s instead of ~8). Off for the rest of this transaction.
    await sql`set local jit = off`.execute(db)
  }
  const rules = options.rules ?? (await currentRules(db))
  const bounds = periodBounds(period, rules.timezone)
  const counters = await periodCounters(db, bounds)
  const members = await wageMembers(db, counters)
  const calculator = createWageCalculator(options.body ?? rules, members, bounds.endMs, await sameSecondClaims(db, counters))
  for await (const batch of periodRecords(db, counters, members, options.body ?? rules, { scan: options.scan })) {
    const items: WageItemResult[] = []
    for (const torrent of batch) for (const item of calculator.addTorrent(torrent)) items.push(item)
    if (options.onItems) await options.onItems(items)
    // Batches are JavaScript only (no statement gives the event loop its turn): requests go between them.
    await yieldToEventLoop()
  }
  const results = calculator
    .finish()
    .filter((m) => members.has(m.userId))
    .map((m) => ({ ...m, username: members.get(m.userId)!.username }))
  return { rules, bounds, members: results }
}

const byAmountThenName = (a: { amount: number; username: string }, b: { amount: number; username: string }) =>
  b.amount - a.amount || byName(a.username, b.username)

/** An item as the API shows it; `rules` are its run's (the reason's text carries their standards). */
export function itemOut(item: WageItemResult, rules: RuleBody): WageItem {
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
    reason: item.unqualified === null ? null : reasonText(item.unqualified, item, rules),
    partial: item.partial,
  }
}

/** POST /wages/preview: nothing saved; items only for `userId` (the breakdown drawer). */
export async function previewWages(db: Kysely<DB>, period: string, now: number, userId?: number): Promise<PreviewAnswer> {
  const target = await workerFile(db)
  return target ? runInWorker(target, { kind: 'preview', period, now, userId }) : previewInProcess(db, period, now, userId)
}

/** The estimates' run (members only, with their own formula parameters), in a worker where there can be one. */
export async function runWageMembers(db: Kysely<DB>, period: string, rules: Rules, body: RuleBody): Promise<RunMember[]> {
  const target = await workerFile(db)
  return target ? runInWorker(target, { kind: 'members', period, rules, body }) : (await runWages(db, period, { rules, body })).members
}

/** previewWages on `db` itself (a worker's connection, PostgreSQL, ':memory:'); `scan`: see runWages. */
export async function previewInProcess(
  db: Kysely<DB>,
  period: string,
  now: number,
  userId?: number,
  scan?: RangeScan,
): Promise<PreviewAnswer> {
  const picked: WageItemResult[] = []
  const run = await runWages(db, period, {
    scan,
    onItems: userId === undefined ? undefined : (batch) => void batch.forEach((i) => i.userId === userId && picked.push(i)),
  })
  const items = picked.map((i) => itemOut(i, run.rules))
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
      avgSeedHours: averageSeedHours(m.seedHours, m.torrentCount),
      computedAt,
      ruleVersion: run.rules.version,
      belowMinimum: m.belowMinimum,
      partial: m.partial,
      ...(userId === undefined ? {} : { items }),
    }))
  return { ruleVersion: run.rules.version, list }
}

/** Reads and computes a period for computeAndSave: the members, and the item sets of those `keep` accepts. */
export async function computePeriod(
  db: Kysely<DB>,
  period: string,
  keep: (userId: number) => boolean = () => true,
  scan?: RangeScan,
): Promise<ComputedPeriod> {
  const items = new ItemSetCollector()
  const run = await runWages(db, period, {
    scan,
    onItems: (batch) => {
      for (const item of batch) if (keep(item.userId)) items.add(item)
    },
  })
  return { ruleVersion: run.rules.version, members: run.members, itemSets: items.sets() }
}

/** Members' item sets per insert statement (each a few kB to a few hundred kB of JSON). */
const ITEM_SETS_PER_INSERT = 100

const itemSetColumns: BulkColumns = [
  ['period', 'text'],
  ['user_id', 'integer'],
  ['items', 'text'],
]

/**
 * POST /wages/compute: in ONE transaction, brings the period's unpaid records (and their items) to a
 * fresh computation, never touching a paid record or its items — nor one a payout to the site has started and not
 * finished — and logs the operation.
 *
 * A record keeps its id across recomputes (updated in place by (period, member); only members no
 * longer in the result lose theirs): a pay — or the payout module — holding an id still finds the
 * record. Compute and pay of one period serialize on the period's lock (`lockPeriods`).
 *
 * SQLite (a file): the whole job runs in the wage thread (worker.ts): it reads and computes first,
 * from the last commit, without holding the write lock; its own writer's transaction then writes that
 * result (`saveComputed`), so neither the reading nor the writing (at 2 M records: a 230 ms delete and
 * a 410 ms commit) holds the server's event loop. Whatever was paid meanwhile is seen by the
 * transaction (`existing` is read in it) and kept as it is, like a pay that came before the compute.
 * PostgreSQL reads the same way, in-process: one REPEATABLE READ snapshot on two connections
 * (runWages), then the write transaction — before, it computed inside the write transaction, where
 * READ COMMITTED gave each range statement its own snapshot and the period's lock was held throughout.
 * ':memory:' computes inside the transaction, after the lock; `inProcess` forces that on any database
 * (tests compare the two).
 */
export async function computeAndSave(
  database: AppDatabase,
  args: ComputeArgs,
  options: { inProcess?: boolean } = {},
): Promise<ComputeOutcome> {
  const target = options.inProcess ? null : await workerFile(database.db)
  if (target) return runInWorker(target, { kind: 'computeAndSave', ...args })
  const readFirst = database.dialect === 'postgres' && !options.inProcess
  return saveComputed(database, args, readFirst ? await computePeriod(database.db, args.period) : null)
}

/**
 * computeAndSave's transaction: writes `read` (computed beforehand from a snapshot, in the wage
 * thread), or computes inside the transaction when it is null.
 */
export async function saveComputed(database: AppDatabase, args: ComputeArgs, read: ComputedPeriod | null): Promise<ComputeOutcome> {
  const { period, now } = args
  return database.db.transaction().execute(async (trx) => {
    const w = wageDb(trx)
    await lockPeriods(trx, database.dialect, [period])
    const existing = await w.selectFrom('wage_records').select(['user_id', 'payment']).where('period', '=', period).execute()
    // Kept as they are: paid records, and those a payout to the site has started and not finished (its ledger
    // entry pending or 待核对 holds the amount the site may already have been credited; payout/ledger.ts).
    const paying = await trx
      .selectFrom('payout_ledger')
      .select('user_id')
      .where('period', '=', period)
      .where('state', 'in', ['pending', 'in_doubt'])
      .execute()
    const paidCount = existing.filter((r) => Number(r.payment) === 1).length
    const paid = new Set([...existing.filter((r) => Number(r.payment) === 1).map((r) => r.user_id), ...paying.map((r) => r.user_id)])
    let unpaidItems = w.deleteFrom('wage_item_sets').where('period', '=', period)
    if (paid.size) unpaidItems = unpaidItems.where('user_id', 'not in', [...paid])
    await unpaidItems.execute()

    const run = read ?? (await computePeriod(trx, period, (userId) => !paid.has(userId)))
    let rows: BulkRow[] = []
    for (const set of run.itemSets) {
      if (paid.has(set.userId)) continue
      rows.push([period, set.userId, set.items])
      if (rows.length === ITEM_SETS_PER_INSERT) {
        await bulkInsert(database, 'wage_item_sets', itemSetColumns, rows, trx)
        rows = []
      }
    }
    await bulkInsert(database, 'wage_item_sets', itemSetColumns, rows, trx)

    const fresh = run.members.filter((m) => !paid.has(m.userId))
    for (let i = 0; i < fresh.length; i += 500) {
      const values = fresh.slice(i, i + 500).map((m) => ({
        user_id: m.userId,
        period,
        amount: m.amount,
        torrent_count: m.torrentCount,
        total_size: m.totalSize,
        seed_hours: m.seedHours,
        sum_value: m.sumValue,
        below_minimum: m.belowMinimum ? 1 : 0,
        partial: m.partial ? 1 : 0,
        paid_at: null,
        paid_by_id: null,
        paid_by_name: null,
        computed_at: now,
        rule_version: run.ruleVersion,
      }))
      await w
        .insertInto('wage_records')
        .values(values)
        .onConflict((oc) =>
          oc
            .columns(['period', 'user_id'])
            .doUpdateSet((eb) => ({
              amount: eb.ref('excluded.amount'),
              torrent_count: eb.ref('excluded.torrent_count'),
              total_size: eb.ref('excluded.total_size'),
              seed_hours: eb.ref('excluded.seed_hours'),
              sum_value: eb.ref('excluded.sum_value'),
              below_minimum: eb.ref('excluded.below_minimum'),
              partial: eb.ref('excluded.partial'),
              computed_at: eb.ref('excluded.computed_at'),
              rule_version: eb.ref('excluded.rule_version'),
            }))
            .where('wage_records.payment', '=', 0),
        )
        .execute()
    }
    // Members no longer in the result (deleted, unlinked from the site) lose their unpaid record.
    const kept = new Set(run.members.map((m) => m.userId))
    const gone = existing.filter((r) => !paid.has(r.user_id) && !kept.has(r.user_id)).map((r) => r.user_id)
    for (let i = 0; i < gone.length; i += 500) {
      await w
        .deleteFrom('wage_records')
        .where('period', '=', period)
        .where('payment', '=', 0)
        .where('user_id', 'in', gone.slice(i, i + 500))
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
        detail: `生成 ${period} 工资：${fresh.length} 条，保留已发放 ${paidCount} 条${
          keptPaid > paidCount ? `、发放到站点未完成 ${keptPaid - paidCount} 条` : ''
        }，规则版本 ${run.ruleVersion}`,
        ip: args.ip,
      },
      now,
    )
    return { ruleVersion: run.ruleVersion, saved: fresh.length, keptPaid }
  })
}

/** First key of the per-period advisory locks ("wage" in ASCII); the second is yyyymm. */
const WAGE_LOCK_KEY = 0x77616765

/**
 * Serializes computes and pays of the given periods, across server processes too. PostgreSQL: a
 * transaction-scoped advisory lock per period, taken in period order (no deadlock between two
 * multi-period pays). SQLite: its one writer already runs transactions one after another.
 */
export async function lockPeriods(trx: Kysely<DB>, dialect: DialectName, periods: readonly string[]): Promise<void> {
  if (dialect !== 'postgres') return
  for (const period of [...new Set(periods)].sort()) {
    await sql`select pg_advisory_xact_lock(${WAGE_LOCK_KEY}, ${Number(period.replace('-', ''))})`.execute(trx)
  }
}

/**
 * POST /wages/pay: 未发放 → 已发放 once per record, whoever pays concurrently. Unknown ids → `missing`
 * and nothing paid; `alreadyPaid` counts only records that were paid before this call. With `amounts` (what the
 * admin saw, in the order of `ids`), an unpaid record whose amount is no longer that — the month was generated anew
 * since — stops the whole pay (409): marked paid, it would say the member got an amount nobody paid.
 */
export async function payWages(
  database: AppDatabase,
  args: { ids: number[]; amounts?: number[]; now: number; operator: { id: number; username: string }; ip: string },
): Promise<{ paid: number; alreadyPaid: number; missing: number[] }> {
  const ids = [...new Set(args.ids)]
  return database.db.transaction().execute(async (trx) => {
    const w = wageDb(trx)
    // Wait for a running compute of these months, then look: the records seen are the ones paid.
    const periods = await w.selectFrom('wage_records').select('period').distinct().where('id', 'in', ids).execute()
    await lockPeriods(
      trx,
      database.dialect,
      periods.map((p) => p.period),
    )
    const found = await w
      .selectFrom('wage_records as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.payment', 'r.amount', 'r.period', 'u.username'])
      .where('r.id', 'in', ids)
      .orderBy('r.id')
      .execute()
    if (found.length !== ids.length) {
      const have = new Set(found.map((r) => r.id))
      return { paid: 0, alreadyPaid: 0, missing: ids.filter((id) => !have.has(id)) }
    }
    if (args.amounts) {
      const seen = new Map(args.ids.map((id, i) => [id, args.amounts![i]]))
      const changed = found.filter((r) => r.payment === 0 && seen.get(r.id) !== Number(r.amount))
      if (changed.length)
        throw conflict(
          `工资已重新生成，金额有变化：${changed
            .slice(0, 5)
            .map((r) => `${r.username} ${r.period} ${seen.get(r.id)} → ${Number(r.amount)}`)
            .join('、')}${changed.length > 5 ? ` 等 ${changed.length} 条` : ''}。请核对新的金额后再标记已发放`,
        )
    }
    // A payout into the site that was cut (shown 失败 until tried again) or is 待核对 may already have credited the
    // member: paid by hand as well, the member would have it twice — and the console could no longer finish it.
    // A webhook delivery still being retried stops instead (payout/service.ts retryDue).
    const open = await trx
      .selectFrom('payout_ledger')
      .select('wage_id')
      .where('wage_id', 'in', ids)
      .where((eb) => eb.or([eb('state', '=', 'in_doubt'), eb.and([eb('state', '=', 'pending'), eb('target', '!=', 'webhook')])]))
      .orderBy('wage_id')
      .execute()
    if (open.length)
      throw conflict(
        `工资记录 ${open
          .slice(0, 20)
          .map((r) => `#${r.wage_id}`)
          .join('、')} 的「发放到站点」尚未完成，站点可能已入账：请先再次发放到站点，或在待核对中处理，不能标记为已发放`,
      )
    // The condition is the guard: a concurrent pay that got there first leaves nothing to update.
    const result = await w
      .updateTable('wage_records')
      .set({ payment: 1, paid_at: args.now, paid_by_id: args.operator.id, paid_by_name: args.operator.username })
      .where('id', 'in', ids)
      .where('payment', '=', 0)
      .executeTakeFirst()
    const paid = Number(result.numUpdatedRows ?? 0)
    const alreadyPaid = ids.length - paid
    await faultPause('wages.pay')
    // The log records changes: a pay of records that were all paid already changed nothing.
    if (paid === 0) return { paid, alreadyPaid, missing: [] }
    const named = await w
      .selectFrom('wage_records as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'u.username', 'r.period'])
      .where('r.id', 'in', ids.slice(0, 5))
      .orderBy('r.id')
      .execute()
    await recordOperation(
      trx,
      {
        operator: args.operator,
        action: 'wages.pay',
        targetType: 'wage-record',
        targetId: ids.length === 1 ? ids[0] : null,
        detail: `标记已发放：${paid} 条，此前已发放 ${alreadyPaid} 条（${namedWageRecords(named, ids.length)}）`,
        ip: args.ip,
      },
      args.now,
    )
    return { paid, alreadyPaid, missing: [] }
  })
}
