/**
 * Streaming reader of a wage period: every claimed-or-assigned official seed record with its
 * counter gains between the period's start and end snapshots (src/snapshots), grouped by torrent
 * so the calculator settles keeper ranks per torrent. Keyset batches of whole torrents: memory
 * holds one batch (a few thousand torrents' records), whatever the size of the month, and the
 * event loop gets a turn between batches.
 *
 * Approximations (what the mirror can tell; docs in routes/wages.ts and BENCHMARKS.md):
 * - Ties (claimed / assigned), the torrent's official label, name, size, age and seeders are the
 *   current ones (the mirror keeps no history of them); for the running month that is exact up to
 *   the last sync, for past months "seeders at period end" is the seeders now.
 * - A record missing from the start snapshot did not exist then: its gain counts from 0.
 * - End counters: the first snapshot on or after the 1st of the next month; while there is none
 *   (the running month, or the sync has not run since), the live counters of the last sync.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { conflict } from '../errors'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import type { WageInput, WageMember } from './formula'
import type { PeriodBounds } from './period'

export interface PeriodCounters {
  /** Snapshot day read as the period's start counters. */
  startDay: number
  /** Snapshot day read as the end counters, or null = the live counters of seed_records. */
  endDay: number | null
}

export async function periodCounters(db: Kysely<DB>, bounds: PeriodBounds): Promise<PeriodCounters> {
  const startDay = await snapshotDayOnOrAfter(db, bounds.startDay)
  if (startDay === null || startDay >= bounds.nextStartDay) throw conflict(`${bounds.period} 没有计数快照，无法计算该月工资`)
  const endDay = await snapshotDayOnOrAfter(db, bounds.nextStartDay)
  return { startDay, endDay }
}

/** Members who can earn: users tied to a site account and not deleted. */
export async function wageMembers(db: Kysely<DB>): Promise<Map<number, WageMember & { username: string }>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'status'])
    .where('site_uid', 'is not', null)
    .where('status', '<>', 1)
    .execute()
  return new Map(rows.map((r) => [r.id, { userId: r.id, status: r.status as 0 | 1 | 2, username: r.username }]))
}

interface Row {
  user_id: number
  torrent_id: number
  claim_state: number
  claimed_at: number
  assigned_at: number
  name: string
  size: number
  added: number
  seeders: number
  st0: number
  up0: number
  st1: number
  up1: number
}

/** Torrents per batch: ~2.5 records each on the large data set → ~5,000 rows in memory. */
export const TORRENTS_PER_BATCH = 2_000

/** Yields batches of torrents, each torrent's records together (torrent id, then user id order). */
export async function* periodRecords(
  db: Kysely<DB>,
  counters: PeriodCounters,
  torrentsPerBatch = TORRENTS_PER_BATCH,
): AsyncGenerator<WageInput[][]> {
  const { startDay, endDay } = counters
  const end =
    endDay === null
      ? sql`r.seed_time_sec as st1, r.uploaded as up1`
      : sql`coalesce(s1.seed_time_sec, s0.seed_time_sec, 0) as st1, coalesce(s1.uploaded, s0.uploaded, 0) as up1`
  const endJoin = endDay === null ? sql`` : sql`left join counter_snapshots s1 on s1.day = ${endDay} and s1.record_id = r.id`
  let after = -1
  for (;;) {
    const { rows: bound } = await sql<{ upto: number | null }>`select max(torrent_id) as upto from (
        select torrent_id from torrent_labels where seed_type = 1 and torrent_id > ${after} order by torrent_id limit ${torrentsPerBatch}) t`.execute(db)
    const upto = bound[0]?.upto
    if (upto === null || upto === undefined) return
    const { rows } = await sql<Row>`select r.user_id, r.torrent_id, r.claim_state, r.claimed_at, r.assigned_at,
        l.name, l.size, l.added, l.seeders,
        coalesce(s0.seed_time_sec, 0) as st0, coalesce(s0.uploaded, 0) as up0, ${end}
      from torrent_labels l
        join seed_records r on r.torrent_id = l.torrent_id
        join users u on u.id = r.user_id
        left join counter_snapshots s0 on s0.day = ${startDay} and s0.record_id = r.id
        ${endJoin}
      where l.seed_type = 1 and l.torrent_id > ${after} and l.torrent_id <= ${Number(upto)}
        and (r.claim_state = 2 or r.assigned = 1) and u.status <> 1 and u.site_uid is not null
      order by l.torrent_id, r.user_id`.execute(db)
    after = Number(upto)
    const groups: WageInput[][] = []
    let current: WageInput[] = []
    let currentTorrent = -1
    for (const r of rows) {
      const torrentId = Number(r.torrent_id)
      if (torrentId !== currentTorrent && current.length) {
        groups.push(current)
        current = []
      }
      currentTorrent = torrentId
      const claimedAt = Number(r.claim_state) === 2 && Number(r.claimed_at) > 0 ? Number(r.claimed_at) : Number(r.assigned_at) || null
      current.push({
        userId: Number(r.user_id),
        torrentId,
        torrentName: r.name,
        size: Number(r.size),
        official: true,
        addedAt: Number(r.added),
        seeders: Number(r.seeders),
        claimedAt,
        // Counters can go back (a re-created snatch): a gain is never negative.
        seedTimeGainSec: Math.max(0, Number(r.st1) - Number(r.st0)),
        uploadedGain: Math.max(0, Number(r.up1) - Number(r.up0)),
      })
    }
    if (current.length) groups.push(current)
    if (groups.length) yield groups
  }
}
