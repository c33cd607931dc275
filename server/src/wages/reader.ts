/**
 * Reader of a wage period: every record that can earn in it (claimed-or-assigned official ones; the
 * preset 「NexusPHP 认领结算」: every claimed one) with its gains inside its counting window (./window.ts),
 * grouped by torrent so the calculator settles keeper ranks per torrent. One sequential scan in id
 * ranges (the event loop gets a turn between them) into compact columns; see periodRecords for why.
 *
 * Approximations (what the mirror can tell; docs in routes/wages.ts and BENCHMARKS.md):
 * - Ties (claimed / assigned), the torrent's official label, name, size, age and seeders are the
 *   current ones (the mirror keeps no history of them); for the running month that is exact up to
 *   the last sync, for past months "seeders at period end" is the seeders now.
 * - End counters: the first snapshot on or after the 1st of the next month; while there is none
 *   (the running month, or the sync has not run since), the live counters of the last sync.
 */
import { AssignmentLabel, ClaimState, SeedType } from '@shared/enums'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { arrayRows } from '../db/array-rows'
import { inIntegers, int } from '../db/sql-fragments'
import { conflict } from '../errors'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { isNexusphpClaims, type RuleBody } from '../rules/rules'
import type { WageInput, WageMember } from './formula'
import { groupBy, NumberColumn } from './columns'
import type { PeriodBounds } from './period'
import { windowGain, type Counters } from './window'

export interface PeriodCounters {
  /** The period's bounds (epoch ms). */
  startMs: number
  endMs: number
  /** Snapshot day read as the period's start counters. */
  startDay: number
  /** That day is after the period's 1st: counting began late (部分月份). */
  startSnapshotLate: boolean
  /** Snapshot day read as the end counters, or null = the live counters of seed_records. */
  endDay: number | null
}

export async function periodCounters(db: Kysely<DB>, bounds: PeriodBounds): Promise<PeriodCounters> {
  const startDay = await snapshotDayOnOrAfter(db, bounds.startDay)
  if (startDay === null || startDay >= bounds.nextStartDay) throw conflict(`${bounds.period} 没有计数快照，无法计算该月工资`)
  const endDay = await snapshotDayOnOrAfter(db, bounds.nextStartDay)
  return { startMs: bounds.startMs, endMs: bounds.endMs, startDay, startSnapshotLate: startDay > bounds.startDay, endDay }
}

/** Members who can earn: users tied to a site account and not deleted (a disabled site account earns nothing, with a reason). */
export async function wageMembers(db: Kysely<DB>): Promise<Map<number, WageMember & { username: string }>> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('site_users as s', 's.id', 'u.site_uid')
    .select(['u.id', 'u.username', 'u.status', 's.enabled'])
    .where('u.site_uid', 'is not', null)
    .where('u.status', '<>', 1)
    .execute()
  return new Map(
    rows.map((r) => [
      r.id,
      { userId: r.id, status: r.status as 0 | 1 | 2, siteEnabled: r.enabled === null || Number(r.enabled) !== 0, username: r.username },
    ]),
  )
}

/**
 * Records per id range of the scan (~25% of them are read: claimed-or-assigned official ones). On SQLite
 * the scan runs in the wage worker thread (offload.ts), where a long statement holds no request; the
 * size barely matters for speed (2 M records: 20,000 and 100,000 within 0.3 s), smaller keeps less in memory.
 */
export const RECORD_ID_RANGE = 20_000
/**
 * Torrents per yielded batch: the calculator's items are written out batch by batch. Small, because a
 * batch's objects live while the calculator works through it, and V8 moves whatever is alive at a
 * young-generation collection to the old one, which it collects late: with 2,000 torrents a 2 M-record
 * preview's peak was ~250 MB above its start, with 100 ~170 MB (three runs each, same speed).
 */
export const TORRENTS_PER_BATCH = 100

