/**
 * Seeding status of a seed record (docs/domain.md §2): the first rule that matches wins. The same table
 * is written twice on purpose — `seedStatus` (plain TypeScript, the readable reference, used by
 * tests) and `seedStatusSql` (the set-based form the derivation runs over millions of rows) — and
 * a test checks that they agree on every combination of facts.
 */
import { type RawBuilder, sql } from 'kysely'
import { SeedStatus } from '@shared/enums'

/** What the rules look at, for one member × torrent at one sync time. */
export interface RecordFacts {
  /** The torrent's owner is the member's site uid. */
  uploader: boolean
  /** A peer of the member on the torrent announced within the active window and still has bytes to go. */
  activeLeeching: boolean
  /** A peer announced within the window as a seeder. */
  activeSeeding: boolean
  /** A claim row exists for (member, torrent). */
  claimed: boolean
  /** The member is banned or deleted here (account status other than 正常): also one of `Disqualification`'s reasons. */
  memberInactive: boolean
  /** Any reason of `Disqualification` holds. */
  disqualified: boolean
  /** The member's snatch of the torrent, or none. */
  snatch: SnatchFacts | null
}

/** A snatched row as announce keeps it: `finished = yes` after the `completed` event, and bytes still to go. */
export interface SnatchFacts {
  finished: boolean
  toGo: number
}

/**
 * "Complete snatch" (docs/domain.md §2): finished, or nothing left to download. A client that starts
 * with the data already there (cross-seeding) never sends `completed`, so its row keeps
 * `finished = no` with `to_go = 0` — it holds the whole torrent all the same.
 */
export function snatchComplete(s: SnatchFacts): boolean {
  return s.finished || s.toGo === 0
}

/** Why a claimed, seeding record earns nothing this period (status 5 instead of 3; docs/domain.md §2). */
export interface Disqualification {
  /** Banned or deleted here (account status other than 正常). */
  memberInactive: boolean
  /** The member's site account is disabled (NexusPHP `users.enabled = no`). */
  siteAccountDisabled: boolean
  /**
   * The site deleted the member's account: no site_users row, on a source that mirrors the site's whole
   * users table and once it holds any (domain/site-accounts.ts; never on SOURCE=ingest).
   */
  siteAccountDeleted: boolean
  /** The torrent is banned on the site (`torrents.banned = yes`). */
  torrentBanned: boolean
  /** The torrent is below `minSizeGiB`. */
  belowMinSize: boolean
  /** The member is below this month's wage minimums (docs/domain.md §4). */
  belowWageMinimum: boolean
}

export function disqualified(d: Disqualification): boolean {
  return d.memberInactive || d.siteAccountDisabled || d.siteAccountDeleted || d.torrentBanned || d.belowMinSize || d.belowWageMinimum
}

export function disqualifiedSql(d: { [K in keyof Disqualification]: RawBuilder<unknown> }): RawBuilder<unknown> {
  return sql`(${sql.join(Object.values(d), sql` or `)})`
}

export function seedStatus(f: RecordFacts): SeedStatus {
  // Seeding, but no longer for the team: neither a wage nor a keeper, whether they claimed or uploaded it. As 4 or 6 they
  // counted as keepers, so 首页's completion and 自动分配 took the torrent as kept by someone who left.
  if (f.activeSeeding && f.memberInactive) return SeedStatus.NoWage
  if (f.uploader) return SeedStatus.Uploader
  // A seeding client wins over a second one still downloading: the site counts the member among the torrent's seeders.
  if (f.activeLeeching && !f.activeSeeding) return SeedStatus.Downloading
  if (f.activeSeeding && f.claimed && f.disqualified) return SeedStatus.NoWage
  if (f.activeSeeding && f.claimed) return SeedStatus.Seeding
  if (f.activeSeeding) return SeedStatus.SeedingUnclaimed
  if (f.snatch && snatchComplete(f.snatch)) return SeedStatus.Stopped
  if (f.snatch) return SeedStatus.Incomplete
  return SeedStatus.Waiting
}

/** SQL expressions of the facts: each a boolean condition, except the snatch's columns. */
export interface RecordFactsSql {
  uploader: RawBuilder<unknown>
  activeLeeching: RawBuilder<unknown>
  activeSeeding: RawBuilder<unknown>
  claimed: RawBuilder<unknown>
  memberInactive: RawBuilder<unknown>
  disqualified: RawBuilder<unknown>
  /** The snatch's id (NULL = no snatch), `finished` (0/1) and `to_go`. */
  snatch: { id: RawBuilder<unknown>; finished: RawBuilder<unknown>; toGo: RawBuilder<unknown> }
}

export function seedStatusSql(f: RecordFactsSql): RawBuilder<number> {
  return sql<number>`case
    when ${f.activeSeeding} and ${f.memberInactive} then ${sql.lit(SeedStatus.NoWage)}
    when ${f.uploader} then ${sql.lit(SeedStatus.Uploader)}
    when ${f.activeLeeching} and not (${f.activeSeeding}) then ${sql.lit(SeedStatus.Downloading)}
    when ${f.activeSeeding} and ${f.claimed} and ${f.disqualified} then ${sql.lit(SeedStatus.NoWage)}
    when ${f.activeSeeding} and ${f.claimed} then ${sql.lit(SeedStatus.Seeding)}
    when ${f.activeSeeding} then ${sql.lit(SeedStatus.SeedingUnclaimed)}
    when ${f.snatch.id} is not null and (${f.snatch.finished} = 1 or ${f.snatch.toGo} = 0) then ${sql.lit(SeedStatus.Stopped)}
    when ${f.snatch.id} is not null then ${sql.lit(SeedStatus.Incomplete)}
    else ${sql.lit(SeedStatus.Waiting)}
  end`
}

/**
 * Keepers of a torrent (docs/domain.md §3): the members seeding it now — status 3 or 4, or its uploader
 * (6) with an active seeding peer (the record's `seeding`), whom the site counts in `seeders` like any
 * other peer. 5 无工资 never keeps: the record is disqualified. The one definition of "keeper": the
 * derivation counts torrent_labels.keepers with `keeperSql`, and auto-assign, the completion label and
 * the torrent views read that count.
 */
export function isKeeper(status: SeedStatus, seeding: boolean): boolean {
  return status === SeedStatus.Seeding || status === SeedStatus.SeedingUnclaimed || (status === SeedStatus.Uploader && seeding)
}

/**
 * `isKeeper` as SQL over a record's `status` and `seeding` (0/1) columns. A missing row (NULL status) is
 * not a keeper: the condition is then NULL, which `case when` takes as false.
 */
export function keeperSql(status: RawBuilder<unknown>, seeding: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${status} in (${sql.lit(SeedStatus.Seeding)}, ${sql.lit(SeedStatus.SeedingUnclaimed)})
    or (${status} = ${sql.lit(SeedStatus.Uploader)} and ${seeding} = 1))`
}
