/**
 * The monthly wage computation, pure: rules and a period's per-record gains in,
 * per-member results with per-torrent items out. No database, no clock.
 *
 * It streams: records arrive grouped by torrent (`addTorrent`), so keeper ranks — which compare
 * the members on one torrent — are settled per torrent and the per-torrent items can be written
 * out at once; only one small accumulator per member is kept until `finish`. Memory stays flat
 * however many seed records a month has.
 */
import { AccountStatus } from '@shared/enums'
import { GIB, isNexusphpClaims, type RuleBody } from '../rules/rules'

const WEEK_MS = 7 * 24 * 3600 * 1000

/** One member × official-or-not torrent tie in the period (claimed or assigned). */
export interface WageInput {
  userId: number
  torrentId: number
  torrentName: string
  /** Bytes. */
  size: number
  /** Seed type by the rule version used (manual override included). */
  official: boolean
  /** The site has banned the torrent (`torrents.banned`). */
  banned?: boolean
  /** Epoch ms the torrent was added to the site. */
  addedAt: number
  /** Seeders of the torrent at the period's end. */
  seeders: number
  /** Epoch ms the member claimed (or was assigned) the torrent: orders the keepers. */
  claimedAt: number | null
  /** Seed time gained in the period, seconds. */
  seedTimeGainSec: number
  /** Bytes uploaded in the period. */
  uploadedGain: number
  /** The gains count from the record's first observation, after the window began (部分月份). */
  partial?: boolean
}

export interface WageMember {
  userId: number
  /** Account status: 0 封禁, 1 已删除, 2 正常. */
  status: 0 | 1 | 2
  /** False when the member's site account is disabled (`users.enabled = 'no'`); absent = enabled. */
  siteEnabled?: boolean
  /**
   * True when the site deleted the member's account (no site_users row where the mirror is the site's whole
   * users table: domain/site-accounts.ts, as the derivation judges it); absent = not deleted.
   */
  siteDeleted?: boolean
}

export interface WageItemResult {
  userId: number
  torrentId: number
  torrentName: string
  size: number
  seeders: number
  seedHours: number
  uploaded: number
  /** 1 = first qualified keeper by claim time; 0 when not qualified. */
  keeperRank: number
  value: number
  qualified: boolean
  /**
   * Why it does not earn (null = qualified). Its text (\`reasonText\`) is written only where an item is
   * shown or stored: a month has hundreds of thousands of unqualified items, and most runs show none.
   */
  unqualified: UnqualifiedKind | null
  /** Counted from a first observation (部分月份). */
  partial: boolean
}

export interface MemberWage {
  userId: number
  amount: number
  /** Qualified torrents and their total size (bytes). */
  torrentCount: number
  totalSize: number
  /** Seed hours over the qualified torrents, summed. */
  seedHours: number
  /** Σ v of the qualified torrents (NexusPHP's A). */
  sumValue: number
  /** True when the member fell below minQualifiedCount / minQualifiedSizeGiB (amount 0, records → status 5). */
  belowMinimum: boolean
  /** Some of the member's records counted from a first observation (部分月份). */
  partial: boolean
}

export const round2 = (n: number): number => Math.round((n + Number.EPSILON) * 100) / 100
const round4 = (n: number): number => Math.round((n + Number.EPSILON) * 10_000) / 10_000
const hours = (sec: number): number => sec / 3600
const fmt = (n: number): string => String(round2(n))
/**
 * `n` to 2 places beside a standard it failed: never rounded up to meet it (299.999 h shows 299.99, not 300 — a
 * breakdown reading 「300 小时 < 300 小时」 is a dispute). toPrecision first: 0.29 × 100 is 28.999….
 */
export const belowStandard = (n: number, standard: number): number =>
  round2(n) < standard ? round2(n) : Math.floor(Number((n * 100).toPrecision(12))) / 100

/** Why a record does not earn: the first that applies, in this order. */
export const Unqualified = {
  Banned: 1,
  Deleted: 2,
  SiteDisabled: 3,
  TorrentBanned: 4,
  NotOfficial: 5,
  TooSmall: 6,
  BelowStandards: 7,
  /** Numbered after the others: kinds are stored in item sets (item-sets.ts); checked right after SiteDisabled. */
  SiteDeleted: 8,
} as const
export type UnqualifiedKind = (typeof Unqualified)[keyof typeof Unqualified]

