/**
 * Seed records: each (member × torrent) pair's status, claim state, assignment label and counters,
 * judged set-based. The pairs to judge sit in the scratch table `derive_work` (scope.ts), and one
 * member-id range of them is judged per transaction.
 */
import { AccountStatus } from '@shared/enums'
import { type RawBuilder, sql } from 'kysely'
import type { DialectName } from '../db/database'
import { greatest, int } from '../db/sql-fragments'
import { completionLabelSql } from '../domain/labels'
import { isNexusphpClaims } from '../rules/rules'
import { disqualifiedSql, keeperSql, seedStatusSql } from '../domain/status'
import type { PassContext } from './context'
import { addRangeToCounts, refreshMemberStats, subtractRangeFromCounts } from './counts'
import { noteDepartedUploads } from './departed'
import { analyzeScratch } from './scope'
import { noteSnatchRestarts } from './snatch-restarts'

/** The columns of seed_records a derivation computes (the rest are the pair's keys and derived_at). */
export const derivedRecordColumns = [
  'status',
  'seed_type',
  'claim_state',
  'assigned',
  'seeding',
  'size',
  'uploaded',
  'downloaded',
  'seed_time_sec',
  'last_action',
  'assigned_at',
  'claimed_at',
] as const

/**
 * Columns of seed_records by the indexes they are in (see migration 0002), for SQLite, which
 * rewrites every index that holds a column of an UPDATE's SET list, whether the value changed or
 * not. PostgreSQL compares the values: a row whose indexed columns kept theirs is updated in place
 * (HOT) whatever the SET list says, and any other gets new entries in every index — so one statement
 * (one join of the batch with the records, not six) writes exactly as much.
 */
const writeGroups: Record<DialectName, readonly (readonly (typeof derivedRecordColumns)[number][])[]> = {
  sqlite: [
    ['seed_type', 'claim_state', 'assigned', 'seeding', 'claimed_at'], // in no index
    ['status'],
    ['uploaded', 'seed_time_sec', 'last_action'], // grow together on every sync of an active seeder
    ['downloaded'],
    ['size'],
    ['assigned_at'],
  ],
  postgres: [derivedRecordColumns],
}

/** The facts of one (member, torrent) pair as SQL, from whatever joins a query uses (`u` = users, `l` = torrent_labels). */
export interface TieColumns {
  userId: RawBuilder<unknown>
  /** Any peer at all / an active leeching one / an active seeding one (0/1, NULL when no peer). */
  peer: RawBuilder<unknown>
  peerLeeching: RawBuilder<unknown>
  peerSeeding: RawBuilder<unknown>
  peerLastAction: RawBuilder<unknown>
  peerUploaded: RawBuilder<unknown>
  peerDownloaded: RawBuilder<unknown>
  snatch: RawBuilder<unknown>
  snatchFinished: RawBuilder<unknown>
  snatchToGo: RawBuilder<unknown>
  snatchUploaded: RawBuilder<unknown>
  snatchDownloaded: RawBuilder<unknown>
  snatchSeedtime: RawBuilder<unknown>
  snatchLastAction: RawBuilder<unknown>
  claim: RawBuilder<unknown>
  claimedAt: RawBuilder<unknown>
  assignment: RawBuilder<unknown>
  assignedAt: RawBuilder<unknown>
}

/**
 * A record's derived columns (status … claimed_at, in derive_batch's order) and the condition that
 * the pair is tied at all — written once for both the per-range and the whole-table pass.
 */
export function recordValuesSql(ctx: PassContext, t: TieColumns): { values: RawBuilder<unknown>; tied: RawBuilder<unknown> } {
  const memberInactive = sql`u.status <> ${sql.lit(AccountStatus.Normal)}`
  const status = seedStatusSql({
    uploader: sql`(u.site_uid is not null and l.owner = u.site_uid)`,
    memberInactive,
    activeLeeching: sql`coalesce(${t.peerLeeching}, 0) = 1`,
    activeSeeding: sql`coalesce(${t.peerSeeding}, 0) = 1`,
    claimed: sql`${t.claim} is not null`,
    disqualified: disqualifiedSql({
      memberInactive,
      siteAccountDisabled: sql`exists (select 1 from site_users su where su.id = u.site_uid and su.enabled = 0)`,
      // As the wage engine judges it (wages/reader.ts wageMembers): the same question, domain/site-accounts.ts.
      siteAccountDeleted: ctx.siteAccountsMirrored
        ? sql`(u.site_uid is not null and not exists (select 1 from site_users su where su.id = u.site_uid))`
        : sql`(1 = 0)`,
      torrentBanned: sql`l.banned = 1`,
      // The preset 「NexusPHP 认领结算」 pays a claim whatever its size, as NexusPHP does (wages/formula.ts): not 无工资 for it.
      belowMinSize: isNexusphpClaims(ctx.rules) ? sql`(1 = 0)` : sql`l.size < ${int(ctx.minSizeBytes)}`,
      // Flag kept by src/wages/estimates.ts.
      belowWageMinimum: sql`exists (select 1 from wage_estimates e where e.user_id = ${t.userId} and e.below_minimum = 1)`,
    }),
    snatch: { id: t.snatch, finished: t.snatchFinished, toGo: t.snatchToGo },
  })
  const lastAction = greatest(ctx.dialect, sql`coalesce(${t.snatchLastAction}, 0)`, sql`coalesce(${t.peerLastAction}, 0)`)
  return {
    values: sql`${status}, l.seed_type,
      case when ${t.claim} is null then 1 else 2 end,
      case when ${t.assignment} is null then 2 else 1 end,
      case when coalesce(${t.peerSeeding}, 0) = 1 then 1 else 0 end,
      l.size,
      coalesce(${t.snatchUploaded}, ${t.peerUploaded}, 0), coalesce(${t.snatchDownloaded}, ${t.peerDownloaded}, 0), coalesce(${t.snatchSeedtime}, 0),
      ${lastAction}, coalesce(${t.assignedAt}, 0), coalesce(${t.claimedAt}, 0)`,
    tied: sql`(${t.snatch} is not null or ${t.claim} is not null or ${t.assignment} is not null or ${t.peer} is not null
      or (u.site_uid is not null and l.owner = u.site_uid))`,
  }
}

