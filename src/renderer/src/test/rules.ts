/** A current rule version as GET /config/rules answers it, for the pages' tests to vary. */
import type { Rules } from '@shared/entities'

export const sampleRules: Rules = {
  version: 3,
  officialTeams: ['FRDS'],
  officialTags: [],
  minSizeGiB: 1,
  targetKeepers: 3,
  activeWindowMinutes: 80,
  standardSeedHours: 300,
  standardUploadedTimes: 2,
  minQualifiedCount: 1,
  minQualifiedSizeGiB: 0,
  keeperRankFactors: [1, 0.8, 0.6, 0.3],
  t0Weeks: 4,
  n0: 7,
  b0: 100,
  l: 300,
  perSeeding: 1,
  maxSeeding: 7,
  multiplier: 1,
  timezone: 'Asia/Shanghai',
}