/** Why a record does not earn, or null when it qualifies. */
export function unqualifiedKind(input: WageInput, member: WageMember, rules: RuleBody): UnqualifiedKind | null {
  if (member.status === AccountStatus.Banned) return Unqualified.Banned
  if (member.status === 1) return Unqualified.Deleted
  if (member.siteEnabled === false) return Unqualified.SiteDisabled
  if (member.siteDeleted === true) return Unqualified.SiteDeleted
  if (input.banned) return Unqualified.TorrentBanned
  // NexusPHP's claim settlement pays any claimed torrent, whatever its team or size.
  const claims = isNexusphpClaims(rules)
  if (!claims && !input.official) return Unqualified.NotOfficial
  if (!claims && input.size < rules.minSizeGiB * GIB) return Unqualified.TooSmall
  const uploadedTimes = input.size > 0 ? input.uploadedGain / input.size : 0
  if (hours(input.seedTimeGainSec) < rules.standardSeedHours && uploadedTimes < rules.standardUploadedTimes)
    return Unqualified.BelowStandards
  return null
}

/**
 * The reason's text, from the figures an item keeps (size and upload gain in bytes, seed hours as
 * stored: rounded to 2 places, which is also how the text shows them).
 */
export function reasonText(kind: UnqualifiedKind, item: { size: number; seedHours: number; uploaded: number }, rules: RuleBody): string {
  switch (kind) {
    case Unqualified.Banned:
      return '账号封禁'
    case Unqualified.Deleted:
      return '账号已删除'
    case Unqualified.SiteDisabled:
      return '站点账号已禁用'
    case Unqualified.SiteDeleted:
      return '站点账号已删除'
    case Unqualified.TorrentBanned:
      return '种子已被站点禁止'
    case Unqualified.NotOfficial:
      return '非官种'
    case Unqualified.TooSmall:
      return `体积不足（${belowStandard(item.size / GIB, rules.minSizeGiB)} GiB < ${fmt(rules.minSizeGiB)} GiB）`
    case Unqualified.BelowStandards: {
      const uploadedTimes = item.size > 0 ? item.uploaded / item.size : 0
      return `做种时长不足（${belowStandard(item.seedHours, rules.standardSeedHours)} 小时 < ${fmt(rules.standardSeedHours)} 小时），上传量也不足（${belowStandard(uploadedTimes, rules.standardUploadedTimes)} 倍 < ${fmt(rules.standardUploadedTimes)} 倍体积）`
    }
  }
}

/** Why a record does not earn, as the text the breakdown shows, or null when it qualifies. */
export function disqualification(input: WageInput, member: WageMember, rules: RuleBody): string | null {
  const kind = unqualifiedKind(input, member, rules)
  return kind === null
    ? null
    : reasonText(kind, { size: input.size, seedHours: hours(input.seedTimeGainSec), uploaded: input.uploadedGain }, rules)
}

/**
 * NexusPHP's seeding value of one qualified torrent:
 * v = (1 − 10^(−w / t0)) × S × (1 + √2 × 10^(−(N − 1) / (n0 − 1))) × f
 */
export function torrentValue(
  args: { weeks: number; sizeGiB: number; seeders: number; keeperRank: number },
  rules: Pick<RuleBody, 't0Weeks' | 'n0' | 'keeperRankFactors'>,
): number {
  const factors = rules.keeperRankFactors
  const f = factors[Math.min(Math.max(args.keeperRank, 1), factors.length) - 1]!
  const age = 1 - 10 ** (-Math.max(args.weeks, 0) / rules.t0Weeks)
  // N as the site reports it, 0 included: NexusPHP's formula does the same (10^(1/(n0−1)) at N = 0).
  const scarcity = 1 + Math.SQRT2 * 10 ** (-(args.seeders - 1) / (rules.n0 - 1))
  return age * args.sizeGiB * scarcity * f
}

/** perHour = b0 × (2/π) × atan(A / l) + perSeeding × min(count, maxSeeding); amount = multiplier × perHour × avgSeedHours. */
export function memberAmount(args: { sumValue: number; qualifiedCount: number; avgSeedHours: number }, rules: RuleBody): number {
  const perHour =
    rules.b0 * (2 / Math.PI) * Math.atan(args.sumValue / rules.l) + rules.perSeeding * Math.min(args.qualifiedCount, rules.maxSeeding)
  return round2(rules.multiplier * perHour * args.avgSeedHours)
}

interface Accumulator {
  sumValue: number
  count: number
  size: number
  /** Unrounded: the average the amount is computed from (as NexusPHP averages seed time). */
  seedHours: number
  /** The rows' hours as shown (2 decimals each): the record's total is their sum, as the breakdown adds them up. */
  shownHours: number
  partial: boolean
}

export interface WageCalculator {
  /** All records of ONE torrent in the period; returns their items. */
  addTorrent(records: readonly WageInput[]): WageItemResult[]
  /** Per-member results, one per member seen or listed, in userId order. */
  finish(): MemberWage[]
}

/**
 * Which of a torrent's claims made in the same second came first: the site's claim id (NexusPHP's created_at has whole
 * seconds; its ids grow with each claim). Undefined where the times differ or nothing is known.
 */
