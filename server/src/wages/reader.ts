/**
 * Reader of a wage period: every record that can earn in it (claimed-or-assigned official ones; the
 * preset 「NexusPHP 认领结算」: every claimed one) with its gains inside its counting window (./window.ts),
 * grouped by torrent so the calculator settles keeper ranks per torrent. One sequential scan in id
 * ranges (the event loop gets a turn between them) into compact columns; see periodRecords for why.
 *
 * Approximations (what the mirror can tell; docs in routes/wages.ts and BENCHMARKS.md):
 * - Ties (claimed / assigned), the torrent's official label, name, size, age and ban: a closed month's as kept
 *   with its end snapshot (month_end_ties, torrent_seeder_snapshots: snapshots/write.ts) — a claim given up or a
 *   torrent deleted after the 1st still pays the month it was kept, as NexusPHP's cron on the 1st pays it. The
 *   running month, and a month whose end snapshot was taken before migration 0035, read the current ones (exact up
 *   to the last sync for the running month).
 * - End counters: the first snapshot on or after the 1st of the next month; while there is none
 *   (the running month, or the sync has not run since), the live counters of the last sync.
 * - Seeders (`N`, "at period end", domain.md §4): the torrent's seeders kept with that same end snapshot
 *   (torrent_seeder_snapshots, written on a month's first snapshot day: snapshots/write.ts), as NexusPHP's
 *   cron on the 1st reads them — so a closed month pays the same whenever it is computed. Where there is
 *   none — no end snapshot yet (the running month), an older end snapshot taken before migration 0031, or a
 *   torrent that had no seed record then (a member linked later) — the current seeders of torrent_labels.
 */
import { AssignmentLabel, ClaimState, SeedType } from '@shared/enums'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'
import { arrayRows } from '../db/array-rows'
import { inIntegers, int } from '../db/sql-fragments'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { conflict } from '../errors'
import { snapshotDayOnOrAfter } from '../snapshots/read'
import { isNexusphpClaims, type RuleBody } from '../rules/rules'
import type { ClaimOrder, WageInput, WageMember } from './formula'
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
  /**
   * That day is after the next month's 1st (the server down then): the end counters hold days of the next month, which
   * count here — they are not lost, the next month starts from them — and every record says so (部分月份).
   */
  endSnapshotLate: boolean
  /** The end snapshot keeps the month's ties and torrents (month_end_ties): read them instead of the current ones. */
  endTies: boolean
}

export async function periodCounters(db: Kysely<DB>, bounds: PeriodBounds): Promise<PeriodCounters> {
  const startDay = await snapshotDayOnOrAfter(db, bounds.startDay)
  if (startDay === null || startDay >= bounds.nextStartDay) throw conflict(`${bounds.period} 没有计数快照，无法计算该月工资`)
  const endDay = await snapshotDayOnOrAfter(db, bounds.nextStartDay)
  const endTies =
    endDay !== null &&
    (await db.selectFrom('month_end_ties').select('day').where('day', '=', endDay).limit(1).executeTakeFirst()) !== undefined
  return {
    startMs: bounds.startMs,
    endMs: bounds.endMs,
    startDay,
    startSnapshotLate: startDay > bounds.startDay,
    endDay,
    endSnapshotLate: endDay !== null && endDay > bounds.nextStartDay,
    endTies,
  }
}

/**
 * Members who can earn: users tied to a site account and not deleted here (a site account that is disabled,
 * or that the site deleted, earns nothing, with a reason). A member without a site_users row counts as
 * deleted on the site only where the derivation says so too (domain/site-accounts.ts); elsewhere
 * (SOURCE=ingest, a mirror with no site user yet) as enabled.
 */
