/**
 * The demo's past: a freshly generated community has only "now", but the dashboard's charts and
 * the wage engine want months of history. This synthesises it the way the sync would have kept it:
 * counter snapshots for every month start in the history window and for the rolling days (each
 * record's counters interpolated linearly from its snatch start to now; a month start keeps the
 * torrents' seeders too, today's), and daily aggregates per
 * member and for the team (smooth trends with day-to-day noise, ending at today's real figures).
 */
import { sql } from 'kysely'
import type { AppDatabase } from '../../db/database'
import { bulkInsert, type BulkRow } from '../../db/bulk'
import { int } from '../../db/sql-fragments'
import { addDays, dayStart, localDay } from '../../domain/local-day'
import { ROLLING_SNAPSHOT_DAYS } from '../../snapshots/policy'
import { copyTorrentSeeders } from '../../snapshots/write'
import { Prng } from './prng'

const SNAPSHOT_RANGE = 200_000

export interface HistoryOptions {
  now: number
  timeZone: string
  days: number
  seed: string
}

/** The snapshot days a server running for `days` days would have kept (today excluded: the sync takes it). */
export function historicSnapshotDays(today: number, days: number): number[] {
  const first = addDays(today, -days)
  const kept = new Set<number>()
  for (let day = addDays(today, -1); day >= first; day = addDays(day, -1)) {
    if (day % 100 === 1 || day >= addDays(today, -ROLLING_SNAPSHOT_DAYS)) kept.add(day)
  }
  // The window's first month is only partly inside it: its first kept day is where history starts.
  kept.add(first)
  return [...kept].sort((a, b) => a - b)
}

export async function synthesiseHistory(database: AppDatabase, options: HistoryOptions): Promise<void> {
  const { db } = database
  const { now, timeZone } = options
  const today = localDay(now, timeZone)

  const bounds = (await sql<{ lo: number | null; hi: number | null }>`select min(id) as lo, max(id) as hi from seed_records`.execute(db))
    .rows[0]
  const lo = Number(bounds?.lo ?? 0)
  const hi = Number(bounds?.hi ?? -1)
  const months = new Set<number>()
  for (const day of historicSnapshotDays(today, options.days)) {
    // Each month's first day keeps the torrents' seeders too, as the sync's snapshot does (the previous month's `N`).
    // The demo has no history of them: today's, which is what a month computed before 0.3.4 read.
    if (!months.has(Math.floor(day / 100))) {
      months.add(Math.floor(day / 100))
      await copyTorrentSeeders(db, day)
    }
    const at = dayStart(day, timeZone)
    // Share of today's counters reached at `at`: linear from the snatch start (0) to now (1).
    const share = sql`(case when s.startdat is null or s.startdat >= ${int(at)} then 0
      else (${int(at)} - s.startdat) * 1.0 / (${int(now)} - s.startdat) end)`
    for (let start = lo; start <= hi; start += SNAPSHOT_RANGE) {
      await sql`insert into counter_snapshots (day, record_id, seed_time_sec, uploaded)
        select ${day}, r.id, cast(r.seed_time_sec * ${share} as bigint), cast(r.uploaded * ${share} as bigint)
        from seed_records r join users u on u.id = r.user_id
          left join site_snatched s on s.userid = u.site_uid and s.torrentid = r.torrent_id
        where r.id between ${start} and ${start + SNAPSHOT_RANGE - 1}`.execute(db)
    }
  }

  // Daily aggregates: each member's today, walked back with a gentle trend and noise.
  const rng = new Prng(`${options.seed}/history`)
  const members = await db.selectFrom('member_seed_stats').selectAll().orderBy('user_id').execute()
  const memberRows: BulkRow[] = []
  const team = new Map<number, { seeding: number; size: number; active: Set<number> }>()
  const normal = new Set(
    (await db.selectFrom('users').select('id').where('role', '=', 'normal').where('status', '=', 2).execute()).map((u) => u.id),
  )
  for (const m of members) {
    const growth = 0.2 + rng.next() * 0.6 // share of today's seeding that is newer than the window
    const upload = 0.3 + rng.next() * 0.5 // share of today's total uploaded gained in the window
    // Each day's upload differs (busy weekends, quiet days), as a member's chart would show it: a
    // straight line of totals made every day's gain the same and the chart's 上传量 flat.
    const dayGains = dailyShares(rng, options.days, today).map((share) => share * upload * Number(m.uploaded))
    let uploadedThen = Number(m.uploaded)
    for (let back = 1; back <= options.days; back++) {
      const day = addDays(today, -back)
      const t = back / options.days
      const noise = 1 + (rng.next() - 0.5) * 0.08
      const seedingCount = Math.max(0, Math.round(Number(m.seeding_count) * (1 - growth * t) * noise))
      const ratio = Number(m.seeding_count) ? seedingCount / Number(m.seeding_count) : 0
      const seedingSize = Math.round(Number(m.seeding_size) * ratio)
      uploadedThen -= dayGains[back - 1]!
      const uploaded = Math.max(0, Math.round(uploadedThen))
      memberRows.push([m.user_id, day, seedingCount, seedingSize, uploaded])
      let sum = team.get(day)
      if (!sum) team.set(day, (sum = { seeding: 0, size: 0, active: new Set() }))
      sum.seeding += seedingCount
      sum.size += seedingSize
      if (seedingCount > 0 && normal.has(m.user_id)) sum.active.add(m.user_id)
    }
  }
  await bulkInsert(
    database,
    'daily_member_stats',
    [
      ['user_id', 'integer'],
      ['day', 'integer'],
      ['seeding_count', 'integer'],
      ['seeding_size', 'bigint'],
      ['uploaded', 'bigint'],
    ],
    memberRows,
  )
  const records = Number((await sql<{ n: number }>`select coalesce(sum(records), 0) as n from member_seed_stats`.execute(db)).rows[0].n)
  await bulkInsert(
    database,
    'daily_team_stats',
    [
      ['day', 'integer'],
      ['records', 'integer'],
      ['seeding_count', 'integer'],
      ['seeding_size', 'bigint'],
      ['active_members', 'integer'],
    ],
    [...team].map(([day, s]) => [day, records, s.seeding, s.size, s.active.size]),
  )
}

/**
 * How a window's upload splits over its days, newest first (index 0 = the gain of today over
 * yesterday): uneven from day to day, more on weekends; the shares sum to 1.
 */
export function dailyShares(rng: Prng, days: number, today: number): number[] {
  const weights: number[] = []
  for (let back = 0; back < days; back++) {
    const weekday = dayOfWeek(addDays(today, -back))
    const weekend = weekday === 0 || weekday === 6 ? 1.6 : 1
    weights.push(weekend * (0.25 + rng.next() * 1.5))
  }
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  return weights.map((weight) => weight / total)
}

/** 0 = Sunday, for a yyyymmdd day number. */
function dayOfWeek(day: number): number {
  return new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100)).getUTCDay()
}
