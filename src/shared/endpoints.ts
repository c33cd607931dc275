/**
 * The list of callable `/api/v1` endpoints — the contract (docs/api.md is generated from it). The
 * server registers a route for each entry and validates the request with `input`; the main process
 * sends only calls named here, validates `input` before sending and `output` before answering the renderer.
 *
 * Travel of `input`: GET → query string (values arrive as strings, so GET schemas coerce);
 * POST → JSON body. `{name}` segments in `path` are filled from the input field of that name.
 *
 * One file by design: a declarative table, one entry per call, that server, main and the docs
 * generator read whole; its order is the order of docs/api.md.
 */
import { z } from './validation'
import {
  allSeedingStatsSchema,
  assignmentLabelSchema,
  claimStateSchema,
  completionSchema,
  healthSchema,
  loginInfoSchema,
  pagedResult,
  seedRecordSchema,
  seedStatusSchema,
  seedTypeSchema,
  torrentSchema,
  userDetailSchema,
  userOptionSchema,
  keeperOptionSchema,
  assigneeSchema,
  userSchema,
  userSeedingStatsSchema,
  accountStatusSchema,
  operationLogSchema,
  periodSchema,
  ruleSaveSchema,
  rulesSchema,
  wageDetailSchema,
  wagePreviewEntrySchema,
  wageRankEntrySchema,
  wageRecordSchema,
  wageStatsSchema,
  siteOptionsSchema,
  siteUserOptionSchema,
  syncStatusSchema,
} from './entities'
import { operationActionNames } from './enums'
import { pagedRequest } from './paging'
import {
  payoutPreviewSchema,
  payoutResolveInputSchema,
  payoutResultSchema,
  payoutRunSchema,
  payoutSelectionSchema,
  payoutStatusEntrySchema,
  payoutStatusInputSchema,
  webhookDeliveriesSchema,
} from './payout'

export type Access = 'public' | 'member' | 'admin'

export interface Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST'
  path: string
  access: Access
  /** Human name used in logs and the operation log. */
  title: string
  /**
   * The answer is a file, not an envelope: main saves the bytes through a save dialog and answers
   * the renderer with `output` (see fileSaveResultSchema). Error answers are still envelopes.
   */
  download?: true
  input: I
  output: O
}

/** Keeps `access` as its literal, so the server can type a handler's user as present for non-public calls. */
function endpoint<I extends z.ZodType, O extends z.ZodType, A extends Access>(
  def: Endpoint<I, O> & { access: A },
): Endpoint<I, O> & { access: A } {
  return def
}

/** For calls that take nothing; GET query `{}` and an absent POST body both pass. */
export const noInput = z.object({}).optional()
/** A write that takes nothing refuses a field it does not know (`{ allDevices: true }` to logout), as every write does. */
export const noBody = z.strictObject({}).optional()

export const loginInputSchema = z.strictObject({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
})
export type LoginInput = z.infer<typeof loginInputSchema>

/**
 * A whole number that arrives as text (a path segment, a query string): decimal digits only. Number() would also read
 * `0x2`, `+2`, `2.0`, `1e0` and ` 1` — another record than the one written, or an admin made of `0b11`.
 */
const queryInt = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value), schema)
const queryId = queryInt(z.number().int().positive().max(2_147_483_647))
const bodyId = z.number().int().positive().max(2_147_483_647)
/** Free-text filters: trimmed, empty means "no filter". */
const textFilter = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional()

/** Sortable fields of each paged call (anything else is a 400: `orderBy` reaches SQL only through these names). */
export const sortableFields = {
  pageAdmin: ['username', 'siteUid', 'adminSince', 'lastLoginAt', 'createdAt'],
  pageNormal: ['username', 'siteUid', 'status', 'seedingCount', 'seedingSize', 'assignedCount', 'createdAt', 'lastLoginAt'],
  pageSeed: ['uploaded', 'downloaded', 'seedTimeSec', 'lastAction', 'assignedAt', 'size', 'status'],
  torrentPage: ['addedAt', 'size', 'seeders', 'leechers', 'keepers', 'name'],
} as const

