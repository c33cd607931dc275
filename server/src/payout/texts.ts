/**
 * What the site's rows say (Chinese): the bonus log comment (NexusPHP's varchar(255)) and the
 * member's message (the rules' template). Both carry the ledger key in brackets, which is how a
 * retry finds them.
 */
import type { WageFacts, PayoutWage } from './wages'
import {
  defaultPayoutMessageTemplate,
  PAYOUT_SUBJECT_MAX,
  renderPayoutTemplate,
  type PayoutMessageTemplate,
  type PayoutTemplateValues,
} from '@shared/payout-template'
import { formatTenths } from './tenths'

export interface PayoutTexts {
  comment: string
  subject: string
  message: string
}

/** Unqualified torrents listed in a message; the rest are counted. */
const LISTED_UNQUALIFIED = 20

export const keyTag = (key: string) => `[${key}]`

/** What the credit's line in users.bonuscomment says before the bonus figures (nexusphp-rows.ts changeBonusOnce). */
export const creditLabel = (wage: Pick<PayoutWage, 'id' | 'period'>, credit: bigint) =>
  `保种工资 ${wage.period}（工资记录 #${wage.id}）+${formatTenths(credit)}`

/** Characters beyond U+FFFF (emoji) as the '?' a utf8mb3 column stores for them on a non-strict server. */
export const bmpOnly = (text: string) => text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')

function size(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(unit === 0 ? 0 : 2)} ${units[unit]}`
}

/** "工资 123.456，按站点魔力一位小数记为 123.5" when rounding changes the amount. */
export function roundingNote(amount: number, credit: bigint): string | null {
  const exact = String(Math.round(amount * 1e6) / 1e6)
  return Number(exact) === Number(formatTenths(credit)) ? null : `${exact} → ${formatTenths(credit)}`
}

/**
 * NexusPHP's messages.msg is TEXT (65,535 bytes). A template of 5,000 characters that repeats a long placeholder (the
 * unqualified list) renders past it: a strict site refuses the message — nobody paid until the template changes, or on
 * MyISAM an entry left unfinished after its credit — and a lax one cuts it, key and all.
 */
const MESSAGE_BODY_MAX_BYTES = 60_000
const CUT_NOTE = '\n……（内容过长，以下从略）'

/** `text` within `max` UTF-8 bytes, cut at a character and marked as cut. */
export function cutToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text
  const room = max - Buffer.byteLength(CUT_NOTE)
  let bytes = 0
  let end = 0
  for (const char of text) {
    bytes += Buffer.byteLength(char)
    if (bytes > room) break
    end += char.length
  }
  return text.slice(0, end) + CUT_NOTE
}

/** The placeholders' values for one member (the message of the rules' template). */
export function templateValues(
  wage: PayoutWage,
  facts: WageFacts,
  args: { credit: bigint; before: bigint | null; after: bigint | null },
): PayoutTemplateValues {
  const qualified = facts.items.filter((i) => i.qualified)
  const unqualified = facts.items.filter((i) => !i.qualified)
  const rounding = roundingNote(wage.amount, args.credit)
  const listed = unqualified.slice(0, LISTED_UNQUALIFIED).map((item) => `- ${item.torrentName}：${item.reason ?? '未达标'}`)
  if (unqualified.length > LISTED_UNQUALIFIED)
    listed.push(`- ……另有 ${unqualified.length - LISTED_UNQUALIFIED} 个，详见保种管理台「我的工资」`)
  return {
    用户名: wage.username,
    月份: wage.period,
    金额: formatTenths(args.credit),
    魔力变化: args.before !== null && args.after !== null ? `，魔力 ${formatTenths(args.before)} → ${formatTenths(args.after)}` : '',
    达标数: String(qualified.length),
    达标体积: size(qualified.reduce((sum, i) => sum + i.size, 0)),
    未达标数: String(unqualified.length),
    未达标明细: unqualified.length ? [`未达标的种子（${unqualified.length} 个，不计工资）：`, ...listed].join('\n') : '',
    排名: facts.rank === null ? '无' : `第 ${facts.rank} 名（共 ${facts.rankOf} 人）`,
    舍入说明: rounding ? `（工资按站点魔力保留一位小数：${rounding}）` : '',
  }
}

/**
 * The log comment (fixed: a retry reads the bonus before/after back from it) and the message of
 * the rules' template (absent: the Chinese default). The message always ends with the ledger key.
 */
export function payoutTexts(
  wage: PayoutWage,
  facts: WageFacts,
  args: { key: string; credit: bigint; before: bigint | null; after: bigint | null; note?: string },
  template: PayoutMessageTemplate = defaultPayoutMessageTemplate,
): PayoutTexts {
  const values = templateValues(wage, facts, args)
  const comment = `保种工资 ${wage.period}（工资记录 #${wage.id}${values.魔力变化}）${keyTag(args.key)}`
  const subject = renderPayoutTemplate(template.subject, values).replace(/\s+/g, ' ').trim()
  // What the template renders is cut, never the claim settlement's note (a deduction taken is always told).
  const note = args.note ? `\n\n${args.note}` : ''
  const body = cutToBytes(renderPayoutTemplate(template.body, values), MESSAGE_BODY_MAX_BYTES - Buffer.byteLength(note))
  const message = `${body}${note}\n${keyTag(args.key)}`
  return {
    comment: comment.length > 255 ? `保种工资 ${wage.period} #${wage.id} ${keyTag(args.key)}` : comment,
    subject: [...subject].slice(0, PAYOUT_SUBJECT_MAX).join(''),
    message,
  }
}
