/**
 * POST /config/rules: a new rule version, logged with what changed, then a full re-labelling
 * (derive() sees the new version and judges every torrent and record).
 */
import type { AuthUser } from '../auth/sessions'
import { fieldLabels } from '@shared/validation'
import { ruleBodyAsStored, wageModeLabels, type WageMode } from '@shared/entities'
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { AdminLock, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { conflict } from '../errors'
import type { RuleSave } from '@shared/entities'
import { currentRules, saveRules, type RuleBody, type Rules } from './rules'

type Ctx = RequestContext<AuthUser>

const MAX_DETAIL = 4000

function show(value: unknown, key?: keyof RuleBody): string {
  if (key === 'mode') return wageModeLabels[(value ?? 'team') as WageMode] ?? String(value)
  if (key === 'payoutMessageTemplate') return value ? `自定义（标题「${(value as { subject: string }).subject}」）` : '默认'
  if (key === 'settleClaims') return value ? '开启' : '关闭'
  if (value === undefined) return '默认'
  if (Array.isArray(value)) return value.length ? value.join('、') : '空'
  return String(value)
}

/** `目标保种人数：3 → 4；官方制作组：空 → CedarHD` (field order of the body). */
export function describeRuleChange(before: RuleBody, after: RuleBody): string {
  const changes: string[] = []
  // Both sides' keys: an optional field removed (back to its default) is a change too.
  for (const key of [...new Set([...Object.keys(after), ...Object.keys(before)])] as (keyof RuleBody)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue
    changes.push(`${fieldLabels[key] ?? key}：${show(before[key], key)} → ${show(after[key], key)}`)
  }
  return changes.length ? changes.join('；') : NO_CHANGE
}

const NO_CHANGE = '无变化'

/**
 * Saving the rules as they are (a double-click, a second tab, 保存 pressed again) answers the current
 * version: no new version, no log row, and no full re-labelling pass.
 */
export async function changeRules(ctx: Ctx, { baseVersion, ...body }: RuleSave): Promise<Rules> {
  let changed = true
  const saved = await ctx.db.transaction().execute(async (trx) => {
    await lockFor(trx, ctx.services.database.dialect, AdminLock.rules)
    const before = await currentRules(trx)
    const { version: _v, ...beforeBody } = before
    // Compared as stored: a default spelt out (mode 本站规则, 结算认领 off, the deduction 600) is no change, on either side.
    const change = describeRuleChange(ruleBodyAsStored(beforeBody), ruleBodyAsStored(body))
    if (change === NO_CHANGE) {
      changed = false
      return before
    }
    if (baseVersion !== undefined && baseVersion !== before.version)
      throw conflict(
        `官种规则在你编辑期间已被其他管理员保存为 v${before.version}（你的修改基于 v${baseVersion}），为免覆盖对方的修改，本次没有保存：请记下你的修改，点「撤销修改」载入 v${before.version} 后再改`,
      )
    const next = await saveRules(trx, body, ctx.now, ctx.user.id)
    let detail = `版本 ${before.version} → ${next.version}：${change}`
    if (detail.length > MAX_DETAIL) detail = `${detail.slice(0, MAX_DETAIL - 1)}…`
    await recordOperation(
      trx,
      { operator: ctx.user, action: OperationAction.SaveRules, targetType: 'rules', targetId: next.version, detail, ip: ctx.ip },
      ctx.now,
    )
    return next
  })
  if (changed) await relabel(ctx.services, ctx.now, ctx.log)
  return saved
}
