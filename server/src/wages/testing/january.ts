/**
 * The January 2026 of the wage scenario tests (Asia/Shanghai): its bounds, rules naming CedarHD official, and what the
 * formula pays for one qualified 20 GiB torrent (2 seeders, added 2025-01-01) — the torrent those scenarios keep.
 */
import { defaultRuleBody } from '../../rules/rules'
import { memberAmount, torrentValue } from '../formula'

export const ZONE = 'Asia/Shanghai'
export const H = 3600
export const DAY = 86_400_000
/** 2026-01-01 00:00 Asia/Shanghai. */
export const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
/** 2026-02-01 00:00 Asia/Shanghai. */
export const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
export const januaryRules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }
/** The torrent's `added`. */
export const TORRENT_ADDED = Date.UTC(2025, 0, 1)

/** January's wage of the one torrent at `hours` seed hours. */
export const januaryWageAt = (hours: number) =>
  memberAmount(
    {
      sumValue: torrentValue({ weeks: (FEB_START - TORRENT_ADDED) / (7 * DAY), sizeGiB: 20, seeders: 2, keeperRank: 1 }, januaryRules),
      qualifiedCount: 1,
      avgSeedHours: hours,
    },
    januaryRules,
  )