export async function wageMembers(
  db: Kysely<DB>,
  counters?: Pick<PeriodCounters, 'endDay' | 'endTies'>,
): Promise<Map<number, WageMember & { username: string }>> {
  // A closed month: the site account as it was at its end (month_end_accounts), where that was kept.
  const endDay = counters?.endTies ? counters.endDay : null
  const [rows, mirrored] = await Promise.all([
    db
      .selectFrom('users as u')
      .leftJoin('site_users as s', 's.id', 'u.site_uid')
      .leftJoin('month_end_accounts as e', (join) => join.onRef('e.user_id', '=', 'u.id').on('e.day', '=', endDay ?? -1))
      .select([
        'u.id',
        'u.username',
        'u.status',
        's.id as site_id',
        's.enabled',
        'e.site_enabled as end_enabled',
        'e.site_deleted as end_deleted',
      ])
      .where('u.site_uid', 'is not', null)
      .where('u.status', '<>', 1)
      .execute(),
    siteAccountsMirrored(db),
  ])
  return new Map(
    rows.map((r) => [
      r.id,
      {
        userId: r.id,
        status: r.status as 0 | 1 | 2,
        siteEnabled: r.end_enabled !== null ? Number(r.end_enabled) !== 0 : r.enabled === null || Number(r.enabled) !== 0,
        siteDeleted: r.end_deleted !== null ? Number(r.end_deleted) === 1 : mirrored && r.site_id === null,
        username: r.username,
      },
    ]),
  )
}

/**
 * The order of claims a torrent's members made in one second (the site's claim ids), for the keeper ranks: only such
 * claims are read — a few, against the month's hundreds of thousands of records.
 */
export async function sameSecondClaims(db: Kysely<DB>, counters?: Pick<PeriodCounters, 'endDay' | 'endTies'>): Promise<ClaimOrder> {
  // A closed month: the claims as kept at its end (migration 0041). One given up since, or a member whose site UID changed,
  // is not in the claims there now: regenerating the month swapped two keepers' ranks.
  if (counters?.endTies && counters.endDay !== null) {
    const kept = await db
      .selectFrom('month_end_ties as t')
      .innerJoin(
        (eb) =>
          eb
            .selectFrom('month_end_ties')
            .select(['torrent_id', 'claimed_at'])
            .where('day', '=', counters.endDay!)
            .where('claimed', '=', 1)
            .groupBy(['torrent_id', 'claimed_at'])
            .having((h) => h.fn.countAll(), '>', 1)
            .as('d'),
        (join) => join.onRef('d.torrent_id', '=', 't.torrent_id').onRef('d.claimed_at', '=', 't.claimed_at'),
      )
      .select(['t.torrent_id', 't.user_id', 't.claim_id'])
      .where('t.day', '=', counters.endDay)
      .where('t.claimed', '=', 1)
      .execute()
    const order = new Map(kept.filter((r) => r.claim_id !== null).map((r) => [`${r.torrent_id}:${r.user_id}`, Number(r.claim_id)]))
    // Rows kept before the migration have no claim id: those read the claims there now, as before.
    const now = kept.some((r) => r.claim_id === null) ? await currentSameSecondClaims(db) : null
    return (torrentId, userId) => order.get(`${torrentId}:${userId}`) ?? now?.(torrentId, userId)
  }
  return currentSameSecondClaims(db)
}

