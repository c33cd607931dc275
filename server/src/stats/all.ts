/**
 * The dashboard's team-wide figures (AllSeedingStats). Everything comes from derived tables —
 * torrent labels, the count cube, member figures, daily aggregates — so a computation reads a few
 * thousand rows at most (plus one pass over torrent_labels) and never the millions of records.
 */
import { SeedType, AccountStatus } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { AllSeedingStats, ByStatus } from '@shared/entities'
import type { DB } from '../db/schema'
import { toIso } from '../db/time'
import { addDays, dayToIso, localDay } from '../domain/local-day'
import type { Rules } from '../rules/rules'
import type { WageEstimates } from '../wages/estimates'

export const DASHBOARD_DAYS = 30
export const TOP_WAGES = 10

export function emptyByStatus(): ByStatus {
  return { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 }
}

/** Records per status of one member (or of the team with user id 0), from the cube. */
export async function byStatusOf(db: Kysely<DB>, userId: number): Promise<ByStatus> {
  const rows = await db
    .selectFrom('seed_record_counts')
    .select(['status', (eb) => eb.fn.sum<number>('records').as('n')])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute()
  const out = emptyByStatus()
  for (const row of rows) if (row.status in out) out[row.status as keyof ByStatus] = Number(row.n)
  return out
}

export async function computeAllStats(
  db: Kysely<DB>,
  options: { now: number; rules: Rules; wages: WageEstimates },
): Promise<AllSeedingStats> {
  const { now, rules } = options
  const labels = await sql<{ seed_type: number; completion: number; n: number; size: number }>`select seed_type, completion, count(*) as n,
      coalesce(sum(size), 0) as size from torrent_labels group by seed_type, completion`.execute(db)
  const byCompletion = { 1: 0, 2: 0, 3: 0, 4: 0 }
  let officialTorrents = 0
  let officialSize = 0
  for (const row of labels.rows) {
    byCompletion[row.completion as 1 | 2 | 3 | 4] += Number(row.n)
    if (row.seed_type === SeedType.Official) {
      officialTorrents += Number(row.n)
      officialSize += Number(row.size)
    }
  }

  const members = await sql<{ members: number; active: number }>`select count(*) as members,
      coalesce(sum(case when m.seeding_count > 0 then 1 else 0 end), 0) as active
    from users u left join member_seed_stats m on m.user_id = u.id where u.role = 'normal' and u.status = ${sql.lit(AccountStatus.Normal)}`.execute(
    db,
  )
  const seeding = await sql<{
    size: number
  }>`select coalesce(sum(seeding_size), 0) as size from seed_record_counts where user_id = 0`.execute(db)

  const today = localDay(now, rules.timezone)
  const from = addDays(today, -(DASHBOARD_DAYS - 1))
  const daily = await db
    .selectFrom('daily_team_stats')
    .select(['day', 'seeding_count', 'seeding_size'])
    .where('day', '>=', from)
    .where('day', '<=', today)
    .orderBy('day')
    .execute()

  const [topWages, estimatedWages] = await Promise.all([options.wages.top(db, TOP_WAGES, now), options.wages.total(db, now)])
  return {
    officialTorrents,
    officialSize,
    completedOfficial: byCompletion[1],
    members: Number(members.rows[0]?.members ?? 0),
    activeMembers: Number(members.rows[0]?.active ?? 0),
    byStatus: await byStatusOf(db, 0),
    byCompletion,
    seedingSize: Number(seeding.rows[0]?.size ?? 0),
    daily: daily.map((d) => ({ date: dayToIso(d.day), seedingCount: Number(d.seeding_count), seedingSize: Number(d.seeding_size) })),
    topWages,
    estimatedWages,
    computedAt: toIso(now),
  }
}