export const pageAdminInputSchema = pagedRequest(sortableFields.pageAdmin, {})
export const pageNormalInputSchema = pagedRequest(sortableFields.pageNormal, {
  status: accountStatusSchema.optional(),
  username: textFilter(64),
  siteUid: bodyId.optional(),
})
export const pageSeedInputSchema = pagedRequest(sortableFields.pageSeed, {
  userId: bodyId.optional(),
  torrentId: bodyId.optional(),
  status: seedStatusSchema.optional(),
  seedType: seedTypeSchema.optional(),
  claimState: claimStateSchema.optional(),
  assigned: assignmentLabelSchema.optional(),
  torrentName: textFilter(200),
})
export const torrentPageInputSchema = pagedRequest(sortableFields.torrentPage, {
  seedType: seedTypeSchema.optional(),
  completion: completionSchema.optional(),
  assigned: assignmentLabelSchema.optional(),
  name: textFilter(200),
  team: textFilter(100),
})
/** A list of ids in a body: at least one, at most 1,000 per call. */
const idList = z.array(bodyId).min(1).max(1000)

export const usernameSchema = z
  .string()
  .trim()
  .min(2)
  .max(32)
  .regex(/^[\p{L}\p{N}_.-]+$/u, { message: '只能包含文字、数字、下划线、点和短横线' })
/** A new password of spaces only (eight spaces pass the length): refused, on the server and in the forms. */
export const BLANK_PASSWORD_MESSAGE = '不能只包含空格'
/** New passwords: 8–128 characters, not all of them spaces (login accepts whatever was set before). */
export const newPasswordSchema = z
  .string()
  .min(8)
  .max(128)
  .refine((value) => /\S/.test(value), { message: BLANK_PASSWORD_MESSAGE })
const remarkSchema = z.string().trim().max(500)
const siteUidSchema = z.number().int().positive().max(2_147_483_647)

export const userCreateInputSchema = z.strictObject({
  username: usernameSchema,
  password: newPasswordSchema,
  siteUid: siteUidSchema.nullable().optional(),
  remark: remarkSchema.optional(),
})
export const userUpdateInputSchema = z.strictObject({
  id: bodyId,
  siteUid: siteUidSchema.nullable().optional(),
  remark: remarkSchema.optional(),
})
export const userSetStatusInputSchema = z.strictObject({ id: bodyId, status: accountStatusSchema })
export const userResetPasswordInputSchema = z.strictObject({ id: bodyId, password: newPasswordSchema })
export const changePasswordInputSchema = z.strictObject({ oldPassword: z.string().min(1).max(128), newPassword: newPasswordSchema })
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>
export const adminTargetInputSchema = z.object({ userId: queryId })

/** zod's own message here is 「无效ISO日期时间」: said in full, with an example. */
const logTime = z.iso.datetime({ offset: true, message: '应为带时区的日期时间，如 2026-11-01T00:00:00+08:00' })
export const operationLogPageInputSchema = pagedRequest(['at'], {
  operatorId: bodyId.optional(),
  action: z.enum(operationActionNames).optional(),
  from: logTime.optional(),
  to: logTime.optional(),
})

export const sortableWageFields = {
  wagesPage: ['period', 'amount', 'torrentCount', 'totalSize', 'seedHours', 'paidAt', 'username'],
} as const

type SortableLists = typeof sortableFields & typeof sortableWageFields
/** A paged call with a sort whitelist (`sortableFields`, `sortableWageFields`). */
export type SortableCall = keyof SortableLists
/** The fields a paged call may be sorted by: the server's sort maps are keyed by this, so each needs a column. */
export type SortableField<C extends SortableCall> = SortableLists[C][number]

export const fileSaveResultSchema = z.object({ saved: z.boolean(), fileName: z.string() })
export type FileSaveResult = z.infer<typeof fileSaveResultSchema>

export const userSeedingStatsInputSchema = z
  .object({ userId: queryId.optional(), days: queryInt(z.number().int().min(1).max(365)).optional() })
  .optional()

