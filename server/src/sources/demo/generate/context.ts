/** What the steps of the demo generator share: the options, the PRNG, the sink, the counts, the drafts. */
import type { AppDatabase } from '../../../db/database'
import type { Prng } from '../prng'
import type { DemoScale } from '../scale'
import type { TorrentKind } from '../names'
import type { Sink } from './sink'

export const MIB = 1024 ** 2
export const HOUR = 3600_000
export const DAY = 24 * HOUR
export const YEAR = 365 * DAY

/** First ids of the site's tables: real sites are years old, their ids are not small. */
export const FIRST_SITE_UID = 10_001
export const FIRST_TORRENT_ID = 100_001

export interface GenerateOptions {
  scale: DemoScale
  seed: string
  now: number
  /** Stored for every demo member (one hash: scrypt per member would take minutes). */
  memberPasswordHash: string
  /** One per extra admin. */
  adminPasswordHashes: string[]
  /** Active window of the rules, so "active" peers are generated inside it. */
  activeWindowMinutes: number
}

export interface GeneratedCounts {
  siteUsers: number
  members: number
  admins: number
  torrents: number
  officialCandidates: number
  peers: number
  snatches: number
  claims: number
  assignments: number
}

export interface GenerateContext {
  database: AppDatabase
  options: GenerateOptions
  /** Every random choice, in one order: the same seed and clock give the same community. */
  rng: Prng
  sink: Sink
  counts: GeneratedCounts
}

export interface TorrentDraft {
  id: number
  kind: TorrentKind
  category: number
  team: number | null
  size: number
  added: number
  tags: number[]
  owner: number
  official: boolean
  popularity: number
}

export interface MemberDraft {
  userId: number
  siteUid: number
  records: number
  seedRate: number
  claimRate: number
  uploader: boolean
}
