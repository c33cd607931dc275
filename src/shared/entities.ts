/**
 * Runtime schemas of the entities that cross the wire (docs/api.md "Shapes"). One file by design:
 * declarations only, one per shape, several built from another (a user from the login info, a
 * preview entry from a wage record), so the domains reference each other.
 */
import { z } from './validation'
import { roleValues, seedStatusValues } from './enums'
import { payoutMessageTemplateSchema } from './payout-template'

/** ISO-8601 with offset (`Z` or `+08:00`). */
export const isoTime = z.iso.datetime({ offset: true })

export const accountStatusSchema = z.literal([0, 1, 2])
export const roleSchema = z.enum(roleValues)

export const loginInfoSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  role: roleSchema,
  status: accountStatusSchema,
  siteUid: z.number().int().positive().nullable(),
  lastLoginAt: isoTime.nullable(),
})
export type LoginInfo = z.infer<typeof loginInfoSchema>

export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: z.string(),
})
export type Health = z.infer<typeof healthSchema>

/** The `{ list, total }` answer of every paged call. */
export function pagedResult<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int().nonnegative() })
}
export type Paged<T> = { list: T[]; total: number }

// ---- Seeding data: records, statuses, statistics ----

const id = z.number().int().positive()
const count = z.number().int().nonnegative()
const bytes = z.number().nonnegative()
export const seedStatusSchema = z.literal(seedStatusValues)
export const seedTypeSchema = z.literal([1, 2])
export const claimStateSchema = z.literal([1, 2])
export const assignmentLabelSchema = z.literal([1, 2])
export const completionSchema = z.literal([1, 2, 3, 4])

/** Counts per seeding status; every status is present (0 when none). */
export const byStatusSchema = z.object({
  1: count,
  2: count,
  3: count,
  4: count,
  5: count,
  6: count,
  7: count,
  8: count,
})
export type ByStatus = z.infer<typeof byStatusSchema>

export const userSchema = loginInfoSchema.extend({
  remark: z.string(),
  createdAt: isoTime,
  adminSince: isoTime.nullable(),
  seedingCount: count,
  seedingSize: bytes,
  assignedCount: count,
})
export type User = z.infer<typeof userSchema>

export const userDetailSchema = userSchema.extend({ byStatus: byStatusSchema })
export type UserDetail = z.infer<typeof userDetailSchema>

export const userOptionSchema = z.object({ id, username: z.string() })
export type UserOption = z.infer<typeof userOptionSchema>

/** A member who can keep torrents (status 正常, with a site uid), with their load, for 任务分配's picker. */
export const keeperOptionSchema = userOptionSchema.extend({ role: roleSchema, assignedCount: count, seedingCount: count })
export type KeeperOption = z.infer<typeof keeperOptionSchema>

/**
 * One member a torrent is assigned to. `status`: their account's (封禁 and 已删除 keep nothing for the team: the
 * torrent has no active keeper through them, and 自动分配 assigns it again).
 */
export const assigneeSchema = z.object({
  torrentId: id,
  userId: id,
  username: z.string(),
  /** The member's account status (封禁 and 已删除 are marked); optional: a server before 0.3.5 does not send it. */
  status: accountStatusSchema.optional(),
  assignedAt: isoTime,
})
export type Assignee = z.infer<typeof assigneeSchema>

export const seedRecordSchema = z.object({
  id,
  userId: id,
  username: z.string(),
  torrentId: id,
  siteTorrentId: z.number().int().nonnegative(),
  torrentName: z.string(),
  size: bytes,
  seedType: seedTypeSchema,
  status: seedStatusSchema,
  claimState: claimStateSchema,
  assigned: assignmentLabelSchema,
  uploaded: bytes,
  downloaded: bytes,
  seedTimeSec: count,
  lastAction: isoTime.nullable(),
  assignedAt: isoTime.nullable(),
})
export type SeedRecord = z.infer<typeof seedRecordSchema>

