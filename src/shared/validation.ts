/**
 * Runtime validation shared by server, main and renderer: zod with Chinese messages, and one
 * formatter that turns a failed parse into a message naming the field and the rule.
 */
import { z } from 'zod'

const REQUIRED = '__required__'

z.config(z.locales.zhCN())
z.config({
  // A missing value reads better as "请输入用户名" than as a type mismatch with `undefined`.
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED : undefined),
})

/** Chinese names of the fields that appear in payloads; the formatter falls back to the path. */
export const fieldLabels: Record<string, string> = {
  username: '用户名',
  password: '密码',
  oldPassword: '原密码',
  newPassword: '新密码',
  id: '编号',
  ids: '编号列表',
  userId: '用户',
  userIds: '用户列表',
  torrentId: '种子',
  torrentIds: '种子列表',
  siteUid: '站点 UID',
  remark: '备注',
  status: '状态',
  page: '页码',
  pageSize: '每页条数',
  orderBy: '排序',
  period: '月份',
  serverAddress: '服务器地址',
  navTheme: '主题',
  endpoint: '接口',
  seedType: '种子类型',
  claimState: '认领状态',
  assigned: '分配状态',
  completion: '完成状态',
  torrentName: '种子名称',
  keyword: '关键字',
  name: '名称',
  team: '制作组',
  days: '天数',
  preview: '预览',
  perTorrent: '每个种子的保种人数',
  seedTypeOverride: '种子类型',
  operatorId: '操作人',
  action: '操作',
  from: '开始时间',
  to: '结束时间',
  payment: '发放状态',
  format: '格式',
  months: '月数',
  officialTeams: '官方制作组',
  officialTags: '官方标签',
  minSizeGiB: '最小体积（GiB）',
  targetKeepers: '目标保种人数',
  activeWindowMinutes: '活跃判定窗口（分钟）',
  standardSeedHours: '达标做种时长（小时）',
  standardUploadedTimes: '达标上传倍数',
  minQualifiedCount: '最少达标种子数',
  minQualifiedSizeGiB: '最少达标体积（GiB）',
  keeperRankFactors: '保种顺位系数',
  t0Weeks: '种子年龄参数 T0（周）',
  n0: '做种人数参数 N0',
  b0: '基础魔力 B0',
  l: '参数 L',
  perSeeding: '每个种子加成',
  maxSeeding: '加成种子数上限',
  multiplier: '倍率',
  timezone: '时区',
  input: '参数',
}

export function fieldLabel(path: readonly PropertyKey[]): string {
  const named = [...path].reverse().find((p) => typeof p === 'string') as string | undefined
  if (named && fieldLabels[named]) return fieldLabels[named]
  return path.length ? path.map(String).join('.') : '请求'
}

/** One Chinese sentence for the first problem of a failed parse, e.g. `请输入用户名` or `用户名：太大…`. */
export function formatZodError(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return '参数不正确'
  const label = fieldLabel(issue.path)
  if (issue.message === REQUIRED) return `请输入${label}`
  return `${label}：${issue.message}`
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; msg: string }

/** `safeParse` with the Chinese formatter applied. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(value)
  return result.success ? { ok: true, data: result.data } : { ok: false, msg: formatZodError(result.error) }
}

export { z }
