/**
 * The statistics cache (one row per key in `stats_cache`): statistics.all answers from it, the
 * sync refreshes it after every derivation, statistics.refresh recomputes it on demand.
 */
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { allSeedingStatsSchema, type AllSeedingStats } from '@shared/entities'
import type { DB } from '../db/schema'
import { dataVersion } from '../db/data-version'
import { currentRules } from '../rules/rules'
import type { WageEstimates } from '../wages/estimates'
import { JsonText } from '../http/envelope'
import { computeAllStats } from './all'

const ALL_KEY = 'all-seeding'

export async function refreshAllStats(db: Kysely<DB>, options: { now: number; wages: WageEstimates }): Promise<AllSeedingStats> {
  // Fresh means the month's estimates too: brought up to date with the data, not up to ESTIMATE_MIN_REFRESH_MS old.
  await options.wages.catchUp?.(db, options.now)
  const version = await dataVersion(db)
  const stats = await computeAllStats(db, { now: options.now, rules: await currentRules(db), wages: options.wages })
  const row = { payload: JSON.stringify(stats), computed_at: options.now, data_version: version }
  // Refreshes are not ordered (a sync's under its lease, 刷新统计, the one after an admin change in the background): one
  // that read older data never replaces the figures of a newer data version. (Of the same version: the last written —
  // the clocks of a sync and a request may differ.)
  await db
    .insertInto('stats_cache')
    .values({ key: ALL_KEY, ...row })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ ...row, revision: sql`stats_cache.revision + 1` })
        .where('stats_cache.data_version', '<=', version),
    )
    .execute()
  return stats
}

/**
 * The row last read and its checked figures: a dashboard call whose row is still that one (same
 * revision, time and data version: until the next refresh, by any process) reads three numbers, not
 * the payload, and does not parse or check it again.
 */
let lastRead: { stamp: string; stats: AllSeedingStats; json: JsonText } | null = null

/** The row's identity: its revision, plus the refresh's time and data version (a row written anew starts at revision 0 again). */
const stampOf = (row: { revision: number; computed_at: number; data_version: number }) =>
  `${row.revision}/${row.computed_at}/${row.data_version}`

/** The stamp's query, built and compiled once per database: the dashboard's busiest call runs it every time. */
const stampQueries = new WeakMap<Kysely<DB>, CompiledQuery<{ revision: number; computed_at: number; data_version: number }>>()

function stampQuery(db: Kysely<DB>) {
  let query = stampQueries.get(db)
  if (!query) {
    query = db.selectFrom('stats_cache').where('key', '=', ALL_KEY).select(['revision', 'computed_at', 'data_version']).compile()
    stampQueries.set(db, query)
  }
  return query
}

/** The cached figures (with the time they were computed), computed now when there are none yet. */
export async function cachedAllStats(db: Kysely<DB>, options: { now: number; wages: WageEstimates }): Promise<AllSeedingStats> {
  const stamp = (await db.executeQuery(stampQuery(db))).rows[0]
  if (stamp && lastRead?.stamp === stampOf(stamp)) return lastRead.stats
  const row = await db
    .selectFrom('stats_cache')
    .where('key', '=', ALL_KEY)
    .select(['payload', 'revision', 'computed_at', 'data_version'])
    .executeTakeFirst()
  if (row) {
    const parsed = allSeedingStatsSchema.safeParse(JSON.parse(row.payload))
    if (parsed.success) {
      lastRead = { stamp: stampOf(row), stats: parsed.data, json: new JsonText(JSON.stringify(parsed.data)) }
      return parsed.data
    }
  }
  return refreshAllStats(db, options)
}

/** The same figures as their JSON text (statistics.all): the dashboard's busiest call skips serializing them. */
export async function cachedAllStatsJson(
  db: Kysely<DB>,
  options: { now: number; wages: WageEstimates },
): Promise<JsonText | AllSeedingStats> {
  const stats = await cachedAllStats(db, options)
  return lastRead?.stats === stats ? lastRead.json : stats
}