export type ClaimOrder = (torrentId: number, userId: number) => number | undefined

/**
 * @param members every member that can earn this period (others' records are "账号已删除").
 * @param periodEnd epoch ms of the period's end: the torrents' age is measured there.
 */
export function createWageCalculator(
  rules: RuleBody,
  members: ReadonlyMap<number, WageMember>,
  periodEnd: number,
  claimOrder?: ClaimOrder,
): WageCalculator {
  const totals = new Map<number, Accumulator>()
  const seen = new Set<number>()
  const accumulator = (userId: number) => {
    let acc = totals.get(userId)
    if (!acc) totals.set(userId, (acc = { sumValue: 0, count: 0, size: 0, seedHours: 0, shownHours: 0, partial: false }))
    return acc
  }

  return {
    addTorrent(records) {
      const judged = records.map((record) => {
        seen.add(record.userId)
        const member = members.get(record.userId) ?? { userId: record.userId, status: 1 as const }
        return { record, kind: unqualifiedKind(record, member, rules) }
      })
      // Keeper rank: order among this torrent's qualified keepers by claim time; two claims of one second by the site's
      // claim order, other ties by lower user id.
      const claimedFirst = (a: WageInput, b: WageInput) => {
        const x = claimOrder?.(a.torrentId, a.userId)
        const y = claimOrder?.(b.torrentId, b.userId)
        return x !== undefined && y !== undefined ? x - y : 0
      }
      const ranked = judged
        .filter((j) => j.kind === null)
        .sort(
          (a, b) =>
            (a.record.claimedAt ?? Infinity) - (b.record.claimedAt ?? Infinity) ||
            claimedFirst(a.record, b.record) ||
            a.record.userId - b.record.userId,
        )
      const rankOf = new Map(ranked.map((j, index) => [j.record.userId, index + 1]))

      return judged.map(({ record, kind }) => {
        const seedHours = hours(record.seedTimeGainSec)
        const keeperRank = rankOf.get(record.userId) ?? 0
        let value = 0
        if (record.partial) accumulator(record.userId).partial = true
        if (kind === null) {
          value = torrentValue(
            { weeks: (periodEnd - record.addedAt) / WEEK_MS, sizeGiB: record.size / GIB, seeders: record.seeders, keeperRank },
            rules,
          )
          const acc = accumulator(record.userId)
          acc.sumValue += value
          acc.count += 1
          acc.size += record.size
          acc.seedHours += seedHours
          acc.shownHours += round2(seedHours)
        }
        return {
          userId: record.userId,
          torrentId: record.torrentId,
          torrentName: record.torrentName,
          size: record.size,
          seeders: record.seeders,
          // Below the standard it failed by: never shown as meeting it.
          seedHours: kind === Unqualified.BelowStandards ? belowStandard(seedHours, rules.standardSeedHours) : round2(seedHours),
          uploaded: record.uploadedGain,
          keeperRank,
          value: round4(value),
          qualified: kind === null,
          unqualified: kind,
          partial: record.partial === true,
        }
      })
    },

    finish() {
      const userIds = [...new Set([...members.keys(), ...seen])].sort((a, b) => a - b)
      return userIds.map((userId) => {
        const acc = totals.get(userId) ?? { sumValue: 0, count: 0, size: 0, seedHours: 0, shownHours: 0, partial: false }
        const belowMinimum = acc.count < rules.minQualifiedCount || acc.size < rules.minQualifiedSizeGiB * GIB || acc.count === 0
        const amount = belowMinimum
          ? 0
          : memberAmount({ sumValue: acc.sumValue, qualifiedCount: acc.count, avgSeedHours: acc.seedHours / acc.count }, rules)
        return {
          userId,
          amount,
          torrentCount: acc.count,
          totalSize: acc.size,
          seedHours: round2(acc.shownHours),
          sumValue: round4(acc.sumValue),
          belowMinimum,
          partial: acc.partial,
        }
      })
    },
  }
}

/** Convenience for small sets (tests, one member's explanation): groups by torrent, then computes. */
export function computeWages(rules: RuleBody, members: readonly WageMember[], records: readonly WageInput[], periodEnd: number) {
  const calculator = createWageCalculator(rules, new Map(members.map((m) => [m.userId, m])), periodEnd)
  const byTorrent = new Map<number, WageInput[]>()
  for (const record of records) byTorrent.set(record.torrentId, [...(byTorrent.get(record.torrentId) ?? []), record])
  const items = [...byTorrent.keys()].sort((a, b) => a - b).flatMap((torrentId) => calculator.addTorrent(byTorrent.get(torrentId)!))
  return { members: calculator.finish(), items }
}