/**
 * Judges the work of one member range inside the caller's transaction: computes each pair's new
 * row, keeps the count cube exact by subtracting the old rows and adding the new ones, writes only
 * rows (and columns) that changed, deletes records whose tie is gone, and clears the range's work.
 * Returns how many record writes and deletions it made (a row can count twice).
 */
export async function judgeRange(ctx: PassContext, range: [number, number]): Promise<number> {
  const { db, now, since } = ctx
  const [a, b] = range

  const record = recordValuesSql(ctx, {
    userId: sql`w.user_id`,
    peer: sql`pf.user_id`,
    peerLeeching: sql`pf.leeching`,
    peerSeeding: sql`pf.seeding`,
    peerLastAction: sql`pf.last_action`,
    peerUploaded: sql`pf.uploaded`,
    peerDownloaded: sql`pf.downloaded`,
    snatch: sql`s.id`,
    snatchFinished: sql`s.finished`,
    snatchToGo: sql`s.to_go`,
    snatchUploaded: sql`s.uploaded`,
    snatchDownloaded: sql`s.downloaded`,
    snatchSeedtime: sql`s.seedtime`,
    snatchLastAction: sql`s.last_action`,
    claim: sql`c.id`,
    claimedAt: sql`c.created_at`,
    assignment: sql`a.id`,
    assignedAt: sql`a.assigned_at`,
  })

  await sql`with pf as (
      select w.user_id, w.torrent_id,
        max(case when p.last_action >= ${int(since)} and p.to_go > 0 then 1 else 0 end) as leeching,
        max(case when p.last_action >= ${int(since)} and p.seeder = 1 then 1 else 0 end) as seeding,
        max(p.last_action) as last_action, max(p.uploaded) as uploaded, max(p.downloaded) as downloaded
      from derive_work w join users u on u.id = w.user_id
        join site_peers p on p.userid = u.site_uid and p.torrent = w.torrent_id
      where w.user_id between ${a} and ${b}
      group by w.user_id, w.torrent_id)
    insert into derive_batch (user_id, torrent_id, status, seed_type, claim_state, assigned, seeding, size,
      uploaded, downloaded, seed_time_sec, last_action, assigned_at, claimed_at)
    select w.user_id, w.torrent_id, ${record.values}
    from derive_work w
      join users u on u.id = w.user_id
      join torrent_labels l on l.torrent_id = w.torrent_id
      left join pf on pf.user_id = w.user_id and pf.torrent_id = w.torrent_id
      left join site_snatched s on s.userid = u.site_uid and s.torrentid = w.torrent_id
      left join site_claims c on c.uid = u.site_uid and c.torrent_id = w.torrent_id
      left join assignments a on a.user_id = w.user_id and a.torrent_id = w.torrent_id
    where w.user_id between ${a} and ${b} and ${record.tied}`.execute(db)
  await analyzeScratch(ctx, 'derive_batch')

  // Pairs whose record is already exactly right leave the work: in a full pass over unchanged data
  // that is nearly all of them, and the cube deltas and writes below then cost next to nothing.
  // PostgreSQL: `is not distinct from` (the columns are never null, so it means `=`). With twelve `=`
  // between two tables it estimated one matching row and compared every pair of the work with every
  // unchanged one (12,000 pairs: 4.3 s; 100,000 would take minutes); with it, the unchanged pairs are
  // found once and each deleted through the work's key (0.17 s). SQLite keeps `=` (its nested loop
  // goes through the key either way, and `is` was ~5% slower over a 2 M-record sync).
  const unchanged = sql.join(
    derivedRecordColumns.map((c) =>
      ctx.dialect === 'postgres' ? sql`r.${sql.ref(c)} is not distinct from x.${sql.ref(c)}` : sql`r.${sql.ref(c)} = x.${sql.ref(c)}`,
    ),
    sql` and `,
  )
  await sql`delete from derive_work where user_id between ${a} and ${b} and exists (
      select 1 from derive_batch x join seed_records r on r.user_id = x.user_id and r.torrent_id = x.torrent_id
      where x.user_id = derive_work.user_id and x.torrent_id = derive_work.torrent_id and ${unchanged})`.execute(db)
  await sql`delete from derive_batch where user_id between ${a} and ${b} and not exists (
      select 1 from derive_work w where w.user_id = derive_batch.user_id and w.torrent_id = derive_batch.torrent_id)`.execute(db)

  // Each torrent's record and keeper counts move with the records that appear, go or change status or
  // seeding flag (an uploader's peer starting or stopping), in this transaction: an incremental pass
  // then never recounts a torrent's records. (A missing row's status is null: not a keeper.)
  const isKeeper = (row: 'x' | 'r') => sql`case when ${keeperSql(sql.ref(`${row}.status`), sql.ref(`${row}.seeding`))} then 1 else 0 end`
  // The completion label moves with the keepers in the same write (a second one would cost PostgreSQL
  // a second copy of the row in every index of torrent_labels, its name trigrams included).
  const completion = completionLabelSql(sql`torrent_labels.seed_type`, sql`torrent_labels.keepers + d.keepers`, ctx.rules.targetKeepers)
  await sql`update torrent_labels set records = torrent_labels.records + d.records, keepers = torrent_labels.keepers + d.keepers,
      completion = ${completion}
    from (select w.torrent_id,
            sum((case when x.user_id is null then 0 else 1 end) - (case when r.id is null then 0 else 1 end)) as records,
            sum(${isKeeper('x')} - ${isKeeper('r')}) as keepers
          from derive_work w
            left join derive_batch x on x.user_id = w.user_id and x.torrent_id = w.torrent_id
            left join seed_records r on r.user_id = w.user_id and r.torrent_id = w.torrent_id
          where w.user_id between ${a} and ${b}
          group by w.torrent_id) d
    where torrent_labels.torrent_id = d.torrent_id and (d.records <> 0 or d.keepers <> 0)`.execute(db)

  await subtractRangeFromCounts(db, range)

  // SQLite: writes grouped by the indexes their columns are in (writeGroups), so a sync's bulk —
  // every active seeder's counters grow — rewrites the 5 counter indexes, not all 12, and a rules
  // change that flips seed types (in no index) rewrites none.
  const inRange = sql`b.user_id between ${a} and ${b}`
  await noteSnatchRestarts(ctx, inRange)
  const sameRecord = sql`seed_records.user_id = b.user_id and seed_records.torrent_id = b.torrent_id`
  const inserted =
    await sql`insert into seed_records (user_id, torrent_id, ${sql.join(derivedRecordColumns.map((c) => sql.ref(c)))}, derived_at)
    select b.user_id, b.torrent_id, ${sql.join(derivedRecordColumns.map((c) => sql.ref(`b.${c}`)))}, ${int(now)}
    from derive_batch b
    where ${inRange} and not exists (select 1 from seed_records r where r.user_id = b.user_id and r.torrent_id = b.torrent_id)`.execute(db)
  let written = Number(inserted.numAffectedRows ?? 0)
  for (const group of writeGroups[ctx.dialect]) {
    const set = sql.join(group.map((c) => sql`${sql.ref(c)} = b.${sql.ref(c)}`))
    const differs = sql.join(
      group.map((c) => sql`seed_records.${sql.ref(c)} <> b.${sql.ref(c)}`),
      sql` or `,
    )
    const updated = await sql`update seed_records set ${set}, derived_at = ${int(now)}
      from derive_batch b where ${inRange} and ${sameRecord} and (${differs})`.execute(db)
    written += Number(updated.numAffectedRows ?? 0)
  }

  const leaving = sql`r.id in (
      select r.id from derive_work w join seed_records r on r.user_id = w.user_id and r.torrent_id = w.torrent_id
      where w.user_id between ${a} and ${b}
        and not exists (select 1 from derive_batch x where x.user_id = w.user_id and x.torrent_id = w.torrent_id))`
  await noteDepartedUploads(db, leaving)
  const deleted = await sql`delete from seed_records as r where ${leaving}`.execute(db)

  await addRangeToCounts(db, range)
  await refreshMemberStats(db, range)

  await sql`delete from derive_batch where user_id between ${a} and ${b}`.execute(db)
  await sql`delete from derive_work where user_id between ${a} and ${b}`.execute(db)
  return written + Number(deleted.numAffectedRows ?? 0)
}
