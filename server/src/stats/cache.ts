/**
 * The statistics cache (one row per key in `stats_cache`): statistics.all answers from it, the
 * sync refreshes it after every derivation, statistics.refresh recomputes it on demand.
 */
import type { Kysely } from 'kysely'
import { allSeedingStatsSchema, type AllSeedingStats } from '@shared/entities'
import type { DB } from '../db/schema'
import { dataVersion } from '../db/data-version'
import { currentRules } from '../rules/rules'
import type { WageEstimates } from '../wages/estimates'
import { JsonText } from '../http/envelope'
import { computeAllStats } from './all'

const ALL_KEY = 'all-seeding'

export async function refreshAllStats(db: Kysely<DB>, options: { now: number; wages: WageEstimates }): Promise<AllSeedingStats> {
  const version = await dataVersion(db)
  const stats = await computeAllStats(db, { now: options.now, rules: await currentRules(db), wages: options.wages })
  const row = { payload: JSON.stringify(stats), computed_at: options.now, data_version: version }
  await db
    .insertInto('stats_cache')
    .values({ key: ALL_KEY, ...row })
    .onConflict((oc) => oc.column('key').doUpdateSet(row))
    .execute()
  return stats
}

/**
 * The last payload read and its checked figures: a dashboard call whose row holds the same text
 * (until the next refresh, by any process) is not parsed and checked again.
 */
let lastRead: { payload: string; stats: AllSeedingStats; json: JsonText } | null = null

/** The cached figures (with the time they were computed), computed now when there are none yet. */
export async function cachedAllStats(db: Kysely<DB>, options: { now: number; wages: WageEstimates }): Promise<AllSeedingStats> {
  const row = await db.selectFrom('stats_cache').select('payload').where('key', '=', ALL_KEY).executeTakeFirst()
  if (row) {
    if (lastRead?.payload === row.payload) return lastRead.stats
    const parsed = allSeedingStatsSchema.safeParse(JSON.parse(row.payload))
    if (parsed.success) {
      lastRead = { payload: row.payload, stats: parsed.data, json: new JsonText(JSON.stringify(parsed.data)) }
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
