import { describe, expect, it } from 'vitest'
import { loginInputSchema } from './endpoints'
import { formatZodError, parseWith, z } from './validation'

describe('Chinese validation messages', () => {
  it('names a missing field as 请输入<label>', () => {
    expect(parseWith(loginInputSchema, { username: 'admin' })).toEqual({ ok: false, msg: '请输入密码' })
    expect(parseWith(loginInputSchema, {})).toEqual({ ok: false, msg: '请输入用户名' })
  })

  it('names the field and the rule for a wrong value', () => {
    const result = parseWith(loginInputSchema, { username: 'x'.repeat(10_000), password: 'p' })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.msg.startsWith('用户名：')).toBe(true)
      expect(result.msg).toMatch(/64/)
      expect(result.msg).toMatch(/[\u4e00-\u9fff]/)
    }
  })

  it('reports a wrong type in Chinese', () => {
    const result = parseWith(loginInputSchema, { username: 12, password: 'p' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.msg).toMatch(/^用户名：.*[\u4e00-\u9fff]/)
  })

  it('trims the username and keeps the password as typed', () => {
    expect(parseWith(loginInputSchema, { username: ' admin ', password: ' p ' })).toEqual({ ok: true, data: { username: 'admin', password: ' p ' } })
  })

  it('falls back to the path for fields without a label', () => {
    const error = z.object({ nested: z.object({ weird: z.number() }) }).safeParse({ nested: { weird: 'x' } }).error!
    expect(formatZodError(error)).toMatch(/^nested\.weird：/)
  })
})