export const torrentSchema = z.object({
  id,
  siteTorrentId: z.number().int().nonnegative(),
  name: z.string(),
  infoHash: z.string(),
  size: bytes,
  team: z.string().nullable(),
  category: z.string().nullable(),
  addedAt: isoTime,
  seedType: seedTypeSchema,
  seedTypeSource: z.enum(['rule', 'manual']),
  seeders: count,
  leechers: count,
  keepers: count,
  targetKeepers: count,
  completion: completionSchema,
  assigned: assignmentLabelSchema,
  ownerUserId: id.nullable(),
  /** Banned on the site (NexusPHP `torrents.banned = yes`): nobody can keep it, so it cannot be assigned. */
  banned: z.boolean(),
})
export type Torrent = z.infer<typeof torrentSchema>

export const wageRankEntrySchema = z.object({
  rank: z.number().int().positive(),
  userId: id,
  username: z.string(),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  amount: z.number(),
  torrentCount: count,
  totalSize: bytes,
})
export type WageRankEntry = z.infer<typeof wageRankEntrySchema>

export const allSeedingStatsSchema = z.object({
  officialTorrents: count,
  officialSize: bytes,
  completedOfficial: count,
  members: count,
  activeMembers: count,
  byStatus: byStatusSchema,
  byCompletion: z.object({ 1: count, 2: count, 3: count, 4: count }),
  seedingSize: bytes,
  daily: z.array(z.object({ date: z.string(), seedingCount: count, seedingSize: bytes })),
  topWages: z.array(wageRankEntrySchema),
  estimatedWages: z.number(),
  computedAt: isoTime,
})
export type AllSeedingStats = z.infer<typeof allSeedingStatsSchema>

export const userSeedingStatsSchema = z.object({
  userId: id,
  byStatus: byStatusSchema,
  seedingCount: count,
  seedingSize: bytes,
  uploaded: bytes,
  estimatedWage: z.number(),
  rank: z.number().int().positive().nullable(),
  daily: z.array(z.object({ date: z.string(), seedingCount: count, seedingSize: bytes, uploaded: bytes })),
})
export type UserSeedingStats = z.infer<typeof userSeedingStatsSchema>

// ---- Admin actions: members, admins, assignments, rules, operation log ----

const nonNegative = z.number().finite().nonnegative()
const label = z.string().trim().min(1).max(100)

/**
 * How wages are settled: `team` — this product's rules (claimed or assigned official
 * torrents, keeper ranks); `nexusphpClaims` — the preset 「NexusPHP 认领结算」 (claimed torrents only,
 * official or not, as NexusPHP's own monthly claim settlement). Absent = `team`.
 */
export const wageModes = ['team', 'nexusphpClaims'] as const
export type WageMode = (typeof wageModes)[number]
export const wageModeLabels: Record<WageMode, string> = { team: '本站规则', nexusphpClaims: 'NexusPHP 认领结算' }

/**
 * NexusPHP's own defaults of its claim standard and seeding-bonus formula (App\Models\Claim's constants,
 * nexus/Install/settings.default.php): the first rule version's and the preset's values, and what a site's
 * settings mean when a row is absent.
 */
export const nexusphpWageDefaults = {
  standardSeedHours: 300,
  standardUploadedTimes: 2,
  t0Weeks: 4,
  n0: 7,
  b0: 100,
  l: 300,
  perSeeding: 1,
  maxSeeding: 7,
  multiplier: 1,
} satisfies Partial<RuleBody>

/**
 * The wage parameters of the preset 「NexusPHP 认领结算」: NexusPHP's own defaults (its claim settings
 * and bonus formula) and one keeper factor, since NexusPHP pays every claimer alike. The official-torrent
 * fields are left as they are: they still label torrents, they only stop deciding who is paid.
 */
export const nexusphpClaimsPreset = {
  mode: 'nexusphpClaims',
  keeperRankFactors: [1],
  minQualifiedCount: 1,
  minQualifiedSizeGiB: 0,
  ...nexusphpWageDefaults,
} satisfies Partial<RuleBody>

