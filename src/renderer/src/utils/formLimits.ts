/**
 * Form limits read from the contract's zod schemas, so a form allows what the server accepts and
 * a changed limit reaches the form without being copied by hand.
 */
import type { FormRule } from 'antd'
import { BLANK_PASSWORD_MESSAGE, endpoints, newPasswordSchema, userCreateInputSchema, usernameSchema } from '@shared/endpoints'
import { ruleBodySchema, type RuleBody } from '@shared/entities'
import { z } from '@shared/validation'

/** The step of a decimal bound the schema leaves out (the rank factors' message). */
const STEP = 0.01

const lengths = (schema: z.ZodString) => ({ min: schema.minLength ?? undefined, max: schema.maxLength ?? undefined })

/** `{ min, max }` of a Form.Item length rule. */
export const usernameLength = lengths(usernameSchema)
export const passwordLength = lengths(newPasswordSchema)
/** A new password of spaces only is refused (as the server does), with its Chinese message. */
export const passwordNotBlank: FormRule = {
  validator: async (_rule, value: unknown) => {
    if (typeof value === 'string' && value !== '' && !/\S/.test(value)) throw new Error(`密码${BLANK_PASSWORD_MESSAGE}`)
  },
}
export const remarkMaxLength = userCreateInputSchema.shape.remark.unwrap().maxLength ?? undefined

/**
 * A Form.Item rule refusing the numbers the contract's schema refuses, with its Chinese message
 * (`不能小于 0`, `必须大于 0`): the server's own check, so the form and POST agree on every bound,
 * `positive()` included. An empty box is left to `required` (or is allowed, for an optional field).
 */
export function numberRule(schema: z.ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === null || value === undefined) return
      const result = schema.safeParse(value)
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '数值超出范围')
    },
  }
}

/** The range rule of a rule field's number box (`n0`: 不能小于 2). */
export const ruleNumberRule = (name: keyof RuleBody): FormRule => numberRule(ruleBodySchema.shape[name])

/** A number's bounds; a bound the schema leaves out (`positive()`) moves in by one step. */
function bounds(schema: z.ZodNumber): { min?: number; max?: number } {
  const { minValue: min, maxValue: max } = schema
  return {
    min: min === null ? undefined : schema.safeParse(min).success ? min : min + STEP,
    max: max === null ? undefined : schema.safeParse(max).success ? max : max - STEP,
  }
}

/** Each of the 排名系数 (keeperRankFactors). */
export const rankFactorBounds = bounds(ruleBodySchema.shape.keeperRankFactors.element) as { min: number; max: number }

/** The largest site uid, and the longest keyword of a site-user search. */
export const siteUidMax = userCreateInputSchema.shape.siteUid.unwrap().unwrap().maxValue as number
export const siteUserKeywordMax = endpoints['site.users'].input.shape.keyword.maxLength as number

/** A text filter of a list call (trimmed, then at most this long): the most its search box takes. */
const filterMax = (filter: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodType>>) => filter.unwrap().in.maxLength as number

/** A whole-number filter's range; a bound the schema leaves out (`positive()`) moves in by one. */
function integerRange(schema: z.ZodNumber): { min: number; max: number } {
  const { minValue: min, maxValue: max } = schema as { minValue: number; maxValue: number }
  return { min: schema.safeParse(min).success ? min : min + 1, max: schema.safeParse(max).success ? max : max - 1 }
}

const pageNormalFilters = endpoints['user.pageNormal'].input.shape
const torrentPageFilters = endpoints['torrent.page'].input.shape

/** The limits of the list searches (DataTable's search form), per call and filter. */
export const searchLimits = {
  memberName: filterMax(pageNormalFilters.username),
  memberSiteUid: integerRange(pageNormalFilters.siteUid.unwrap()),
  recordTorrentName: filterMax(endpoints['user.pageSeed'].input.shape.torrentName),
  torrentName: filterMax(torrentPageFilters.name),
  torrentTeam: filterMax(torrentPageFilters.team),
}
