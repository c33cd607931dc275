/**
 * Reader of a wage period: every claimed-or-assigned official seed record with its counter gains
 * between the period's start and end snapshots (src/snapshots), grouped by torrent so the
 * calculator settles keeper ranks per torrent. One sequential scan in id ranges (the event loop
 * gets a turn between them) into compact columns; see periodRecords for why.
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
import { groupBy, NumberColumn } from './columns'
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

/** Records per id range of the scan (~25% of them are read: claimed-or-assigned official ones). */
export const RECORD_ID_RANGE = 100_000
/** Torrents per yielded batch: the calculator's items are written out batch by batch. */
export const TORRENTS_PER_BATCH = 2_000

interface OfficialTorrent {
  name: string
  size: number
  added: number
  seeders: number
}

/**
 * Yields batches of torrents, each torrent's records together (torrent id, then user id order).
 *
 * Why not read torrent by torrent: the records of one torrent are scattered over the table, so
 * that walk is ~500,000 random reads at 2,000,000 records (BENCHMARKS.md "Wages"). Instead the
 * records are scanned once in id order — with their start and end snapshot rows, which are keyed
 * (day, record id) and so read in order too — into compact columns, and grouped by torrent in
 * memory with a counting sort. Memory: ~40 bytes per claimed-or-assigned official record of
 * current members (~20 MB at 500,000), plus the official torrents' names.
 */
export async function* periodRecords(
  db: Kysely<DB>,
  counters: PeriodCounters,
  members: ReadonlyMap<number, WageMember>,
  torrentsPerBatch = TORRENTS_PER_BATCH,
): AsyncGenerator<WageInput[][]> {
  const { startDay, endDay } = counters
  const official = new Map<number, OfficialTorrent>()
  for (const t of await db.selectFrom('torrent_labels').select(['torrent_id', 'name', 'size', 'added', 'seeders']).where('seed_type', '=', 1).execute()) {
    official.set(Number(t.torrent_id), { name: t.name, size: Number(t.size), added: Number(t.added), seeders: Number(t.seeders) })
  }

  const users = NumberColumn.int()
  const torrents = NumberColumn.int()
  const claimedAts = NumberColumn.float()
  const seedTimeGains = NumberColumn.float()
  const uploadedGains = NumberColumn.float()
  // The start counters, and the end ones: the end snapshot, else (a record gone by then) the start,
  // else (the running month) the live counters.
  const st0 = sql`coalesce(s0.seed_time_sec, 0)`
  const up0 = sql`coalesce(s0.uploaded, 0)`
  const st1 = endDay === null ? sql`r.seed_time_sec` : sql`coalesce(s1.seed_time_sec, s0.seed_time_sec, 0)`
  const up1 = endDay === null ? sql`r.uploaded` : sql`coalesce(s1.uploaded, s0.uploaded, 0)`
  const endJoin = endDay === null ? sql`` : sql`left join counter_snapshots s1 on s1.day = ${endDay} and s1.record_id = r.id`
  const { rows: bounds } = await sql<{ hi: number | null }>`select max(id) as hi from seed_records`.execute(db)
  const maxId = Number(bounds[0]?.hi ?? 0)
  for (let from = 0; from < maxId; from += RECORD_ID_RANGE) {
    // Five narrow columns: at ~800,000 rows a month, each column fetched costs.
    const { rows } = await sql<Row>`select r.user_id, r.torrent_id,
        case when r.claim_state = 2 and r.claimed_at > 0 then r.claimed_at else r.assigned_at end as at,
        ${st1} - ${st0} as st, ${up1} - ${up0} as up
      from seed_records r
        left join counter_snapshots s0 on s0.day = ${startDay} and s0.record_id = r.id
        ${endJoin}
      where r.id > ${from} and r.id <= ${from + RECORD_ID_RANGE} and r.seed_type = 1 and (r.claim_state = 2 or r.assigned = 1)`.execute(db)
    for (const r of rows) {
      const userId = Number(r.user_id)
      const torrentId = Number(r.torrent_id)
      // Members who cannot earn (deleted, no site account) and torrents not official by the current labels are not paid.
      if (!members.has(userId) || !official.has(torrentId)) continue
      users.push(userId)
      torrents.push(torrentId)
      claimedAts.push(Number(r.at) || 0)
      // Counters can go back (a re-created snatch): a gain is never negative.
      seedTimeGains.push(Math.max(0, Number(r.st)))
      uploadedGains.push(Math.max(0, Number(r.up)))
    }
  }

  // Torrents in id order, each torrent's rows together.
  const { groups: torrentIds, starts, order } = groupBy(torrents)

  let groups: WageInput[][] = []
  for (let t = 0; t < torrentIds.length; t++) {
    const torrentId = torrentIds[t]!
    const torrent = official.get(torrentId)!
    const group: WageInput[] = []
    for (let k = starts[t]; k < starts[t + 1]; k++) {
      const i = order[k]
      const claimedAt = claimedAts.at(i)
      group.push({
        userId: users.at(i),
        torrentId,
        torrentName: torrent.name,
        size: torrent.size,
        official: true,
        addedAt: torrent.added,
        seeders: torrent.seeders,
        claimedAt: claimedAt > 0 ? claimedAt : null,
        seedTimeGainSec: seedTimeGains.at(i),
        uploadedGain: uploadedGains.at(i),
      })
    }
    group.sort((a, b) => a.userId - b.userId)
    groups.push(group)
    if (groups.length === torrentsPerBatch) {
      yield groups
      groups = []
    }
  }
  if (groups.length) yield groups
}

interface Row {
  user_id: number
  torrent_id: number
  /** When the member claimed (or was assigned) the torrent; 0 = unknown. */
  at: number
  st: number
  up: number
}