/** NexusPHP's default claim_remove_deduct_user_bonus: the rules' `claimRemoveDeduction` when absent. */
export const DEFAULT_CLAIM_REMOVE_DEDUCTION = 600

/** The official-torrent and wage rules (`Rules` without its `version`). */
export const ruleBodySchema = z.object({
  mode: z.enum(wageModes).optional(),
  officialTeams: z.array(label).max(500),
  officialTags: z.array(label).max(500),
  minSizeGiB: nonNegative.max(1_000_000),
  targetKeepers: z.number().int().min(1).max(1000),
  activeWindowMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
  standardSeedHours: nonNegative.max(744),
  standardUploadedTimes: nonNegative.max(1000),
  minQualifiedCount: z.number().int().nonnegative().max(1_000_000),
  minQualifiedSizeGiB: nonNegative.max(1_000_000_000),
  keeperRankFactors: z.array(nonNegative.max(100)).min(1).max(100),
  t0Weeks: z.number().finite().positive().max(10_000),
  // At least 2: with a torrent nobody seeds (N = 0) the formula takes 10^(1/(n0 − 1)), Infinity for n0 just above 1 — a
  // month whose records could not be opened. A seeders count below 2 means nothing here (NexusPHP divides by n0 − 1 too).
  n0: z.number().finite().min(2).max(1_000_000),
  b0: nonNegative.max(1_000_000),
  l: z.number().finite().positive().max(1_000_000_000),
  perSeeding: nonNegative.max(1_000_000),
  maxSeeding: z.number().int().nonnegative().max(1_000_000),
  multiplier: nonNegative.max(1000),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: '不是有效的时区（请填写时区名，如 Asia/Shanghai；CST 等缩写有歧义，不能使用）' }),
  /** The member's message when paid into the site; absent = the Chinese default. */
  payoutMessageTemplate: payoutMessageTemplateSchema.optional(),
  /** Paying into a NexusPHP site also does its claim settlement; absent = off. */
  settleClaims: z.boolean().optional(),
  /** Bonus deducted per claim removed unreached by `settleClaims` (NexusPHP's claim_remove_deduct_user_bonus); absent = 600. */
  claimRemoveDeduction: nonNegative.max(1_000_000_000).optional(),
})
export type RuleBody = z.infer<typeof ruleBodySchema>

/**
 * The body as it is stored: an optional field spelt out at the value its absence means is left out, so rules that
 * differ only so are the same version (POST /config/rules answers the current one) and a change log reads true.
 */
export function ruleBodyAsStored(body: RuleBody): RuleBody {
  const { mode, settleClaims, claimRemoveDeduction, ...rest } = body
  return {
    ...rest,
    ...(mode !== undefined && mode !== 'team' && { mode }),
    ...(settleClaims && { settleClaims }),
    ...(claimRemoveDeduction !== undefined && claimRemoveDeduction !== DEFAULT_CLAIM_REMOVE_DEDUCTION && { claimRemoveDeduction }),
  }
}

/** The first version's values: NexusPHP's own where it has one. */
export const defaultRuleBody: RuleBody = {
  officialTeams: [],
  officialTags: [],
  minSizeGiB: 1,
  targetKeepers: 3,
  // NexusPHP keeps a peer 1.3 × its longest announce interval (78 min by default): a keeper announcing
  // hourly must never flicker to 已停止. Sites still on the old shipped 60 get 80 from migration 0017.
  activeWindowMinutes: 80,
  minQualifiedCount: 1,
  minQualifiedSizeGiB: 0,
  keeperRankFactors: [1, 0.8, 0.6, 0.3],
  ...nexusphpWageDefaults,
  timezone: 'Asia/Shanghai',
}
export const rulesSchema = ruleBodySchema.extend({ version: z.number().int().positive() })