interface PaidTorrent {
  name: string
  size: number
  added: number
  seeders: number
  official: boolean
  banned: boolean
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
  rules: Pick<RuleBody, 'mode'> = {},
  torrentsPerBatch = TORRENTS_PER_BATCH,
): AsyncGenerator<WageInput[][]> {
  const { startDay, endDay } = counters
  const claimsOnly = isNexusphpClaims(rules)
  // Banned torrents are read too, so their keepers see why they are not paid.
  const banned = new Set((await db.selectFrom('site_torrents').select('id').where('banned', '=', 1).execute()).map((t) => Number(t.id)))
  const torrentsInfo = new Map<number, PaidTorrent>()
  let labels = db.selectFrom('torrent_labels').select(['torrent_id', 'name', 'size', 'added', 'seeders', 'seed_type'])
  if (!claimsOnly)
    labels = labels.where((eb) => eb.or([eb('seed_type', '=', 1), ...(banned.size ? [eb('torrent_id', 'in', [...banned])] : [])]))
  for (const t of await labels.execute()) {
    const id = Number(t.torrent_id)
    torrentsInfo.set(id, {
      name: t.name,
      size: Number(t.size),
      added: Number(t.added),
      seeders: Number(t.seeders),
      official: Number(t.seed_type) === 1,
      banned: banned.has(id),
    })
  }

  const users = NumberColumn.int()
  const torrents = NumberColumn.int()
  const tieAts = NumberColumn.float()
  const seedTimeGains = NumberColumn.float()
  const uploadedGains = NumberColumn.float()
  const partials = NumberColumn.int()
  const st1 = endDay === null ? sql`r.seed_time_sec` : sql`s1.seed_time_sec`
  const up1 = endDay === null ? sql`r.uploaded` : sql`s1.uploaded`
  const endJoin = endDay === null ? sql`` : sql`left join counter_snapshots s1 on s1.day = ${endDay} and s1.record_id = r.id`
  const ties = claimsOnly
    ? sql`r.claim_state = ${sql.lit(ClaimState.Claimed)}`
    : // The banned ids as read above: a subquery here was a scan of site_torrents in every range's statement.
      sql`(r.seed_type = ${sql.lit(SeedType.Official)} or ${inIntegers(sql`r.torrent_id`, [...banned])}) and (r.claim_state = ${sql.lit(ClaimState.Claimed)} or r.assigned = ${sql.lit(AssignmentLabel.Assigned)})`
  const claimBegins = await claimsMadeIn(db, counters)
  // What NexusPHP noted counts only for a claim made in the period (window.ts): most were made before.
  const claimBegin = (userId: number, torrentId: number, claimAt: number) =>
    (claimAt > counters.startMs ? claimBegins.get(pairKey(userId, torrentId)) : undefined) ?? NO_COUNTERS
  const { rows: bounds } = await sql<{ hi: number | null }>`select max(id) as hi from seed_records`.execute(db)
  const maxId = Number(bounds[0]?.hi ?? 0)
  for (let from = 0; from < maxId; from += RECORD_ID_RANGE) {
    // Most rows need only the two snapshots: the first observation and the snatch's start are looked
    // up only for a record missing from the start snapshot, an assignment's counters only for an
    // assignment made in the period (CASE evaluates its subquery only then).
    const missing = sql`s0.record_id is null`
    const firstSeen = (column: string) =>
      sql`case when ${missing} then (select ${sql.ref(`f.${column}`)} from record_first_counters f where f.record_id = r.id) end`
    const atAssignment = (column: string) =>
      sql`case when r.assigned = ${sql.lit(AssignmentLabel.Assigned)} and r.assigned_at > ${int(counters.startMs)} then (select ${sql.ref(`a.${column}`)} from assignment_counters a where a.record_id = r.id and a.assigned_at = r.assigned_at) end`
    const rows = await arrayRows<Row>(
      db,
      sql`select r.user_id, r.torrent_id, r.claim_state, r.claimed_at, r.assigned, r.assigned_at,
        s0.seed_time_sec as st0, s0.uploaded as up0,
        ${firstSeen('seen_at')} as f_at, ${firstSeen('seed_time_sec')} as stf, ${firstSeen('uploaded')} as upf,
        case when ${missing} then (select sn.startdat from users u join site_snatched sn on sn.userid = u.site_uid and sn.torrentid = r.torrent_id where u.id = r.user_id) end as started,
        ${atAssignment('seed_time_sec')} as sta, ${atAssignment('uploaded')} as upa, ${st1} as st1, ${up1} as up1
      from seed_records r
        left join counter_snapshots s0 on s0.day = ${startDay} and s0.record_id = r.id
        ${endJoin}
      where r.id > ${from} and r.id <= ${from + RECORD_ID_RANGE} and ${ties}`,
    )
    for (const [
      userIdValue,
      torrentIdValue,
      claimState,
      claimedAt,
      assigned,
      assignedAtValue,
      st0,
      up0,
      fAt,
      stf,
      upf,
      started,
      sta,
      upa,
      st1,
      up1,
    ] of rows) {
      const userId = Number(userIdValue)
      const torrentId = Number(torrentIdValue)
      // Members who cannot earn (deleted, no site account) and torrents that cannot pay are left out.
      if (!members.has(userId) || !torrentsInfo.has(torrentId)) continue
      const claimAt = Number(claimState) === 2 ? Number(claimedAt) : 0
      const assignedAt = Number(assigned) === 1 && !claimsOnly ? Number(assignedAtValue) : 0
      const gain = windowGain(
        {
          claim: claimAt > 0 ? { at: claimAt, begin: claimBegin(userId, torrentId, claimAt) } : null,
          assignedAt: assignedAt > 0 ? assignedAt : null,
          snatchStartedAt: started != null ? Number(started) : null,
          atPeriodStart: counters2(st0, up0),
          atAssignment: counters2(sta, upa),
          firstSeen: fAt != null ? { at: Number(fAt), ...counters2(stf, upf)! } : null,
          atEnd: counters2(st1, up1),
        },
        counters,
      )
      if (!gain) continue
      users.push(userId)
      torrents.push(torrentId)
      tieAts.push(gain.tieAt ?? 0)
      seedTimeGains.push(gain.seedTimeGainSec)
      uploadedGains.push(gain.uploadedGain)
      partials.push(gain.partial ? 1 : 0)
    }
  }

  // Torrents in id order, each torrent's rows together.
  const { groups: torrentIds, starts, order } = groupBy(torrents)

  let groups: WageInput[][] = []
  for (let t = 0; t < torrentIds.length; t++) {
    const torrentId = torrentIds[t]!
    const torrent = torrentsInfo.get(torrentId)!
    const group: WageInput[] = []
    for (let k = starts[t]; k < starts[t + 1]; k++) {
      const i = order[k]
      const claimedAt = tieAts.at(i)
      group.push({
        userId: users.at(i),
        torrentId,
        torrentName: torrent.name,
        size: torrent.size,
        official: torrent.official,
        banned: torrent.banned,
        addedAt: torrent.added,
        seeders: torrent.seeders,
        claimedAt: claimedAt > 0 ? claimedAt : null,
        seedTimeGainSec: seedTimeGains.at(i),
        uploadedGain: uploadedGains.at(i),
        partial: partials.at(i) === 1,
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

const pairKey = (userId: number, torrentId: number) => userId * 2 ** 32 + torrentId
const NO_COUNTERS: Counters = Object.freeze({ seedTimeSec: 0, uploaded: 0 })

/**
 * The counters NexusPHP noted in each claim made inside the period (`seed_time_begin` /
 * `uploaded_begin`), by member and torrent: few rows, read once.
 */
async function claimsMadeIn(db: Kysely<DB>, period: { startMs: number; endMs: number }): Promise<Map<number, Counters>> {
  const rows = await db
    .selectFrom('site_claims as c')
    .innerJoin('users as u', 'u.site_uid', 'c.uid')
    .select(['u.id as user_id', 'c.torrent_id', 'c.seed_time_begin', 'c.uploaded_begin'])
    .where('c.created_at', '>', period.startMs)
    .where('c.created_at', '<', period.endMs)
    .execute()
  return new Map(
    rows.map((r) => [
      pairKey(Number(r.user_id), Number(r.torrent_id)),
      { seedTimeSec: Number(r.seed_time_begin), uploaded: Number(r.uploaded_begin) },
    ]),
  )
}

const counters2 = (seedTime: unknown, uploaded: unknown): Counters | null =>
  seedTime == null ? null : { seedTimeSec: Number(seedTime), uploaded: Number(uploaded ?? 0) }

type Nullable = number | string | null
/** A scanned row, in the select list's order. */
type Row = [
  userId: number,
  torrentId: number,
  claimState: number,
  claimedAt: number,
  assigned: number,
  assignedAt: number,
  st0: Nullable,
  up0: Nullable,
  fAt: Nullable,
  stf: Nullable,
  upf: Nullable,
  started: Nullable,
  sta: Nullable,
  upa: Nullable,
  st1: Nullable,
  up1: Nullable,
]
