/**
 * The fields of the official-torrent rules form: Chinese label (the contract's) and help text.
 * The number boxes' ranges come from the contract too (utils/formLimits `ruleNumberRule`).
 */
import type { RuleBody } from '@shared/entities'
import { fieldLabels } from '@shared/validation'

export type RuleField = keyof RuleBody

export interface RuleFieldSpec {
  name: RuleField
  kind: 'tags' | 'number' | 'integer' | 'factors' | 'text' | 'mode'
  help: string
  /** Unit shown after a number box. */
  unit?: string
  /** A warning (not a refusal) when the number is 0: allowed by the contract, but rarely what is meant. */
  zeroWarning?: string
}

export interface RuleGroup {
  title: string
  fields: RuleFieldSpec[]
}

export const ruleGroups: RuleGroup[] = [
  {
    title: '官种判定',
    fields: [
      {
        name: 'officialTeams',
        kind: 'tags',
        help: '发布制作组在此列表中的种子算作官种；从站点已同步的制作组中选择，或输入组名后按回车添加，可添加多个。',
      },
      {
        name: 'officialTags',
        kind: 'tags',
        help: '带有这些站点标签之一的种子也算作官种（与制作组任一满足即可）；从站点已同步的标签中选择，或输入后按回车添加。',
      },
      { name: 'minSizeGiB', kind: 'number', unit: 'GiB', help: '体积小于此值的种子不算官种，也不计工资；0 表示不限。' },
      {
        name: 'targetKeepers',
        kind: 'integer',
        unit: '人',
        help: '每个官种希望有多少位保种员在做种；做种的保种员达到此人数才算「官种已完成」，自动分配也按此补足。',
      },
      { name: 'activeWindowMinutes', kind: 'integer', unit: '分钟', help: '做种者最近一次汇报在此分钟数内才算在做种；超过即视为已停止。' },
    ],
  },
  {
    title: '工资达标条件',
    fields: [
      {
        name: 'mode',
        kind: 'mode',
        help: '本站规则：认领或分配的官种计工资，按保种顺位系数区分先后。NexusPHP 认领结算：只计认领的种子（官种与否都算），与 NexusPHP 自带的每月认领结算一致；选择后下面的参数恢复为 NexusPHP 的默认值。',
      },
      { name: 'standardSeedHours', kind: 'number', unit: '小时', help: '当月做种时长达到此值的官种算达标（与上传倍数任一满足即可）。' },
      { name: 'standardUploadedTimes', kind: 'number', unit: '倍', help: '当月上传量达到种子体积的此倍数也算达标。' },
      { name: 'minQualifiedCount', kind: 'integer', unit: '个', help: '当月达标官种少于此数的保种员工资为 0，其记录显示「无工资」。' },
      { name: 'minQualifiedSizeGiB', kind: 'number', unit: 'GiB', help: '当月达标官种总体积低于此值的保种员工资为 0；0 表示不限。' },
      {
        name: 'keeperRankFactors',
        kind: 'factors',
        help: '按认领先后排序的保种顺位系数：第 1 位乘第一个数，第 2 位乘第二个数……超出列表的沿用最后一个。输入数字后按回车添加。',
      },
    ],
  },
  {
    title: '工资公式参数',
    fields: [
      {
        name: 't0Weeks',
        kind: 'number',
        unit: '周',
        help: '种子年龄参数：发布越久的种子价值越接近满值，T0 越大增长越慢（NexusPHP 默认 4）。',
      },
      { name: 'n0', kind: 'number', help: '做种人数参数：做种人越少加成越高，N0 决定加成随人数衰减的快慢（不能小于 2，默认 7）。' },
      { name: 'b0', kind: 'number', unit: '魔力/小时', help: '基础魔力：每小时魔力的上限部分，随总价值 A 增长逐渐接近此值（默认 100）。' },
      { name: 'l', kind: 'number', help: '总价值参数 L：总价值 A 达到 L 时约得到一半的基础魔力（默认 300）。' },
      { name: 'perSeeding', kind: 'number', unit: '魔力/小时', help: '每个达标官种额外加的每小时魔力。' },
      { name: 'maxSeeding', kind: 'integer', unit: '个', help: '计入「每个种子加成」的达标官种数上限。' },
      {
        name: 'multiplier',
        kind: 'number',
        unit: '倍',
        help: '最终工资的倍率：工资 = 倍率 × 每小时魔力 × 平均做种时长。',
        zeroWarning: '倍率为 0 时所有保种员的工资都是 0',
      },
      { name: 'timezone', kind: 'text', help: '按此时区划分自然月，例如 Asia/Shanghai。' },
    ],
  },
]

export const ruleLabel = (name: RuleField): string => fieldLabels[name] ?? name