/**
 * POST /config/rules: the rules, and the version the admin's form was loaded from — refused (409) when another
 * version was saved since, so a second admin's save never silently undoes the first's. Absent: not checked.
 */
// Strict, as every write's body: a misspelt setting is refused, never dropped with the save answered as done.
export const ruleSaveSchema = ruleBodySchema.extend({ baseVersion: z.number().int().positive().optional() }).strict()
export type RuleSave = z.infer<typeof ruleSaveSchema>
export type Rules = z.infer<typeof rulesSchema>

/**
 * An IANA zone name (Area/Location, or UTC): Intl also takes legacy abbreviations and reads them as somewhere else —
 * `CST`, China Standard Time to a Chinese admin, is America/Chicago — which would cut every wage month 14 hours off.
 */
function isTimeZone(value: string): boolean {
  if (!/^(?:[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC)$/.test(value)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}

export const operationLogSchema = z.object({
  id,
  at: isoTime,
  operatorId: id.nullable(),
  operatorName: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** The target's name now (a user's username, a torrent's name); null when unknown or gone. */
  targetName: z.string().nullable().optional(),
  detail: z.string(),
  ip: z.string(),
})
export type OperationLog = z.infer<typeof operationLogSchema>

// ---- Wages: the engine's records, previews and statistics ----

export const periodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: '月份格式应为 YYYY-MM' })

export const wageItemSchema = z.object({
  torrentId: id,
  torrentName: z.string(),
  size: bytes,
  seeders: count,
  seedHours: z.number().nonnegative(),
  uploaded: bytes,
  keeperRank: count,
  value: z.number().nonnegative(),
  qualified: z.boolean(),
  reason: z.string().nullable(),
  /** Counted from the record's first observation, not the window start (部分月份). */
  partial: z.boolean().optional(),
})
export type WageItem = z.infer<typeof wageItemSchema>

export const wageRecordSchema = z.object({
  id,
  userId: id,
  username: z.string(),
  period: periodSchema,
  amount: z.number().nonnegative(),
  torrentCount: count,
  totalSize: bytes,
  seedHours: z.number().nonnegative(),
  payment: z.literal([0, 1]),
  paidAt: isoTime.nullable(),
  paidBy: z.string().nullable(),
  computedAt: isoTime,
  ruleVersion: z.number().int().positive(),
  /** Some records counted from a first observation after the window began (部分月份). */
  partial: z.boolean().optional(),
  /** seedHours ÷ torrentCount: the average the formula multiplies by (0 without qualified torrents). */
  avgSeedHours: z.number().nonnegative().optional(),
  /** Below the team's minimums (qualified count or size): amount 0, its claimed records were 无工资. */
  belowMinimum: z.boolean().optional(),
})
export type WageRecord = z.infer<typeof wageRecordSchema>

export const wageDetailSchema = wageRecordSchema.extend({ items: z.array(wageItemSchema) })
export type WageDetail = z.infer<typeof wageDetailSchema>

/**
 * One member's unsaved result in a preview. No id or payment yet; `items` only when the preview
 * asked for one member (at 2,000,000 records the whole breakdown would not fit one answer).
 */
export const wagePreviewEntrySchema = wageRecordSchema
  .omit({ id: true, payment: true, paidAt: true, paidBy: true })
  .extend({ items: z.array(wageItemSchema).optional(), belowMinimum: z.boolean() })
export type WagePreviewEntry = z.infer<typeof wagePreviewEntrySchema>

export const wageStatsSchema = z.object({
  months: z.array(
    z.object({
      period: periodSchema,
      paid: z.number(),
      unpaid: z.number(),
      members: count,
      average: z.number(),
      median: z.number(),
      /** Members whose wage above 0 was paid (领取人数); `members` counts wages above 0, paid or not. */
      paidMembers: count.optional(),
    }),
  ),
  distribution: z.array(z.object({ from: z.number(), to: z.number(), count })),
})
export type WageStats = z.infer<typeof wageStatsSchema>

