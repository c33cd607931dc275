import { describe, expect, it } from 'vitest'
import {
  passwordLength,
  passwordNotBlank,
  rankFactorBounds,
  remarkMaxLength,
  ruleNumberRule,
  searchLimits,
  siteUidMax,
  siteUserKeywordMax,
  usernameLength,
} from './formLimits'

describe('form limits from the contract', () => {
  it('reads the length limits of the member forms', () => {
    expect(usernameLength).toEqual({ min: 2, max: 32 })
    expect(passwordLength).toEqual({ min: 8, max: 128 })
    expect(remarkMaxLength).toBe(500)
    expect(siteUidMax).toBe(2_147_483_647)
    expect(siteUserKeywordMax).toBe(64)
  })

  it('refuses a new password of spaces only (as the server does), and nothing else', async () => {
    const check = (value: unknown) =>
      (passwordNotBlank as { validator: (rule: unknown, value: unknown) => Promise<void> }).validator({}, value).then(
        () => 'ok',
        (error: Error) => error.message,
      )
    expect(await check(' '.repeat(8))).toBe('密码不能只包含空格')
    expect(await check('\u3000'.repeat(8))).toBe('密码不能只包含空格') // full-width spaces too
    expect(await check(' pass word ')).toBe('ok')
    expect(await check('')).toBe('ok') // left to required
    expect(await check(undefined)).toBe('ok')
  })

  it('refuses what the rules contract refuses, with its message; an empty box is left to required', async () => {
    const check = (name: Parameters<typeof ruleNumberRule>[0], value: unknown) =>
      (ruleNumberRule(name) as { validator: (rule: unknown, value: unknown) => Promise<void> }).validator({}, value).then(
        () => 'ok',
        (error: Error) => error.message,
      )
    expect(await check('multiplier', -2)).toBe('不能小于 0')
    expect(await check('multiplier', 0)).toBe('ok')
    expect(await check('multiplier', 1001)).toBe('不能大于 1000')
    expect(await check('n0', 1.5)).toBe('不能小于 2')
    expect(await check('n0', 2)).toBe('ok')
    expect(await check('t0Weeks', 0)).toBe('必须大于 0') // positive()
    expect(await check('targetKeepers', 0)).toBe('不能小于 1')
    expect(await check('targetKeepers', null)).toBe('ok')
    expect(await check('claimRemoveDeduction', undefined)).toBe('ok') // optional
    expect(rankFactorBounds).toEqual({ min: 0, max: 100 })
  })

  it('reads the limits of the list searches', () => {
    expect(searchLimits).toEqual({
      memberName: 64,
      memberSiteUid: { min: 1, max: 2_147_483_647 }, // positive()
      recordTorrentName: 200,
      torrentName: 200,
      torrentTeam: 100,
    })
  })
})
