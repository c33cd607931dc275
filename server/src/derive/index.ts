/**
 * The derivation (docs/architecture.md "Derivation"): turns the mirror and the system of record
 * into seed records, torrent labels and counts. Runs after every sync, with the sync time.
 *
 * Incremental by default: only what writers queued in `derive_queue` (same transaction as their
 * change) plus the records whose active peer aged out of the window since the last pass. A full
 * pass (first run, new rule version, or asked for) judges everything. The work is cut into id
 * ranges, one short transaction each, with the event loop free in between: requests keep being
 * served during a long pass, and every committed state is consistent per member (a member's
 * records, cube rows and figures change together). Exception: PostgreSQL's full pass is one
 * transaction of whole-table statements (whole-pass.ts).
 */
import { type Kysely, sql } from 'kysely'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { int, yieldToEventLoop } from '../db/sql-fragments'
import { currentRules } from '../rules/rules'
import { activeSince, passContext } from './context'
import { rebuildCounts } from './counts'
import { judgeRange } from './records'
import { analyzeScratch, memberRanges, scopeMembers, scopeQueued, workRanges } from './scope'
import { deriveWhole } from './whole-pass'
import { bumpDataVersion, clearScratch, inTransaction, type PassRun } from './pass'
import { countKeepers, labelTorrents, scopeAllTorrents, scopeQueuedTorrents, scopeTorrentsOfWork, torrentRanges } from './torrent-labels'

export interface DeriveOptions {
  /** The sync time (epoch ms). */
  now: number
  /** Judge everything, whatever the queue says. */
  full?: boolean
  /** Records per transaction (default DEFAULT_BATCH of the dialect); torrents per transaction are 2.5× that. */
  batchSize?: number
  /** PostgreSQL: share of the records a queue may touch before the whole-table form is used (default WHOLE_PASS_SHARE). */
  wholeShare?: number
  onProgress?: (step: DeriveStep, done: number, total: number) => void
}

export type DeriveStep = 'torrents' | 'records' | 'keepers' | 'counts'

export interface DeriveOutcome {
  /** Everything was to be judged (first pass, new rule version, or asked for). */
  full: boolean
  /** Judged by PostgreSQL's whole-table form (a full pass, or a big incremental one). */
  whole: boolean
  rulesVersion: number
  /** Torrents whose labels were (re)computed. */
  torrents: number
  /** Pairs judged. */
  judged: number
  /** Records written or deleted. */
  changed: number
  ms: number
  /** Milliseconds per step (torrents, scope, records, keepers, finish). */
  steps: Record<string, number>
}

/**
 * Records per transaction. SQLite runs each statement synchronously, holding every request for its
 * length: batches stay short (20,000 held them up to ~0.5 s a statement on the default demo set on a
 * busy machine; 8,000 up to ~0.25 s). PostgreSQL readers never wait for a writer (MVCC), and its hash
 * joins scan whole tables per statement, so fewer, bigger batches are cheaper there.
 */
export const DEFAULT_BATCH = { sqlite: 8_000, postgres: 100_000 } as const

/** PostgreSQL: share of the records a queue may touch before the whole-table form is used. */
export const WHOLE_PASS_SHARE = 0.05

export async function derive(database: AppDatabase, options: DeriveOptions): Promise<DeriveOutcome> {
  const started = performance.now()
  const { db } = database
  const batch = options.batchSize ?? DEFAULT_BATCH[database.dialect]
  const rules = await currentRules(db)
  const state = await db.selectFrom('sync_state').select(['derived_at', 'derived_rules_version']).where('id', '=', 1).executeTakeFirst()
  // A pass that died half-way (an error, a kill) may have committed torrent labels whose records it never judged: the
  // labels then match their torrents, and an incremental pass would flag nothing to judge again. Its scratch rows
  // (cleared only by a pass's last transaction) say so: the next pass is full.
  const unfinished = (await sql`select 1 as x from derive_torrents limit 1`.execute(db)).rows.length > 0
  const full = Boolean(options.full) || unfinished || !state || state.derived_at === null || state.derived_rules_version !== rules.version
  const ctx = await passContext(db, database.dialect, options.now, rules)
  const progress = options.onProgress ?? (() => {})
  const steps: Record<string, number> = {}
  let mark = performance.now()
  const lap = (name: string) => {
    const t = performance.now()
    steps[name] = Math.round((steps[name] ?? 0) + t - mark)
    mark = t
  }

  // Queue rows up to here belong to this pass; rows added meanwhile wait for the next one. PostgreSQL: ids come from a
  // sequence and transactions commit out of id order — an admin's assignment that drew its id before the sync's last
  // write drew a higher one, and committed after this pass read the queue, sat below the mark unjudged and was deleted
  // with it. The table lock waits for every transaction that has queued rows (an insert holds its lock until commit):
  // once it is granted every id drawn so far is committed, and every later one is higher.
  const maxQueueId = await db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`lock table derive_queue in exclusive mode`.execute(trx)
    return Number((await sql<{ m: number | null }>`select max(id) as m from derive_queue`.execute(trx)).rows[0]?.m ?? 0)
  })

  const finish = async (trx: Kysely<DB>, rebuild: boolean): Promise<void> => {
    if (rebuild) {
      await rebuildCounts(trx)
      progress('counts', 1, 1)
    }
    await sql`delete from derive_queue where id <= ${maxQueueId}`.execute(trx)
    await sql`delete from derive_torrents`.execute(trx)
    await sql`update sync_state set derived_at = ${int(options.now)}, derived_rules_version = ${rules.version},
      data_version = data_version + 1 where id = 1`.execute(trx)
  }

  const run: PassRun = { ctx, finish, lap, progress }
  if (full ? database.dialect === 'postgres' : await wholePassPays(database, maxQueueId, options.wholeShare ?? WHOLE_PASS_SHARE)) {
    const outcome = await deriveWhole(run)
    return { full, whole: true, rulesVersion: rules.version, ...outcome, ms: Math.round(performance.now() - started), steps }
  }

  const prevSince = state?.derived_at != null ? activeSince(state.derived_at, rules) : null
  const outcome = await deriveInRanges(run, { full, batch, maxQueueId, prevSince })
  return { full, whole: false, rulesVersion: rules.version, ...outcome, ms: Math.round(performance.now() - started), steps }
}

