/**
 * This month's estimated wages for the statistics (dashboard total and top of the rank, each
 * member's estimate and rank) and the below-minimum flags behind status 5 (无工资: a claimed record
 * seeded right now that cannot earn this month).
 *
 * The estimate is the running month so far: the period's start snapshot → the live counters of
 * the last sync, through the same engine as `compute`. One judgement differs on purpose: the
 * qualification standards (standardSeedHours, standardUploadedTimes) are scaled to the share of
 * the month the counters have seen — "on pace" — otherwise every member would be unqualified (and
 * every claimed record 无工资) for the first ~12 days of each month. The minimums are not scaled, and
 * nobody is flagged below them until a day of the month has been seen (MIN_OBSERVED_MS).
 *
 * Results are kept in `wage_estimates` (one row per member) and recomputed when the month, the
 * rule version or the derived data changed, at most every `minRefreshMs` for data changes: one
 * pass reads every claimed/assigned official record, so it must not run per dashboard request.
 * Members whose below-minimum flag flips are queued for the derivation, so their claimed seeding
 * records turn status 5 (or back) on the next sync.
 *
 * `pendingWageEstimates` (all empty) stays for tests that do not want the engine.
 */
import { type Kysely, sql } from 'kysely'
import type { WageRankEntry } from '@shared/entities'
import type { DB } from '../db/schema'
import { queueMembers } from '../derive/queue'
import { AppError } from '../errors'
import { addDays, dayStart } from '../domain/local-day'
import { dataVersion } from '../db/data-version'
import { binaryOrder, dialectOf } from '../db/sql-fragments'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { currentRules } from '../rules/rules'
import { runWageMembers } from './engine'
import { periodBounds, periodOf } from './period'
import { byName } from './queries'
import { wageDb } from './tables'

export interface WageEstimates {
  /** This month's rank so far, best first, at most `limit` entries. */
  top(db: Kysely<DB>, limit: number, now: number): Promise<WageRankEntry[]>
  /** Sum of this month's estimated wages of all members. */
  total(db: Kysely<DB>, now: number): Promise<number>
  /** One member's estimate and rank this month (rank null: not ranked). */
  forMember(db: Kysely<DB>, userId: number, now: number): Promise<{ amount: number; rank: number | null }>
  /**
   * Recomputes now if the data, rules or month changed since, not waiting out the refresh interval: what an admin's
   * explicit refresh of the statistics asks for (they are computed afresh, the estimates with them).
   */
  catchUp?(db: Kysely<DB>, now: number): Promise<void>
}

export const pendingWageEstimates: WageEstimates = {
  top: async () => [],
  total: async () => 0,
  forMember: async () => ({ amount: 0, rank: null }),
}

const META_KEY = 'wage-estimates'
/**
 * Below-minimum flags need a day of counters: on the first syncs of a month (or of a new install)
 * every member's gains are ~0, and flagging them all would turn every claimed seeding record 无工资
 * and make the next derivation re-judge the whole team, only to turn them back a few syncs later.
 */
export const MIN_OBSERVED_MS = 24 * 3600_000
/** Default: data changes refresh the estimates at most every 10 minutes (rule and month changes at once). */
export const ESTIMATE_MIN_REFRESH_MS = 10 * 60_000

interface Meta {
  period: string
  ruleVersion: number
  dataVersion: number
  total: number
}

export interface EngineWageEstimates extends WageEstimates {
  /** Recomputes now if stale (or always with `force`); returns the period the rows are for. */
  refresh(db: Kysely<DB>, now: number, force?: boolean): Promise<void>
}

/** Sum with cents kept exact. */
const sum2 = (values: number[]) => Math.round(values.reduce((s, v) => s + Math.round(v * 100), 0)) / 100

