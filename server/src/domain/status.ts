/**
 * Seeding status of a seed record (domain.md §2): the first rule that matches wins. The same table
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
  /** Member banned or deleted, the torrent below `minSizeGiB`, or the member below this month's wage minimums (domain.md §4). */
  disqualified: boolean
  /** The member's snatch of the torrent: finished, unfinished, or none. */
  snatch: 'finished' | 'unfinished' | null
}

export function seedStatus(f: RecordFacts): SeedStatus {
  if (f.uploader) return SeedStatus.Uploader
  if (f.activeLeeching) return SeedStatus.Downloading
  if (f.activeSeeding && f.claimed && f.disqualified) return SeedStatus.NoWage
  if (f.activeSeeding && f.claimed) return SeedStatus.Seeding
  if (f.activeSeeding) return SeedStatus.SeedingUnclaimed
  if (f.snatch === 'finished') return SeedStatus.Stopped
  if (f.snatch === 'unfinished') return SeedStatus.Incomplete
  return SeedStatus.Waiting
}

/** SQL expressions (each a boolean condition, or for `snatchFinished` a nullable 0/1) of the facts. */
export interface RecordFactsSql {
  uploader: RawBuilder<unknown>
  activeLeeching: RawBuilder<unknown>
  activeSeeding: RawBuilder<unknown>
  claimed: RawBuilder<unknown>
  disqualified: RawBuilder<unknown>
  /** 1 = finished, 0 = unfinished, NULL = no snatch. */
  snatchFinished: RawBuilder<unknown>
}

export function seedStatusSql(f: RecordFactsSql): RawBuilder<number> {
  return sql<number>`case
    when ${f.uploader} then ${sql.lit(SeedStatus.Uploader)}
    when ${f.activeLeeching} then ${sql.lit(SeedStatus.Downloading)}
    when ${f.activeSeeding} and ${f.claimed} and ${f.disqualified} then ${sql.lit(SeedStatus.NoWage)}
    when ${f.activeSeeding} and ${f.claimed} then ${sql.lit(SeedStatus.Seeding)}
    when ${f.activeSeeding} then ${sql.lit(SeedStatus.SeedingUnclaimed)}
    when ${f.snatchFinished} = 1 then ${sql.lit(SeedStatus.Stopped)}
    when ${f.snatchFinished} = 0 then ${sql.lit(SeedStatus.Incomplete)}
    else ${sql.lit(SeedStatus.Waiting)}
  end`
}

/** Keepers of a torrent are members whose record says they seed it now (domain.md §3). */
export const keeperStatuses = [SeedStatus.Seeding, SeedStatus.SeedingUnclaimed] as const