/**
 * The pass in short transactions: torrent labels, then records one member range at a time, then the
 * torrents' keepers, with the event loop free in between. `prevSince`: where the active window began
 * at the last pass (peers that aged out since are judged again), null when there was none.
 */
async function deriveInRanges(
  { ctx, finish, lap, progress }: PassRun,
  { full, batch, maxQueueId, prevSince }: { full: boolean; batch: number; maxQueueId: number; prevSince: number | null },
): Promise<{ torrents: number; judged: number; changed: number }> {
  const { db } = ctx
  await clearScratch(ctx)
  if (full) await scopeAllTorrents(db)
  else await scopeQueuedTorrents(db, maxQueueId)
  await analyzeScratch(ctx, 'derive_torrents')

  // 1. Seed types first: records copy them.
  const torrentBatch = Math.round(batch * 2.5)
  let ranges = await torrentRanges(db, torrentBatch)
  for (const [i, range] of ranges.entries()) {
    await inTransaction(ctx, async (trx) => {
      await labelTorrents({ ...ctx, db: trx }, range, !full)
      // Names and seed types are derived data too: answers cached per data version must see them.
      await bumpDataVersion({ ...ctx, db: trx })
    })
    progress('torrents', i + 1, ranges.length)
    await yieldToEventLoop()
  }
  const torrents = Number((await sql<{ n: number }>`select count(*) as n from derive_torrents`.execute(db)).rows[0].n)
  lap('torrents')

  // 2. Records, one member range per transaction.
  let judged = 0
  let changed = 0
  if (full) {
    ranges = await memberRanges(db, batch)
  } else {
    await scopeQueued(ctx, maxQueueId, prevSince)
    await scopeTorrentsOfWork(db)
    await analyzeScratch(ctx, 'derive_work')
    await analyzeScratch(ctx, 'derive_torrents')
    judged = Number((await sql<{ n: number }>`select count(*) as n from derive_work`.execute(db)).rows[0].n)
    ranges = await workRanges(db, batch)
  }
  lap('scope')
  for (const [i, range] of ranges.entries()) {
    changed += await inTransaction(ctx, async (trx) => {
      const inner = { ...ctx, db: trx }
      if (full) {
        await scopeMembers(trx, range)
        await analyzeScratch(inner, 'derive_work')
        judged += Number((await sql<{ n: number }>`select count(*) as n from derive_work`.execute(trx)).rows[0].n)
      }
      const n = await judgeRange(inner, range)
      await bumpDataVersion(inner)
      return n
    })
    progress('records', i + 1, ranges.length)
    await yieldToEventLoop()
  }
  lap('records')

  // 3. Completion and assignment label of every torrent whose records were judged (a full pass recounts keepers and records too).
  ranges = await torrentRanges(db, torrentBatch)
  for (const [i, range] of ranges.entries()) {
    await inTransaction(ctx, async (trx) => {
      await countKeepers({ ...ctx, db: trx }, range, full)
      await bumpDataVersion({ ...ctx, db: trx })
    })
    progress('keepers', i + 1, ranges.length)
    await yieldToEventLoop()
  }
  lap('keepers')

  await inTransaction(ctx, (trx) => finish(trx, full))
  lap('finish')

  return { torrents, judged, changed }
}

/**
 * PostgreSQL, incremental pass: when the queue touches more than `share` of the records (a sync on a
 * busy site: every active seeder's counters grow), judging everything in one whole-table pass is
 * cheaper than ranges that each scan the sources again (at 2M records: ~30 s against ~265 s).
 * SQLite always judges in ranges.
 */
async function wholePassPays(database: AppDatabase, maxQueueId: number, share: number): Promise<boolean> {
  if (database.dialect !== 'postgres') return false
  const { db } = database
  const queued = Number((await sql<{ n: number }>`select count(*) as n from derive_queue where id <= ${maxQueueId}`.execute(db)).rows[0].n)
  const records = Number(
    (await sql<{ n: number | null }>`select sum(records) as n from seed_record_counts where user_id = 0`.execute(db)).rows[0].n ?? 0,
  )
  return queued > share * records
}
