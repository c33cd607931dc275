/**
 * The member's monthly message when wages are paid into the site: a subject and a
 * body with {占位符}, part of the rules (`payoutMessageTemplate`; absent = the Chinese default).
 * Shared so the rules form previews exactly what the server will write.
 */
import { z } from './validation'

/** Every placeholder a template may use, with what it becomes (the rules form lists these). */
export const payoutPlaceholders = {
  用户名: '会员在控制台的用户名',
  月份: '工资月份，例如 2026-10',
  金额: '发放的魔力（站点保留一位小数）',
  魔力变化: '“，魔力 发放前 → 发放后”；发放前未知时为空',
  达标数: '达标种子个数',
  达标体积: '达标种子总体积，例如 1.50 TiB',
  未达标数: '未达标种子个数',
  未达标明细: '未达标种子的列表及原因（多行）；全部达标时为空',
  排名: '“第 3 名（共 20 人）”；没有排名时为“无”',
  舍入说明: '工资按一位小数舍入时的说明；未舍入时为空',
} as const
export type PayoutPlaceholder = keyof typeof payoutPlaceholders
export type PayoutTemplateValues = Record<PayoutPlaceholder, string>

export interface PayoutMessageTemplate {
  subject: string
  body: string
}

export const defaultPayoutMessageTemplate: PayoutMessageTemplate = {
  subject: '保种工资 {月份}：{金额} 魔力已发放',
  body: [
    '{用户名}，你好：',
    '',
    '你 {月份} 的保种工资 {金额} 魔力已发放到你的账户{魔力变化}。',
    '达标种子 {达标数} 个，共 {达标体积}。',
    '本月工资排名：{排名}。',
    '{舍入说明}',
    '',
    '{未达标明细}',
    '',
    '此消息由保种管理台自动发送。',
  ].join('\n'),
}

/** NexusPHP's messages.subject is varchar(128). */
export const PAYOUT_SUBJECT_MAX = 128
export const PAYOUT_BODY_MAX = 5000

const PLACEHOLDER = /\{([^{}\n]*)\}/g
const known = (name: string): name is PayoutPlaceholder => Object.hasOwn(payoutPlaceholders, name)

/** The first problem of a template text in Chinese (an unknown placeholder), or null. */
export function placeholderProblem(text: string): string | null {
  const unknown = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !known(name))
  if (!unknown.length) return null
  const list = Object.keys(payoutPlaceholders)
    .map((name) => `{${name}}`)
    .join('、')
  return `有未知的占位符 ${[...new Set(unknown)].map((name) => `{${name}}`).join('、')}；可用的占位符：${list}`
}

const templateText = (max: number) =>
  z
    .string()
    .max(max, { message: `不能超过 ${max} 个字符` })
    .refine((text) => text.trim() !== '', { message: '不能为空' })
    .superRefine((text, ctx) => {
      const problem = placeholderProblem(text)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })

export const payoutMessageTemplateSchema = z.object({
  subject: templateText(PAYOUT_SUBJECT_MAX),
  body: templateText(PAYOUT_BODY_MAX),
})

/**
 * Fills the placeholders. A line made only of placeholders that came out empty is dropped, and
 * blank lines do not pile up, so optional parts ({舍入说明}, {未达标明细}) leave no holes.
 */
export function renderPayoutTemplate(text: string, values: PayoutTemplateValues): string {
  const lines: string[] = []
  for (const line of text.split('\n')) {
    const filled = line.replace(PLACEHOLDER, (whole, name: string) => (known(name) ? values[name] : whole))
    const onlyPlaceholders = line.trim() !== '' && line.replace(PLACEHOLDER, '').trim() === ''
    if (onlyPlaceholders && filled.trim() === '') continue
    if (filled.trim() === '' && (lines.length === 0 || lines[lines.length - 1]!.trim() === '')) continue
    lines.push(filled)
  }
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop()
  return lines.join('\n')
}
