/**
 * Enumerations of the product with their wire values and Chinese labels (one label per value everywhere).
 * The numbers are the wire values of the original console; never renumber them.
 */

export const SeedStatus = {
  Waiting: 1,
  Downloading: 2,
  Seeding: 3,
  SeedingUnclaimed: 4,
  NoWage: 5,
  Uploader: 6,
  Stopped: 7,
  Incomplete: 8,
} as const
export type SeedStatus = (typeof SeedStatus)[keyof typeof SeedStatus]
export const seedStatusValues = [1, 2, 3, 4, 5, 6, 7, 8] as const satisfies readonly SeedStatus[]
export const seedStatusLabels: Record<SeedStatus, string> = {
  1: '未下载',
  2: '下载中',
  3: '做种中',
  4: '做种中（未认领）',
  5: '无工资',
  6: '发布者',
  7: '已停止',
  8: '下载未完成',
}
/** antd Tag colours: fixed so a glance at a table tells the story. */
export const seedStatusColors: Record<SeedStatus, string> = {
  1: 'default',
  2: 'blue',
  3: 'green',
  4: 'lime',
  5: 'red',
  6: 'purple',
  7: 'orange',
  8: 'gold',
}

export const SeedType = { Official: 1, Unofficial: 2 } as const
export type SeedType = (typeof SeedType)[keyof typeof SeedType]
export const seedTypeLabels: Record<SeedType, string> = { 1: '官种', 2: '非官种' }

export const ClaimState = { Unclaimed: 1, Claimed: 2 } as const
export type ClaimState = (typeof ClaimState)[keyof typeof ClaimState]
export const claimStateLabels: Record<ClaimState, string> = { 1: '未认领', 2: '已认领' }

export const AccountStatus = { Banned: 0, Deleted: 1, Normal: 2 } as const
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus]
export const accountStatusLabels: Record<AccountStatus, string> = { 0: '封禁', 1: '已删除', 2: '正常' }
/** An account that is not 正常, as the suffix of its name calls it (「alice（已删除）」). */
export const inactiveAccountNames: Partial<Record<AccountStatus, string>> = { 0: '已封禁', 1: '已删除' }

export const WagePayment = { Unpaid: 0, Paid: 1 } as const
export type WagePayment = (typeof WagePayment)[keyof typeof WagePayment]
export const wagePaymentLabels: Record<WagePayment, string> = { 0: '未发放', 1: '已发放' }

export const AssignmentLabel = { Assigned: 1, Unassigned: 2 } as const
export type AssignmentLabel = (typeof AssignmentLabel)[keyof typeof AssignmentLabel]
export const assignmentLabels: Record<AssignmentLabel, string> = { 1: '已分配', 2: '未分配' }

export const CompletionLabel = {
  OfficialComplete: 1,
  OfficialIncomplete: 2,
  UnofficialComplete: 3,
  UnofficialIncomplete: 4,
} as const
export type CompletionLabel = (typeof CompletionLabel)[keyof typeof CompletionLabel]
export const completionLabels: Record<CompletionLabel, string> = {
  1: '官种已完成',
  2: '官种未完成',
  3: '非官种已完成',
  4: '非官种未完成',
}

export const roleValues = ['admin', 'normal'] as const
export type Role = (typeof roleValues)[number]
export const roleLabels: Record<Role, string> = { admin: '管理员', normal: '保种员' }

export const navThemeValues = ['realDark', 'light'] as const
export type NavTheme = (typeof navThemeValues)[number]
export const defaultNavTheme: NavTheme = 'realDark'

/**
 * Operation-log actions (`area.verb`, stable identifiers stored in the log) and their Chinese
 * labels for the 操作日志 page and its filter. A closed list: the server records only these
 * (recordOperation takes an OperationActionName), so a new action is added here, label included.
 */
export const operationActionLabels = {
  'user.login': '登录',
  'user.logout': '退出登录',
  'user.create-initial-admin': '创建初始管理员',
  'user.create': '创建保种员',
  'user.update': '修改保种员',
  'user.set-status': '修改账号状态',
  'user.reset-password': '重置密码',
  'user.change-password': '修改密码',
  'config.add-admin': '添加管理员',
  'config.del-admin': '移除管理员',
  'config.rules': '修改官种规则',
  'torrent.set-type': '设置种子类型',
  'task.assign': '分配任务',
  'task.unassign': '取消分配',
  'task.auto-assign': '自动分配',
  'wages.compute': '生成工资',
  'wages.pay': '标记已发放',
  'wages.payout': '发放到站点',
  'wages.payout-resolve': '处理待核对发放',
  'sync.run': '手动同步',
} as const satisfies Record<string, string>
export type OperationActionName = keyof typeof operationActionLabels
export const operationActionNames = Object.keys(operationActionLabels) as [OperationActionName, ...OperationActionName[]]

/** Where the site data comes from (the server's SOURCE; `SyncStatus.source`). */
export const sourceKindLabels = { nexusphp: 'NexusPHP 数据库', ingest: '推送接入', demo: '演示数据' } as const satisfies Record<
  string,
  string
>

/**
 * The console's own steps of a sync, after the source's reading (`SyncStatus.progress.table` names
 * a mirror table while the source reads, then one of these): what the 数据同步 page says is running.
 */
export const syncStepLabels = {
  'derive:torrents': '计算种子标签',
  'derive:records': '计算做种状态',
  'derive:keepers': '统计保种人数',
  'derive:counts': '汇总做种数据',
  snapshot: '记录每日快照',
  stats: '刷新统计',
} as const satisfies Record<string, string>

/** Mirror tables a sync writes (`SyncStatus.rows` keys), in the order the 数据同步 page lists them. */
export const siteTableLabels = {
  site_users: '站点用户',
  site_teams: '小组',
  site_tags: '标签',
  site_categories: '分类',
  site_torrents: '种子',
  site_torrent_tags: '种子标签',
  site_peers: '做种连接',
  site_snatched: '完成记录',
  site_claims: '认领',
} as const satisfies Record<string, string>