async function currentSameSecondClaims(db: Kysely<DB>): Promise<ClaimOrder> {
  const rows = await db
    .selectFrom('site_claims as c')
    .innerJoin(
      (eb) =>
        eb
          .selectFrom('site_claims')
          .select(['torrent_id', 'created_at'])
          .groupBy(['torrent_id', 'created_at'])
          .having((h) => h.fn.countAll(), '>', 1)
          .as('d'),
      (join) => join.onRef('d.torrent_id', '=', 'c.torrent_id').onRef('d.created_at', '=', 'c.created_at'),
    )
    .innerJoin('users as u', 'u.site_uid', 'c.uid')
    .select(['c.torrent_id', 'u.id as user_id', 'c.id'])
    .execute()
  const order = new Map(rows.map((r) => [`${r.torrent_id}:${r.user_id}`, Number(r.id)]))
  return (torrentId, userId) => order.get(`${torrentId}:${userId}`)
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

interface LabelRow {
  torrent_id: number
  name: string
  size: number | string
  added: number | string
  seeders: number | string
  seed_type: number
}

interface PaidTorrent {
  name: string
  size: number
  added: number
  seeders: number
  official: boolean
  banned: boolean
}

/** What a scan of the record ranges needs, read once per job (a helper thread reads the same from the same snapshot). */
export interface ScanPlan {
  counters: PeriodCounters
  claimsOnly: boolean
  /** Torrents the site has banned: read too, so their keepers see why they are not paid. */
  banned: number[]
  maxId: number
  /**
   * A member's 站点 UID changed inside the period (record_rebases, or a change no sync has noted yet): rows carry
   * their rebase (rare; else not read).
   */
  rebases: boolean
  /** A snatch the site re-created began inside the period (snatch_restarts): rows carry its start (rare; else not read). */
  restarts: boolean
}

export async function scanPlan(db: Kysely<DB>, counters: PeriodCounters, rules: Pick<RuleBody, 'mode'>): Promise<ScanPlan> {
  const claimsOnly = isNexusphpClaims(rules)
  const { rows: rebased } = await sql`select 1 from record_rebases b where ${rebaseCounts(counters)}
    union all select 1 from site_uid_changes c where ${pendingCounts(counters)}`.execute(db)
  const rebases = rebased.length > 0
  const { rows: restarted } = await sql`select 1 from snatch_restarts where ${restartCounts(counters)} limit 1`.execute(db)
  const restarts = restarted.length > 0
  if (counters.endTies) {
    const day = counters.endDay!
    const banned = await db
      .selectFrom('torrent_seeder_snapshots')
      .select('torrent_id')
      .where('day', '=', day)
      .where('banned', '=', 1)
      .execute()
    const { rows } = await sql<{ hi: number | null }>`select max(record_id) as hi from month_end_ties where day = ${day}`.execute(db)
    return { counters, claimsOnly, banned: banned.map((t) => Number(t.torrent_id)), maxId: Number(rows[0]?.hi ?? 0), rebases, restarts }
  }
  const banned = (await db.selectFrom('site_torrents').select('id').where('banned', '=', 1).execute()).map((t) => Number(t.id))
  const { rows } = await sql<{ hi: number | null }>`select max(id) as hi from seed_records`.execute(db)
  return { counters, claimsOnly, banned, maxId: Number(rows[0]?.hi ?? 0), rebases, restarts }
}

/** The re-created snatches (snatch_restarts) that began inside a period. */
const restartCounts = (counters: Pick<PeriodCounters, 'startMs' | 'endMs'>) =>
  sql`started_at >= ${int(counters.startMs)} and started_at < ${int(counters.endMs)}`

/**
 * The 站点 UID changes (record_rebases `b`) that give a period's baseline: made inside it; or after its end but noted
 * before its end snapshot was taken — that snapshot holds the new account's counters, so the month counts from the
 * change too (0 hours there: nothing of the new account is known before it).
 */
function rebaseCounts(counters: Pick<PeriodCounters, 'startMs' | 'endMs' | 'endDay'>, alias = 'b') {
  const column = (name: string) => sql.ref(`${alias}.${name}`)
  const after = sql`${column('rebased_at')} > ${int(counters.startMs)}`
  return counters.endDay === null
    ? sql`${after} and ${column('rebased_at')} < ${int(counters.endMs)}`
    : sql`${after} and (${column('rebased_at')} < ${int(counters.endMs)} or ${column('noted_before_day')} < ${counters.endDay})`
}

/**
 * The 站点 UID changes no sync has noted yet (site_uid_changes `c`) that count for a period: made after its start, and
 * before its end where its end snapshot exists (a change pending now came after the sync that took it).
 */
function pendingCounts(counters: Pick<PeriodCounters, 'startMs' | 'endMs' | 'endDay'>) {
  const after = sql`c.changed_at > ${int(counters.startMs)}`
  return counters.endDay === null ? after : sql`${after} and c.changed_at < ${int(counters.endMs)}`
}

/**
 * Where a scan reads the tied records from: the month's end (month_end_ties, `t.claimed_at` / `t.assigned_at` 0 when
 * none), or the current seed_records. The expressions name the row `t`.
 */
function tieSource(counters: PeriodCounters) {
  const start = int(counters.startMs)
  if (counters.endTies)
    return {
      from: sql`month_end_ties t`,
      where: sql`t.day = ${counters.endDay} and`,
      id: sql`t.record_id`,
      claimAt: sql`t.claimed_at`,
      assignedAt: sql`t.assigned_at`,
      claimed: sql`t.claimed = 1`,
      assigned: sql`t.assigned = 1`,
      /** What NexusPHP noted with a claim made in the period, as kept at its end (the claim may be gone since). */
      claimBegin: (column: 'seed_time_begin' | 'uploaded_begin') =>
        sql`case when t.claimed = 1 and t.claimed_at > ${start} then ${sql.ref(`t.claim_${column}`)} end`,
    }
  return {
    from: sql`seed_records t`,
    where: sql``,
    id: sql`t.id`,
    claimAt: sql`case when t.claim_state = ${sql.lit(ClaimState.Claimed)} then t.claimed_at else 0 end`,
    assignedAt: sql`case when t.assigned = ${sql.lit(AssignmentLabel.Assigned)} then t.assigned_at else 0 end`,
    claimed: sql`t.claim_state = ${sql.lit(ClaimState.Claimed)}`,
    assigned: sql`t.assigned = ${sql.lit(AssignmentLabel.Assigned)}`,
    // A settled claim's begins from before its first settlement: NexusPHP's cron on the 1st resets them to the
    // counters of that moment, the closing month's new claims included, before that month is computed (migration 0025).
    claimBegin: (column: 'seed_time_begin' | 'uploaded_begin') =>
      sql`case when t.claim_state = ${sql.lit(ClaimState.Claimed)} and t.claimed_at > ${start} then (select coalesce(${sql.ref(`b.${column}`)}, ${sql.ref(`c.${column}`)})
        from users u join site_claims c on c.uid = u.site_uid and c.torrent_id = t.torrent_id
          left join claim_first_begins b on b.claim_id = c.id and b.created_at = c.created_at
        where u.id = t.user_id and c.created_at > ${start} and c.created_at < ${int(counters.endMs)}) end`,
  }
}

/** The scanned rows' gains in their counting windows, a row per position. */
export interface GainColumns {
  users: NumberColumn<Int32Array>
  torrents: NumberColumn<Int32Array>
  /** When the tie began (0 = none). */
  tieAts: NumberColumn<Float64Array>
  seedTimeGains: NumberColumn<Float64Array>
  uploadedGains: NumberColumn<Float64Array>
  /** 1 = counted from a first observation (部分月份). */
  partials: NumberColumn<Int32Array>
}

export const gainColumns = (): GainColumns => ({
  users: NumberColumn.int(),
  torrents: NumberColumn.int(),
  tieAts: NumberColumn.float(),
  seedTimeGains: NumberColumn.float(),
  uploadedGains: NumberColumn.float(),
  partials: NumberColumn.int(),
})

/** Appends `from`'s rows to `into`. */
export function appendGains(into: GainColumns, from: GainColumns): void {
  for (const key of Object.keys(into) as (keyof GainColumns)[]) {
    const column = from[key]
    for (let i = 0; i < column.length; i++) into[key].push(column.at(i))
  }
}

/** Every record range of the plan read here, by `scanRanges`; or split with a helper thread (parallel-scan.ts). */
export type RangeScan = (plan: ScanPlan) => Promise<GainColumns[]>

/**
 * Reads the ranges `first`, `first + step`, … of the scan (all of them by default; a helper thread
 * reads every other one) and works out each tied record's gain in its counting window.
 */
export async function scanRanges(db: Kysely<DB>, plan: ScanPlan, first = 0, step = 1): Promise<GainColumns> {
  const { counters, claimsOnly } = plan
  const out = gainColumns()
  const t = tieSource(counters)
  const st1 = counters.endDay === null ? sql`t.seed_time_sec` : sql`s1.seed_time_sec`
  const up1 = counters.endDay === null ? sql`t.uploaded` : sql`s1.uploaded`
  const endJoin =
    counters.endDay === null ? sql`` : sql`left join counter_snapshots s1 on s1.day = ${counters.endDay} and s1.record_id = ${t.id}`
  const ties = claimsOnly
    ? t.claimed
    : // The banned ids as read once: a subquery here was a scan of site_torrents in every range's statement.
      sql`(t.seed_type = ${sql.lit(SeedType.Official)} or ${inIntegers(sql`t.torrent_id`, plan.banned)}) and (${t.claimed} or ${t.assigned})`
  // Most rows need only the two snapshots: the first observation is looked up only for a record missing
  // from the start snapshot; the snatch's start also for one whose counters went back in the period (the site
  // re-created the snatch: counted from 0 when it began in the window, not from the old snatch's
  // counters; not for every row: one more lookup per row of the scan); an assignment's counters only for an
  // assignment made in the period, and what NexusPHP noted in a claim only for a claim made in it
  // (window.ts; CASE evaluates its subquery only then).
  const missing = sql`s0.record_id is null`
  const firstSeen = (column: string) =>
    sql`case when ${missing} then (select ${sql.ref(`f.${column}`)} from record_first_counters f where f.record_id = ${t.id}) end`
  const atAssignment = (column: string) =>
    sql`case when ${t.assigned} and ${t.assignedAt} > ${int(counters.startMs)} then (select ${sql.ref(`a.${column}`)} from assignment_counters a where a.record_id = ${t.id} and a.assigned_at = ${t.assignedAt}) end`
  // Each value a statement answers costs (better-sqlite3 makes a JS value of it: at 2 M records most of a
  // range statement's time is that, not the reading): the tie's two moments come as one column each, and a
  // rebase's three only in a period that has one.
  // A change no sync has noted yet (site_uid_changes): the records may already count the new account (the change's
  // own relabelling pass), which nothing is known of before it — counted from its end counters (0 hours, 部分月份).
  const rebaseColumns = plan.rebases
    ? sql`, rb.rebased_at as rb_at, rb.seed_time_sec as stb, rb.uploaded as upb,
        (select max(c.changed_at) from site_uid_changes c where c.user_id = t.user_id and ${pendingCounts(counters)}) as pc_at`
    : sql``
  // The latest of a record's rebases that count for the period.
  const rebaseJoin = plan.rebases
    ? sql`left join (select b.record_id, b.rebased_at, b.seed_time_sec, b.uploaded from record_rebases b where ${rebaseCounts(counters)}
          and not exists (select 1 from record_rebases x where x.record_id = b.record_id and x.rebased_at > b.rebased_at
            and ${rebaseCounts(counters, 'x')})) rb on rb.record_id = ${t.id}`
    : sql``
  // A new account's snatch may have begun in the window: its start is read for a rebased row too.
  const startUnknown = plan.rebases
    ? sql`${missing} or rb.record_id is not null or exists (select 1 from site_uid_changes c where c.user_id = t.user_id)`
    : missing
  const snatchStart = sql`case when ${startUnknown} or ${st1} < s0.seed_time_sec or ${up1} < s0.uploaded then (select sn.startdat from users u join site_snatched sn on sn.userid = u.site_uid and sn.torrentid = t.torrent_id where u.id = t.user_id) end`
  // A restart the derivation noted (snatch_restarts) knows the start of a new snatch that outgrew the old one, which
  // the two snapshots cannot show; the latest one in the period is the snatch the end counters belong to.
  const started = plan.restarts ? sql`coalesce(sr.started_at, ${snatchStart})` : snatchStart
  const restartJoin = plan.restarts
    ? sql`left join (select record_id, max(started_at) as started_at from snatch_restarts where ${restartCounts(counters)}
          group by record_id) sr on sr.record_id = ${t.id}`
    : sql``
  for (let from = first * RECORD_ID_RANGE; from < plan.maxId; from += step * RECORD_ID_RANGE) {
    const rows = await arrayRows<Row>(
      db,
      sql`select t.user_id, t.torrent_id, ${t.claimAt} as claim_at, ${t.assignedAt} as assigned_at,
        s0.seed_time_sec as st0, s0.uploaded as up0,
        ${firstSeen('seen_at')} as f_at, ${firstSeen('seed_time_sec')} as stf, ${firstSeen('uploaded')} as upf,
        ${started} as started,
        ${atAssignment('seed_time_sec')} as sta, ${atAssignment('uploaded')} as upa,
        ${t.claimBegin('seed_time_begin')} as stc, ${t.claimBegin('uploaded_begin')} as upc, ${st1} as st1, ${up1} as up1 ${rebaseColumns}
      from ${t.from}
        left join counter_snapshots s0 on s0.day = ${counters.startDay} and s0.record_id = ${t.id}
        ${endJoin}
        ${rebaseJoin}
        ${restartJoin}
      where ${t.where} ${t.id} > ${from} and ${t.id} <= ${from + RECORD_ID_RANGE} and ${ties}`,
    )
    for (const [
      userId,
      torrentId,
      claimedAt,
      assignedAtValue,
      st0,
      up0,
      fAt,
      stf,
      upf,
      started,
      sta,
      upa,
      stc,
      upc,
      st1,
      up1,
      bAt,
      stb,
      upb,
      pendingAt,
    ] of rows) {
      const claimAt = Number(claimedAt)
      const assignedAt = claimsOnly ? 0 : Number(assignedAtValue)
      const gain = windowGain(
        {
          claim: claimAt > 0 ? { at: claimAt, begin: counters2(stc, upc) ?? NO_COUNTERS } : null,
          assignedAt: assignedAt > 0 ? assignedAt : null,
          // 0: the source did not know the snatch's start (a zero date): never a start inside the window.
          snatchStartedAt: Number(started) > 0 ? Number(started) : null,
          atPeriodStart: counters2(st0, up0),
          atAssignment: counters2(sta, upa),
          firstSeen: fAt != null ? { at: Number(fAt), ...counters2(stf, upf)! } : null,
          atEnd: counters2(st1, up1),
          rebase:
            pendingAt != null && (bAt == null || Number(pendingAt) > Number(bAt))
              ? { at: Number(pendingAt), ...(counters2(st1, up1) ?? NO_COUNTERS) }
              : bAt != null
                ? { at: Number(bAt), ...counters2(stb, upb)! }
                : null,
        },
        counters,
      )
      if (!gain) continue
      out.users.push(Number(userId))
      out.torrents.push(Number(torrentId))
      out.tieAts.push(gain.tieAt ?? 0)
      out.seedTimeGains.push(gain.seedTimeGainSec)
      out.uploadedGains.push(gain.uploadedGain)
      out.partials.push(gain.partial ? 1 : 0)
    }
  }
  return out
}

/**
 * Yields batches of torrents, each torrent's records together (torrent id, then user id order).
 *
 * Why not read torrent by torrent: the records of one torrent are scattered over the table, so
 * that walk is ~500,000 random reads at 2,000,000 records (BENCHMARKS.md "Wages"). Instead the
 * records are scanned once in id order — with their start and end snapshot rows, which are keyed
 * (day, record id) and so read in order too — into compact columns (`scan`: here, or half of the
 * ranges in a helper thread), and grouped by torrent in memory with a counting sort. Memory: ~40
 * bytes per claimed-or-assigned official record (~20 MB at 500,000), plus the official torrents' names.
 */
export async function* periodRecords(
  db: Kysely<DB>,
  counters: PeriodCounters,
  members: ReadonlyMap<number, WageMember>,
  rules: Pick<RuleBody, 'mode'> = {},
  options: { torrentsPerBatch?: number; scan?: RangeScan } = {},
): AsyncGenerator<WageInput[][]> {
  const torrentsPerBatch = options.torrentsPerBatch ?? TORRENTS_PER_BATCH
  const plan = await scanPlan(db, counters, rules)
  const banned = new Set(plan.banned)
  const torrentsInfo = new Map<number, PaidTorrent>()
  // N at the period end: the seeders kept with the end snapshot; without one (the running month), or for a torrent
  // it lacks (see the header), the current ones — the best the mirror knows.
  const atEnd = counters.endDay !== null
  // Torrents that can pay: official or banned (their keepers see why), every claimed one under the preset.
  const paid = (seedType: RawBuilder<unknown>, torrentId: RawBuilder<unknown>) =>
    plan.claimsOnly ? sql`1 = 1` : sql`(${seedType} = ${sql.lit(SeedType.Official)} or ${inIntegers(torrentId, plan.banned)})`
  // A closed month's torrents as kept with its end snapshot (one the site deleted since too), else the current ones
  // (a torrent the end snapshot lacks: none had records then).
  const labels = counters.endTies
    ? await sql<LabelRow>`select s.torrent_id, coalesce(s.name, l.name) as name, coalesce(s.size, l.size) as size,
          coalesce(s.added, l.added) as added, s.seeders, coalesce(s.seed_type, l.seed_type) as seed_type
        from torrent_seeder_snapshots s left join torrent_labels l on l.torrent_id = s.torrent_id
        where s.day = ${counters.endDay} and coalesce(s.name, l.name) is not null
          and ${paid(sql`coalesce(s.seed_type, l.seed_type)`, sql`s.torrent_id`)}
        union all
        select l.torrent_id, l.name, l.size, l.added, l.seeders, l.seed_type from torrent_labels l
        where ${paid(sql`l.seed_type`, sql`l.torrent_id`)}
          and not exists (select 1 from torrent_seeder_snapshots s where s.day = ${counters.endDay} and s.torrent_id = l.torrent_id)`.execute(
        db,
      )
    : await sql<LabelRow>`select l.torrent_id, l.name, l.size, l.added, ${atEnd ? sql`coalesce(s.seeders, l.seeders)` : sql`l.seeders`} as seeders,
          l.seed_type
        from torrent_labels l ${
          atEnd ? sql`left join torrent_seeder_snapshots s on s.day = ${counters.endDay} and s.torrent_id = l.torrent_id` : sql``
        }
        where ${paid(sql`l.seed_type`, sql`l.torrent_id`)}`.execute(db)
  for (const t of labels.rows) {
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
  const parts = options.scan ? await options.scan(plan) : [await scanRanges(db, plan)]

  const rows = parts[0]!
  for (const part of parts.slice(1)) appendGains(rows, part)
  parts.length = 0

  // Torrents in id order, each torrent's rows together.
  const { groups: torrentIds, starts, order } = groupBy(rows.torrents)

  let groups: WageInput[][] = []
  for (let t = 0; t < torrentIds.length; t++) {
    const torrentId = torrentIds[t]!
    // Members who cannot earn (deleted, no site account) and torrents that cannot pay are left out.
    const torrent = torrentsInfo.get(torrentId)
    if (!torrent) continue
    const group: WageInput[] = []
    for (let k = starts[t]; k < starts[t + 1]; k++) {
      const i = order[k]
      const userId = rows.users.at(i)
      if (!members.has(userId)) continue
      const claimedAt = rows.tieAts.at(i)
      group.push({
        userId,
        torrentId,
        torrentName: torrent.name,
        size: torrent.size,
        official: torrent.official,
        banned: torrent.banned,
        addedAt: torrent.added,
        seeders: torrent.seeders,
        claimedAt: claimedAt > 0 ? claimedAt : null,
        seedTimeGainSec: rows.seedTimeGains.at(i),
        uploadedGain: rows.uploadedGains.at(i),
        partial: rows.partials.at(i) === 1,
      })
    }
    if (!group.length) continue
    group.sort((a, b) => a.userId - b.userId)
    groups.push(group)
    if (groups.length === torrentsPerBatch) {
      yield groups
      groups = []
    }
  }
  if (groups.length) yield groups
}

const NO_COUNTERS: Counters = Object.freeze({ seedTimeSec: 0, uploaded: 0 })

const counters2 = (seedTime: unknown, uploaded: unknown): Counters | null =>
  seedTime == null ? null : { seedTimeSec: Number(seedTime), uploaded: Number(uploaded ?? 0) }

type Nullable = number | string | null
/** A scanned row, in the select list's order. */
type Row = [
  userId: number,
  torrentId: number,
  /** 0 = not claimed. */
  claimedAt: number,
  /** 0 = not assigned. */
  assignedAt: number,
  st0: Nullable,
  up0: Nullable,
  fAt: Nullable,
  stf: Nullable,
  upf: Nullable,
  started: Nullable,
  sta: Nullable,
  upa: Nullable,
  stc: Nullable,
  upc: Nullable,
  st1: Nullable,
  up1: Nullable,
  /** Only in a period with a rebase (ScanPlan.rebases). */
  bAt?: Nullable,
  stb?: Nullable,
  upb?: Nullable,
  pendingAt?: Nullable,
]
