/**
 * A month of real wages for the payout tests: members with site uids, each keeping an official
 * torrent through January 2026 (and a second one that falls short), run through the derivation,
 * the month-boundary snapshots and the wage engine — the path a real month takes.
 */
import type { AppDatabase } from '../../db/database'
import { derive } from '../../derive'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import { copyMonthEnd, copyRecordCounters } from '../../snapshots/write'
import { SeedingWorld } from '../../test/seeding-world'
import { computeAndSave } from '../../wages/engine'
import { wageDb } from '../../wages/tables'

export const PERIOD = '2026-01'
export const AFTER_MONTH = Date.UTC(2026, 1, 10, 4, 0, 0)
const H = 3600
const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
const ADDED = Date.UTC(2025, 5, 1)

export interface WageMonth {
  /** Console user id by site uid. */
  users: Map<number, number>
  /** Wage record ids of the month, by site uid. */
  wages: Map<number, number>
  amounts: Map<number, number>
}

/**
 * `count` members with site uids `firstUid`…; member i seeds 400 + i hours, so every wage differs. The last `idle` of
 * them seed 10 hours only: their wage is 0. `compute: false` leaves the month uncomputed (a test computes it through
 * the API); `wages` and `amounts` are then empty.
 */
export async function buildWageMonth(
  database: AppDatabase,
  options: { count: number; idle?: number; firstUid?: number; operator: { id: number; username: string }; compute?: boolean },
): Promise<WageMonth> {
  const { db } = database
  const w = new SeedingWorld(db)
  const firstUid = options.firstUid ?? 1001
  const users = new Map<number, number>()
  await w.team(1, 'CedarHD')
  await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - 86_400_000, null)
  const start = { finished: true, seedtime: 1000 * H, uploaded: 5 * GIB, lastAction: JAN_START - 86_400_000 }
  for (let i = 0; i < options.count; i++) {
    const uid = firstUid + i
    users.set(uid, await w.member(`keeper${String(i).padStart(3, '0')}`, uid))
    const kept = 2 * i + 1
    const short = 2 * i + 2
    await w.torrent(kept, { team: 1, size: 10 * GIB, added: ADDED, seeders: 2, name: `星河 Official.${kept}.2024.1080p-CedarHD` })
    await w.torrent(short, { team: 1, size: 4 * GIB, added: ADDED, seeders: 2, name: `远山 Official.${short}.2023.720p-CedarHD` })
    await w.snatch(uid, kept, start)
    await w.snatch(uid, short, start)
    await w.claim(uid, kept, Date.UTC(2025, 6, 1))
    await w.claim(uid, short, Date.UTC(2025, 6, 1))
  }
  await derive(database, { now: JAN_START + 30 * 60_000 })
  await copyRecordCounters(db, 20260101)
  for (let i = 0; i < options.count; i++) {
    const uid = firstUid + i
    const idle = i >= options.count - (options.idle ?? 0)
    await w.updateSnatch(uid, 2 * i + 1, { seedtime: (idle ? 1010 : 1400 + i) * H })
    await w.updateSnatch(uid, 2 * i + 2, { seedtime: 1010 * H })
  }
  await derive(database, { now: FEB_START + 30 * 60_000 })
  // The month's end as the sync keeps it: the torrents, claims and accounts of the day, then the counters.
  await copyMonthEnd(db, 20260201)
  await copyRecordCounters(db, 20260201)
  if (options.compute === false) return { users, wages: new Map(), amounts: new Map() }
  await computeAndSave(database, { period: PERIOD, now: AFTER_MONTH, operator: options.operator, ip: '127.0.0.1' })
  const rows = await wageDb(db)
    .selectFrom('wage_records as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.id', 'u.site_uid', 'w.amount'])
    .where('w.period', '=', PERIOD)
    .execute()
  const wages = new Map<number, number>()
  const amounts = new Map<number, number>()
  for (const row of rows) {
    wages.set(Number(row.site_uid), Number(row.id))
    amounts.set(Number(row.site_uid), Number(row.amount))
  }
  return { users, wages, amounts }
}
