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
    expect(parseWith(loginInputSchema, { username: ' admin ', password: ' p ' })).toEqual({
      ok: true,
      data: { username: 'admin', password: ' p ' },
    })
  })

  it('falls back to the path for fields without a label', () => {
    const error = z.object({ nested: z.object({ weird: z.number() }) }).safeParse({ nested: { weird: 'x' } }).error!
    expect(formatZodError(error)).toMatch(/^nested\.weird：/)
  })
})

describe('text the databases cannot hold, and messages without English', () => {
  it('refuses a NUL character anywhere in the input, naming the field', () => {
    expect(parseWith(loginInputSchema, { username: 'ad\u0000min', password: 'p' })).toEqual({ ok: false, msg: '用户名：不能包含空字符' })
    const nested = z.object({ filter: z.object({ torrentName: z.string() }) })
    expect(parseWith(nested, { filter: { torrentName: 'x\u0000' } })).toEqual({ ok: false, msg: '种子名称：不能包含空字符' })
    expect(parseWith(z.array(z.string()), ['ok', '\u0000'])).toEqual({ ok: false, msg: '1：不能包含空字符' })
    expect(parseWith(z.record(z.string(), z.number()), { ['k\u0000']: 1 })).toMatchObject({ ok: false })
  })

  it('says sizes and types in Chinese (no `期望 array >=1 项`)', () => {
    const cases: [z.ZodType, unknown, string][] = [
      [z.object({ ids: z.array(z.number()).min(1) }), { ids: [] }, '编号列表：至少 1 项'],
      [z.object({ ids: z.array(z.number()).max(2) }), { ids: [1, 2, 3] }, '编号列表：最多 2 项'],
      [z.object({ name: z.string().max(2) }), { name: 'abc' }, '名称：最多 2 个字符'],
      [z.object({ id: z.number().int().positive() }), { id: 0 }, '编号：必须大于 0'],
      [z.object({ id: z.number().max(5) }), { id: 9 }, '编号：不能大于 5'],
      [z.object({ id: z.number().int() }), { id: 1.5 }, '编号：应为整数'],
      [z.object({ ids: z.array(z.number()) }), { ids: 'x' }, '编号列表：应为列表'],
      [z.object({ mode: z.enum(['a', 'b']) }), { mode: 'c' }, '结算方式：应为以下之一：a、b'],
      [z.object({ mode: z.literal(1) }), { mode: 2 }, '结算方式：应为以下之一：1'],
      [z.strictObject({ id: z.number() }), { id: 1, extra: 1, more: 2 }, '请求：不支持的字段：extra、more'],
    ]
    for (const [schema, value, msg] of cases) {
      const result = parseWith(schema, value)
      expect(result).toEqual({ ok: false, msg })
      // Values the caller sent or may send stay as they are; zod's own English words do not appear.
      if (!result.ok) expect(result.msg).not.toMatch(/\b(array|string|number|int|set|key|expected)\b/)
    }
  })
})