export const endpoints = {
  health: endpoint({ method: 'GET', path: '/health', access: 'public', title: '健康检查', input: noInput, output: healthSchema }),
  'user.login': endpoint({
    method: 'POST',
    path: '/user/login',
    access: 'public',
    title: '登录',
    input: loginInputSchema,
    output: z.string().min(1),
  }),
  'user.logout': endpoint({ method: 'POST', path: '/user/logout', access: 'member', title: '退出登录', input: noBody, output: z.null() }),
  'user.loginInfo': endpoint({
    method: 'GET',
    path: '/user/login-info',
    access: 'member',
    title: '当前用户',
    input: noInput,
    output: loginInfoSchema,
  }),
  'user.list': endpoint({
    method: 'GET',
    path: '/user/list',
    access: 'admin',
    title: '用户选项',
    input: noInput,
    output: z.array(userOptionSchema),
  }),
  'user.detail': endpoint({
    method: 'GET',
    path: '/user/{id}',
    access: 'member', // members: their own id only (checked by the server)
    title: '用户详情',
    input: z.object({ id: queryId }),
    output: userDetailSchema,
  }),
  'user.pageAdmin': endpoint({
    method: 'POST',
    path: '/user/page-admin',
    access: 'admin',
    title: '管理员列表',
    input: pageAdminInputSchema,
    output: pagedResult(userSchema),
  }),
  'user.pageNormal': endpoint({
    method: 'POST',
    path: '/user/page-normal',
    access: 'admin',
    title: '保种员列表',
    input: pageNormalInputSchema,
    output: pagedResult(userSchema),
  }),
  'user.pageSeed': endpoint({
    method: 'POST',
    path: '/user/page-seed',
    access: 'member', // a member's userId is forced to their own
    title: '做种记录',
    input: pageSeedInputSchema,
    output: pagedResult(seedRecordSchema),
  }),
  'torrent.page': endpoint({
    method: 'POST',
    path: '/torrent/page',
    access: 'admin',
    title: '种子列表',
    input: torrentPageInputSchema,
    output: pagedResult(torrentSchema),
  }),
  'statistics.all': endpoint({
    method: 'GET',
    path: '/statistics/all-seeding-sta',
    access: 'member',
    title: '全站做种统计',
    input: noInput,
    output: allSeedingStatsSchema,
  }),
  'statistics.refresh': endpoint({
    method: 'GET',
    path: '/statistics/refresh-index-statistics-cache',
    access: 'admin',
    title: '刷新统计',
    input: noInput,
    output: allSeedingStatsSchema,
  }),
  'statistics.user': endpoint({
    method: 'GET',
    path: '/statistics/user-seeding-sta',
    access: 'member', // members: their own userId only
    title: '个人做种统计',
    input: userSeedingStatsInputSchema,
    output: userSeedingStatsSchema,
  }),

  // ---- Admin actions ----
  'user.create': endpoint({
    method: 'POST',
    path: '/user/create',
    access: 'admin',
    title: '创建保种员',
    input: userCreateInputSchema,
    output: userSchema,
  }),
  'user.update': endpoint({
    method: 'POST',
    path: '/user/update',
    access: 'admin',
    title: '修改保种员',
    input: userUpdateInputSchema,
    output: userSchema,
  }),
  'user.setStatus': endpoint({
    method: 'POST',
    path: '/user/set-status',
    access: 'admin',
    title: '修改账号状态',
    input: userSetStatusInputSchema,
    output: userSchema,
  }),
  'user.resetPassword': endpoint({
    method: 'POST',
    path: '/user/reset-password',
    access: 'admin',
    title: '重置密码',
    input: userResetPasswordInputSchema,
    output: z.null(),
  }),
  'user.changePassword': endpoint({
    method: 'POST',
    path: '/user/change-password',
    access: 'member',
    title: '修改密码',
    input: changePasswordInputSchema,
    output: z.null(),
  }),
  // The seed's GET calls change state; the server also accepts them as POST with `{ userId }`.
  'config.addAdmin': endpoint({
    method: 'GET',
    path: '/config/add-admin',
    access: 'admin',
    title: '添加管理员',
    input: adminTargetInputSchema,
    output: userSchema,
  }),
  'config.delAdmin': endpoint({
    method: 'GET',
    path: '/config/del-admin',
    access: 'admin',
    title: '移除管理员',
    input: adminTargetInputSchema,
    output: userSchema,
  }),
  'config.rules': endpoint({
    method: 'GET',
    path: '/config/rules',
    access: 'admin',
    title: '官种规则',
    input: noInput,
    output: rulesSchema,
  }),
  'config.saveRules': endpoint({
    method: 'POST',
    path: '/config/rules',
    access: 'admin',
    title: '保存官种规则',
    input: ruleSaveSchema,
    output: rulesSchema,
  }),
  'torrent.setType': endpoint({
    method: 'POST',
    path: '/torrent/set-type',
    access: 'admin',
    title: '设置种子类型',
    input: z.strictObject({ ids: idList, seedType: seedTypeSchema.nullable() }),
    output: z.object({ updated: z.number().int().nonnegative() }),
  }),
  'task.assign': endpoint({
    method: 'POST',
    path: '/task/assign',
    access: 'admin',
    title: '分配任务',
    input: z.strictObject({ torrentIds: idList, userIds: z.array(bodyId).min(1).max(200) }),
    output: z.object({ created: z.number().int().nonnegative(), existed: z.number().int().nonnegative() }),
  }),
  'task.unassign': endpoint({
    method: 'POST',
    path: '/task/unassign',
    access: 'admin',
    title: '取消分配',
    input: z.strictObject({ torrentIds: idList, userIds: z.array(bodyId).min(1).max(200).optional() }),
    output: z.object({ removed: z.number().int().nonnegative() }),
  }),
  'task.assignees': endpoint({
    method: 'POST',
    path: '/task/assignees',
    access: 'admin',
    title: '种子的保种员',
    input: z.strictObject({ torrentIds: idList }),
    output: z.array(assigneeSchema),
  }),
  'task.members': endpoint({
    method: 'GET',
    path: '/task/members',
    access: 'admin',
    title: '可分配的保种员',
    input: noInput,
    output: z.array(keeperOptionSchema),
  }),
  'task.autoAssign': endpoint({
    method: 'POST',
    path: '/task/auto-assign',
    access: 'admin',
    title: '自动分配',
    input: z.strictObject({ preview: z.boolean(), perTorrent: z.number().int().min(1).max(20).optional() }),
    output: z.object({
      // The names the preview shows (the torrent's '' when the mirror lacks it). Optional: a server before 0.3.6 sends ids only.
      plan: z.array(z.object({ torrentId: bodyId, userId: bodyId, torrentName: z.string().optional(), username: z.string().optional() })),
      created: z.number().int().nonnegative(),
    }),
  }),
  'operationLog.page': endpoint({
    method: 'POST',
    path: '/operation-log/page',
    access: 'admin',
    title: '操作日志',
    input: operationLogPageInputSchema,
    output: pagedResult(operationLogSchema),
  }),

  // ---- Wages ----
  'wages.rank': endpoint({
    method: 'POST',
    path: '/wages/rank',
    access: 'member',
    title: '工资排行',
    input: pagedRequest(['rank'], { period: periodSchema.optional() }),
    output: pagedResult(wageRankEntrySchema),
  }),
  'wages.page': endpoint({
    method: 'POST',
    path: '/wages/page',
    access: 'member', // members: their own records only
    title: '工资记录',
    input: pagedRequest(sortableWageFields.wagesPage, {
      period: periodSchema.optional(),
      userId: bodyId.optional(),
      payment: z.literal([0, 1]).optional(),
    }),
    output: pagedResult(wageRecordSchema),
  }),
  'wages.detail': endpoint({
    method: 'GET',
    path: '/wages/{id}',
    access: 'member', // members: their own records only
    title: '工资明细',
    input: z.object({ id: queryId }),
    output: wageDetailSchema,
  }),
  'wages.preview': endpoint({
    method: 'POST',
    path: '/wages/preview',
    access: 'admin',
    title: '预览工资',
    // `userId`: include that member's per-torrent items (the breakdown drawer).
    input: z.strictObject({ period: periodSchema, userId: bodyId.optional() }),
    output: z.object({ ruleVersion: z.number().int().positive(), list: z.array(wagePreviewEntrySchema) }),
  }),
  'wages.compute': endpoint({
    method: 'POST',
    path: '/wages/compute',
    access: 'admin',
    title: '生成工资',
    input: z.strictObject({ period: periodSchema }),
    output: z.object({
      ruleVersion: z.number().int().positive(),
      saved: z.number().int().nonnegative(),
      keptPaid: z.number().int().nonnegative(),
    }),
  }),
  'wages.pay': endpoint({
    method: 'POST',
    path: '/wages/pay',
    access: 'admin',
    title: '标记已发放',
    input: z
      .strictObject({
        ids: idList,
        /** The amounts the admin saw, in the order of `ids`: a record generated anew since is not marked (409). */
        amounts: z.array(z.number().nonnegative().max(1e12)).max(1000).optional(),
      })
      .refine((b) => b.amounts === undefined || b.amounts.length === b.ids.length, {
        message: 'amounts 须与 ids 一一对应（数量相同）',
        path: ['amounts'],
      }),
    output: z.object({ paid: z.number().int().nonnegative(), alreadyPaid: z.number().int().nonnegative() }),
  }),
  'wages.stats': endpoint({
    method: 'GET',
    path: '/wages/stats',
    access: 'admin',
    title: '工资统计',
    input: z.object({ months: queryInt(z.number().int().min(1).max(60)).optional() }).optional(),
    output: wageStatsSchema,
  }),
  'wages.export': endpoint({
    method: 'GET',
    path: '/wages/export',
    access: 'admin',
    title: '导出工资',
    input: z.object({ period: periodSchema, format: z.enum(['xlsx', 'csv']) }),
    output: fileSaveResultSchema,
    download: true,
  }),
  // 发放到站点: wages credited to the members' bonus on the site, each record at most once
  'wages.payoutPreview': endpoint({
    method: 'POST',
    path: '/wages/payout/preview',
    access: 'admin',
    title: '预览发放到站点',
    input: payoutSelectionSchema,
    output: payoutPreviewSchema,
  }),
  'wages.payout': endpoint({
    method: 'POST',
    path: '/wages/payout',
    access: 'admin',
    title: '发放到站点',
    input: payoutSelectionSchema,
    output: payoutRunSchema,
  }),
  'wages.payoutResolve': endpoint({
    method: 'POST',
    path: '/wages/payout/resolve',
    access: 'admin',
    title: '处理待核对的发放',
    input: payoutResolveInputSchema,
    output: payoutResultSchema,
  }),
  'wages.payoutStatus': endpoint({
    method: 'POST',
    path: '/wages/payout/status',
    access: 'member', // members: their own records only
    title: '工资到账状态',
    input: payoutStatusInputSchema,
    output: z.array(payoutStatusEntrySchema),
  }),
  'wages.payoutDeliveries': endpoint({
    method: 'GET',
    path: '/wages/payout/deliveries',
    access: 'admin',
    title: '工资推送记录',
    input: noInput,
    output: webhookDeliveriesSchema,
  }),
  'sync.status': endpoint({
    method: 'GET',
    path: '/sync/status',
    access: 'admin',
    title: '同步状态',
    input: noInput,
    output: syncStatusSchema,
  }),
  'sync.run': endpoint({ method: 'POST', path: '/sync/run', access: 'admin', title: '立即同步', input: noBody, output: syncStatusSchema }),
  // The two lookups the admin forms need: a member's site user picked from the synced site users,
  // the rules' official teams and tags from the synced names.
  'site.users': endpoint({
    method: 'GET',
    path: '/site/users',
    access: 'admin',
    title: '站点用户',
    input: z.object({ keyword: z.string().trim().min(1).max(64) }),
    output: z.array(siteUserOptionSchema).max(20),
  }),
  'site.options': endpoint({
    method: 'GET',
    path: '/site/options',
    access: 'admin',
    title: '站点小组与标签',
    input: noInput,
    output: siteOptionsSchema,
  }),
} as const

