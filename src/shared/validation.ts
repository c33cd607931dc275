/**
 * Runtime validation shared by server, main and renderer: zod with Chinese messages, and one
 * formatter that turns a failed parse into a message naming the field and the rule.
 */
import { z } from 'zod'

const REQUIRED = '__required__'

z.config(z.locales.zhCN())
z.config({
  // A missing value reads better as "请输入用户名" than as a type mismatch with `undefined`.
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED : chineseMessage(issue)),
})

/** zod's zh-CN locale leaves type names in English (`期望 array >=1 项`); these read as Chinese. */
const typeNames: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '布尔值',
  array: '列表',
  set: '列表',
  object: '对象',
  date: '日期',
  null: '空值',
}

type Issue = Parameters<NonNullable<NonNullable<Parameters<typeof z.config>[0]>['customError']>>[0]

function chineseMessage(issue: Issue): string | undefined {
  if (issue.code === 'invalid_type') return typeNames[issue.expected] ? `应为${typeNames[issue.expected]}` : undefined
  if (issue.code === 'unrecognized_keys') return `不支持的字段：${issue.keys.join('、')}`
  if (issue.code === 'invalid_value') return `应为以下之一：${issue.values.map(String).join('、')}`
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return undefined
  const small = issue.code === 'too_small'
  const limit = String(small ? issue.minimum : issue.maximum)
  switch (issue.origin) {
    case 'string':
      return small ? `至少 ${limit} 个字符` : `最多 ${limit} 个字符`
    case 'array':
    case 'set':
      return small ? `至少 ${limit} 项` : `最多 ${limit} 项`
    case 'number':
    case 'int':
    case 'bigint':
      if (small) return issue.inclusive ? `不能小于 ${limit}` : `必须大于 ${limit}`
      return issue.inclusive ? `不能大于 ${limit}` : `必须小于 ${limit}`
    case 'date':
      return small ? '日期太早' : '日期太晚'
    default:
      return undefined
  }
}

/** Chinese names of the fields that appear in payloads; the formatter falls back to the path. */
export const fieldLabels: Record<string, string> = {
  username: '用户名',
  password: '密码',
  oldPassword: '原密码',
  newPassword: '新密码',
  id: '编号',
  ids: '编号列表',
  amounts: '看到的金额',
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
  updateUrl: '更新服务器地址',
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
  mode: '结算方式',
  t0Weeks: '种子年龄参数 T0（周）',
  n0: '做种人数参数 N0',
  b0: '基础魔力 B0',
  l: '参数 L',
  perSeeding: '每个种子加成',
  maxSeeding: '加成种子数上限',
  multiplier: '倍率',
  timezone: '时区',
  payoutMessageTemplate: '站内信模板',
  subject: '站内信标题',
  body: '站内信正文',
  settleClaims: '发放时结算认领',
  claimRemoveDeduction: '移除未达标认领扣除魔力',
  baseVersion: '规则版本',
  wageId: '工资记录',
  input: '参数',
}

export function fieldLabel(path: readonly PropertyKey[]): string {
  const named = [...path].reverse().find((p) => typeof p === 'string') as string | undefined
  // Own labels only: a key the caller chose (`constructor`, `__proto__`, `toString`) must not name
  // what Object.prototype holds under it.
  if (named && Object.hasOwn(fieldLabels, named)) return fieldLabels[named]
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

export const NUL_MESSAGE = '不能包含空字符'

/**
 * The path of the first string holding a NUL character, or null. No text of ours may hold one:
 * PostgreSQL refuses it in text and SQLite's full-text search chokes on it.
 */
export function findNul(value: unknown): PropertyKey[] | null {
  return findText(value, (text) => text.includes('\u0000'), true)
}

export const LONE_SURROGATE_MESSAGE = '不能包含无效的 Unicode 字符（不成对的代理项）'

/** A UTF-16 surrogate without its other half (JSON's "\ud800"): no character, and UTF-8 cannot hold it. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * The path of the first string value holding a lone surrogate, or null. Neither database can store
 * one: each writes U+FFFD instead (SQLite three of them, PostgreSQL one), so what was sent is not what
 * is kept, and sending the same text again counts as a change every time.
 */
export function findLoneSurrogate(value: unknown): PropertyKey[] | null {
  return findText(value, (text) => loneSurrogate.test(text), false)
}

function findText(
  value: unknown,
  bad: (text: string) => boolean,
  keys: boolean,
  path: PropertyKey[] = [],
  depth = 0,
): PropertyKey[] | null {
  if (typeof value === 'string') return bad(value) ? path : null
  if (value === null || typeof value !== 'object' || depth > 32) return null
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (keys && typeof key === 'string' && bad(key)) return [...path, key]
    const found = findText(item, bad, keys, [...path, key], depth + 1)
    if (found) return found
  }
  return null
}

/** `safeParse` with the Chinese formatter applied; refuses NUL and lone surrogates in any string of the value. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const nul = findNul(value)
  if (nul) return { ok: false, msg: `${fieldLabel(nul)}：${NUL_MESSAGE}` }
  const lone = findLoneSurrogate(value)
  if (lone) return { ok: false, msg: `${fieldLabel(lone)}：${LONE_SURROGATE_MESSAGE}` }
  const result = schema.safeParse(value)
  return result.success ? { ok: true, data: result.data } : { ok: false, msg: formatZodError(result.error) }
}

export { z }
