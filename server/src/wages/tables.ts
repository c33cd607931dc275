/**
 * Kysely types of the wage tables (migration 0004_wages). Kept next to the engine; `wageDb(db)`
 * widens a `Kysely<DB>` to see them.
 */
import type { Generated, Kysely } from 'kysely'
import type { DB, EpochMs } from '../db/schema'

export interface WageRecordsTable {
  id: Generated<number>
  user_id: number
  period: string
  amount: number
  torrent_count: number
  total_size: number
  seed_hours: number
  sum_value: number
  below_minimum: number
  payment: Generated<number>
  paid_at: EpochMs | null
  paid_by_id: number | null
  paid_by_name: string | null
  computed_at: EpochMs
  rule_version: number
}

export interface WageItemsTable {
  period: string
  user_id: number
  torrent_id: number
  size: number
  seeders: number
  seed_hours: number
  uploaded: number
  keeper_rank: number
  value: number
  qualified: number
  reason: string | null
}

export interface WageEstimatesTable {
  user_id: number
  period: string
  amount: number
  torrent_count: number
  total_size: number
  below_minimum: number
  rank: number | null
}

export interface WageTables {
  wage_records: WageRecordsTable
  wage_items: WageItemsTable
  wage_estimates: WageEstimatesTable
}

export type WageDB = DB & WageTables

export const wageDb = (db: Kysely<DB>): Kysely<WageDB> => db as unknown as Kysely<WageDB>