export type Endpoints = typeof endpoints
export type EndpointName = keyof Endpoints
export type EndpointInput<N extends EndpointName> = z.input<Endpoints[N]['input']>
/** What the server works with: the input once its schema has parsed it (the domain's query types are this). */
export type ParsedInput<N extends EndpointName> = z.output<Endpoints[N]['input']>
/** What a call answers inside the app. The login's token stays in the main process: there it answers null. */
export type EndpointOutput<N extends EndpointName> = N extends 'user.login' ? null : z.output<Endpoints[N]['output']>

export const endpointNames = Object.keys(endpoints) as EndpointName[]

export function isEndpointName(name: unknown): name is EndpointName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(endpoints, name)
}

/** Fills `{name}` segments of a path from the input; returns the path and the remaining fields. */
export function fillPath(path: string, input: Record<string, unknown> | undefined): { path: string; rest: Record<string, unknown> } {
  const rest = { ...(input ?? {}) }
  const filled = path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = rest[key]
    delete rest[key]
    return encodeURIComponent(String(value))
  })
  return { path: filled, rest }
}

/** The envelope every answer is wrapped in. */
export interface Envelope<T> {
  code: number
  msg: string
  data: T
}

export const envelopeSchema = z.object({ code: z.number().int(), msg: z.string(), data: z.unknown() })

/** Header that carries the access token both ways. */
export const TOKEN_HEADER = 'Access-Token'
/**
 * Optional header of `user.login`, both ways: the answer to a right password carries a new device key,
 * and a later login of that user that sends it back is exempt from the account-wide lock (the server's
 * auth/device-keys.ts). Clients that do not know it lose nothing.
 */
export const DEVICE_KEY_HEADER = 'Device-Key'
/** A device key as the server issues it: 32 random bytes, base64url (43 characters). */
export const deviceKeyPattern = /^[A-Za-z0-9_-]{43}$/
export const API_PREFIX = '/api/v1'