// ---- Site data sources: NexusPHP sync and push ingest ----

export const sourceKindValues = ['demo', 'nexusphp', 'ingest'] as const
export type SourceKind = (typeof sourceKindValues)[number]

/** What a running sync is doing: rows of `table` read so far, of `total` when the source knows it. */
export const syncProgressSchema = z.object({ table: z.string(), read: count, total: count.nullable() })
export type SyncProgress = z.infer<typeof syncProgressSchema>

/**
 * The site as the NexusPHP source reads it: the time zone its DATETIMEs are read in,
 * the peer lifetime of its own settings (1.3 × `main.anninterthree`; null when unreadable) and the
 * rules' active window — /data-sync warns when the site keeps peers longer than the window.
 */
export const syncSiteSchema = z.object({
  timeZone: z.string(),
  peerLifetimeMinutes: z.number().nonnegative().nullable(),
  activeWindowMinutes: z.number().nonnegative(),
  /**
   * Present when the rules' time zone (the wage month, its end snapshot) is not the site's (its times, its claim
   * settlement) at some time of the year: their UTC offsets now, `±HH:MM` (equal now where only daylight saving differs).
   */
  zoneMismatch: z.object({ rulesTimeZone: z.string(), siteOffset: z.string(), rulesOffset: z.string() }).optional(),
  /**
   * Under 「NexusPHP 认领结算」, once the site's settings were read: each site setting of the bonus formula or
   * the claim settlement that the rules do not match (empty: they all do) — the preset pays what NexusPHP
   * would only with the site's own values.
   */
  wageDifferences: z
    .array(
      z.object({
        setting: z.string(),
        label: z.string(),
        site: z.string(),
        rules: z.string(),
        /** The rule field that takes the site's value (`siteValue`); null: the rules have no such field. */
        field: z.string().nullable(),
        siteValue: z.number().nullable(),
      }),
    )
    .optional(),
  /**
   * Values in the site's rows no real row can mean (a time years past the site's clock, a negative or
   * saturated counter, a NUL in a name) that syncs stored changed, each kind with the rows the last sync
   * that met it changed; listed for a week after. Absent or empty: none.
   */
  dataNotes: z.array(z.object({ message: z.string(), rows: count })).optional(),
})
export type SyncSite = z.infer<typeof syncSiteSchema>

export const syncStatusSchema = z.object({
  source: z.enum(sourceKindValues),
  running: z.boolean(),
  progress: syncProgressSchema.nullable(),
  lastStartedAt: isoTime.nullable(),
  lastFinishedAt: isoTime.nullable(),
  lastError: z.string().nullable(),
  /** Rows written per mirror table by the last finished sync. */
  rows: z.record(z.string(), count),
  /** NexusPHP only: how its times are read and how long it keeps a silent peer (see `SyncSite`). */
  site: syncSiteSchema.optional(),
})
export type SyncStatus = z.infer<typeof syncStatusSchema>

/** A user of the site (synced mirror), as offered when an admin adds a member by name or uid. */
export const siteUserOptionSchema = z.object({
  uid: id,
  username: z.string(),
  /** The console member already tied to this site user, if any. */
  memberId: id.nullable(),
  /**
   * That account's role (管理员 or 保种员), so the form names who holds the uid; null when no account holds it.
   * Optional: a server before 0.3.5 does not send it (the form then says 已是保种员, as it did).
   */
  memberRole: roleSchema.nullable().optional(),
  /** That account's status: a uid held by a 已删除 or 封禁 account is named so (restore it rather than look for it). Optional as memberRole (0.3.6). */
  memberStatus: accountStatusSchema.nullable().optional(),
})
export type SiteUserOption = z.infer<typeof siteUserOptionSchema>

/** The site's team and tag names (synced mirror), offered by the official-torrent rules form. */
export const siteOptionsSchema = z.object({ teams: z.array(z.string()), tags: z.array(z.string()) })
export type SiteOptions = z.infer<typeof siteOptionsSchema>