export function createWageEstimates(options: { minRefreshMs?: number } = {}): EngineWageEstimates {
  const minRefreshMs = options.minRefreshMs ?? ESTIMATE_MIN_REFRESH_MS
  let running: Promise<void> | null = null

  async function readMeta(db: Kysely<DB>): Promise<{ meta: Meta; computedAt: number } | null> {
    const row = await db.selectFrom('stats_cache').select(['payload', 'computed_at']).where('key', '=', META_KEY).executeTakeFirst()
    if (!row) return null
    try {
      return { meta: JSON.parse(row.payload) as Meta, computedAt: Number(row.computed_at) }
    } catch {
      return null
    }
  }

  async function recompute(db: Kysely<DB>, now: number): Promise<void> {
    const rules = await currentRules(db)
    const version = await dataVersion(db)
    const period = periodOf(now, rules.timezone)
    const bounds = periodBounds(period, rules.timezone)
    // The pace is the share of the month the counters have seen: from the 1st, or when the server started later (a new
    // install, a new source) from the end of the first snapshot's day. That snapshot was taken at some hour of its day, not
    // at its midnight: counted from there, a first sync at 18:00 had "a day" of counters by 00:30 and the minimums,
    // scaled to that day, flagged every member 无工资 (found by an outside tester).
    const startDay = await snapshotDayOnOrAfter(db, bounds.startDay)
    const observedFrom =
      startDay === null || startDay >= bounds.nextStartDay
        ? now
        : startDay === bounds.startDay
          ? bounds.startMs
          : dayStart(addDays(startDay, 1), rules.timezone)
    const observedMs = Math.max(0, now - observedFrom)
    const pace = Math.min(1, observedMs / (bounds.endMs - bounds.startMs))
    const body = { ...rules, standardSeedHours: rules.standardSeedHours * pace, standardUploadedTimes: rules.standardUploadedTimes * pace }
    let members: { userId: number; username: string; amount: number; torrentCount: number; totalSize: number; belowMinimum: boolean }[] = []
    try {
      // On SQLite in a worker (offload.ts): the dashboard request that triggered it is not the only one waiting.
      members = await runWageMembers(db, period, rules, body)
    } catch (error) {
      // No snapshot of this month yet (first sync of the month still to come): nothing to estimate.
      if (!(error instanceof AppError && error.code === 409)) throw error
    }
    // Too little of the month seen to judge anyone below the minimums: nobody is 无工资 for it.
    if (observedMs < MIN_OBSERVED_MS) members = members.map((m) => ({ ...m, belowMinimum: false }))
    const ranked = members.filter((m) => m.amount > 0).sort((a, b) => b.amount - a.amount || byName(a.username, b.username))
    // Equal amounts share a rank, as in 工资排行 (wages/queries.ts periodRank).
    const rankOf = new Map<number, number>()
    ranked.forEach((m, i) => rankOf.set(m.userId, i > 0 && m.amount === ranked[i - 1].amount ? rankOf.get(ranked[i - 1].userId)! : i + 1))
    const meta: Meta = { period, ruleVersion: rules.version, dataVersion: version, total: sum2(members.map((m) => m.amount)) }

    const row = { payload: JSON.stringify(meta), computed_at: now, data_version: version }
    await db.transaction().execute(async (trx) => {
      // The meta row first: it stays locked until the commit, so another server process recomputing
      // at the same moment waits here instead of colliding on wage_estimates' keys.
      await trx
        .insertInto('stats_cache')
        .values({ key: META_KEY, ...row })
        .onConflict((oc) => oc.column('key').doUpdateSet(row))
        .execute()
      const w = wageDb(trx)
      const before = new Set(
        (await w.selectFrom('wage_estimates').select('user_id').where('below_minimum', '=', 1).execute()).map((r) => r.user_id),
      )
      const after = new Set(members.filter((m) => m.belowMinimum).map((m) => m.userId))
      const flipped = [...new Set([...before, ...after])].filter((id) => before.has(id) !== after.has(id))
      await w.deleteFrom('wage_estimates').execute()
      for (let i = 0; i < members.length; i += 500) {
        await w
          .insertInto('wage_estimates')
          .values(
            members.slice(i, i + 500).map((m) => ({
              user_id: m.userId,
              period,
              amount: m.amount,
              torrent_count: m.torrentCount,
              total_size: m.totalSize,
              below_minimum: m.belowMinimum ? 1 : 0,
              rank: rankOf.get(m.userId) ?? null,
            })),
          )
          .execute()
      }
      // The derivation re-judges these members: their claimed seeding records turn 5 or back.
      if (flipped.length) await queueMembers(trx, flipped)
    })
  }

  async function stale(db: Kysely<DB>, now: number, interval = minRefreshMs): Promise<boolean> {
    const [state, rules, version] = await Promise.all([readMeta(db), currentRules(db), dataVersion(db)])
    return !(
      state &&
      state.meta.period === periodOf(now, rules.timezone) &&
      state.meta.ruleVersion === rules.version &&
      (state.meta.dataVersion === version || now - state.computedAt < interval)
    )
  }

  /**
   * Single flight: concurrent callers (top and total of one refresh, dashboards) share one check and pass. A catch-up or
   * a forced refresh waits for the one in flight and then checks again: that one may have read older data, or judged
   * estimates of an older version fresh enough (under its interval).
   */
  function refresh(db: Kysely<DB>, now: number, force = false, interval = minRefreshMs): Promise<void> {
    if (running) {
      const inFlight = running
      return force || interval < minRefreshMs ? inFlight.catch(() => {}).then(() => refresh(db, now, force, interval)) : inFlight
    }
    running = (async () => {
      if (force || (await stale(db, now, interval))) await recompute(db, now)
    })().finally(() => (running = null))
    return running
  }

  return {
    refresh: (db, now, force) => refresh(db, now, force),
    catchUp: (db, now) => refresh(db, now, false, 0),
    async top(db, limit, now) {
      await refresh(db, now)
      const rows = await wageDb(db)
        .selectFrom('wage_estimates as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.user_id', 'u.username', 'e.period', 'e.amount', 'e.torrent_count', 'e.total_size', 'e.rank'])
        .where('e.rank', 'is not', null)
        .orderBy('e.rank')
        // A tie shares its rank: listed by name, as 工资排行 lists it (byte order: not the database's collation).
        .orderBy(binaryOrder(dialectOf(db), sql`u.username`))
        .orderBy('e.user_id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        rank: Number(r.rank),
        userId: r.user_id,
        username: r.username,
        period: r.period,
        amount: Number(r.amount),
        torrentCount: Number(r.torrent_count),
        totalSize: Number(r.total_size),
      }))
    },
    async total(db, now) {
      await refresh(db, now)
      return (await readMeta(db))?.meta.total ?? 0
    },
    async forMember(db, userId, now) {
      await refresh(db, now)
      const row = await wageDb(db).selectFrom('wage_estimates').select(['amount', 'rank']).where('user_id', '=', userId).executeTakeFirst()
      return row ? { amount: Number(row.amount), rank: row.rank === null ? null : Number(row.rank) } : { amount: 0, rank: null }
    },
  }
}
