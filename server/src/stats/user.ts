/** One member's figures (UserSeedingStats): current counts from the cube, history from daily aggregates. */
import type { Kysely } from 'kysely'
import type { UserSeedingStats } from '@shared/entities'
import type { DB } from '../db/schema'
import { addDays, dayToIso, localDay } from '../domain/local-day'
import { notFound } from '../errors'
import { currentRules, type Rules } from '../rules/rules'
import type { WageEstimates } from '../wages/estimates'
import { byStatusOf } from './all'

export async function computeUserStats(
  db: Kysely<DB>,
  userId: number,
  options: { now: number; days: number; rules: Rules; wages: WageEstimates },
): Promise<UserSeedingStats> {
  const figures = await db.selectFrom('member_seed_stats').selectAll().where('user_id', '=', userId).executeTakeFirst()
  const today = localDay(options.now, options.rules.timezone)
  const from = addDays(today, -(options.days - 1))
  // One day more than shown: the first day's upload is its total minus the day before's.
  const rows = await db
    .selectFrom('daily_member_stats')
    .select(['day', 'seeding_count', 'seeding_size', 'uploaded'])
    .where('user_id', '=', userId)
    .where('day', '>=', addDays(from, -1))
    .where('day', '<=', today)
    .orderBy('day')
    .execute()
  const daily: UserSeedingStats['daily'] = []
  let previous: number | null = null
  for (const row of rows) {
    const total = Number(row.uploaded)
    if (row.day >= from) {
      daily.push({
        date: dayToIso(row.day),
        seedingCount: Number(row.seeding_count),
        seedingSize: Number(row.seeding_size),
        uploaded: previous === null ? 0 : Math.max(0, total - previous),
      })
    }
    previous = total
  }
  const wage = await options.wages.forMember(db, userId, options.now)
  return {
    userId,
    byStatus: await byStatusOf(db, userId),
    seedingCount: Number(figures?.seeding_count ?? 0),
    seedingSize: Number(figures?.seeding_size ?? 0),
    uploaded: Number(figures?.uploaded ?? 0),
    estimatedWage: wage.amount,
    rank: wage.rank,
    daily,
  }
}

/** A user's figures under the current rules; an unknown user id is a 404. */
export async function userSeedingStats(
  db: Kysely<DB>,
  userId: number,
  options: { now: number; days: number; wages: WageEstimates },
): Promise<UserSeedingStats> {
  const exists = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (!exists) throw notFound('用户不存在')
  return computeUserStats(db, userId, { ...options, rules: await currentRules(db) })
}
