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
  /** 1 = 部分月份 (migration 0014). */
  partial: Generated<number>
  payment: Generated<number>
  paid_at: EpochMs | null
  paid_by_id: number | null
  paid_by_name: string | null
  computed_at: EpochMs
  rule_version: number
}

/** One member's items of a month as JSON (item-sets.ts). */
export interface WageItemSetsTable {
  period: string
  user_id: number
  items: string
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
  wage_item_sets: WageItemSetsTable
  wage_estimates: WageEstimatesTable
}

export type WageDB = DB & WageTables

export const wageDb = (db: Kysely<DB>): Kysely<WageDB> => db as unknown as Kysely<WageDB>
