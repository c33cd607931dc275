import { describe, expect, it } from 'vitest'
import { endpoints, loginInputSchema } from './endpoints'
import { apiCallRequestSchema, settingsPatchSchema, settingsSchema } from './ipc'
import { fieldLabels, formatZodError, parseWith, z } from './validation'

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

/**
 * Every field name a validation message can name (endpoint inputs, the settings and IPC payloads): the list is
 * walked from the schemas themselves, so a new field without a Chinese label fails here rather than showing
 * its internal key to a user.
 */
function objectKeys(schema: z.ZodType, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return []
  seen.add(schema)
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def
  const walk = (inner: unknown) => (inner ? objectKeys(inner as z.ZodType, seen) : [])
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>
      return [...Object.keys(shape), ...Object.values(shape).flatMap((field) => walk(field))]
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return walk(def.innerType)
    case 'pipe':
      return [...walk(def.in), ...walk(def.out)]
    case 'array':
      return walk(def.element)
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => walk(option))
    case 'intersection':
      return [...walk(def.left), ...walk(def.right)]
    case 'lazy':
      return walk((def.getter as () => z.ZodType)())
    default:
      return []
  }
}

describe('Chinese labels for every field a message can name', () => {
  it('labels each field of the endpoint inputs and of the settings and IPC payloads', () => {
    const schemas: [string, z.ZodType][] = [
      ...Object.entries(endpoints).map(([name, endpoint]): [string, z.ZodType] => [name, endpoint.input]),
      ['settings', settingsSchema],
      ['settingsPatch', settingsPatchSchema],
      ['apiCall', apiCallRequestSchema],
    ]
    const missing = schemas.flatMap(([name, schema]) =>
      objectKeys(schema)
        .filter((key) => !Object.hasOwn(fieldLabels, key))
        .map((key) => `${name}.${key}`),
    )
    expect(missing).toEqual([])
    // The walk does reach nested and optional fields (a broken walk would pass with nothing found).
    expect(objectKeys(settingsPatchSchema)).toContain('updateUrl')
    expect(objectKeys(endpoints['config.saveRules'].input)).toEqual(expect.arrayContaining(['subject', 'body', 'baseVersion']))
  })

  it('names a refused update address 更新服务器地址, not updateUrl', () => {
    const result = parseWith(settingsPatchSchema, { updateUrl: 'http://updates.example.com/console/' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.msg).toMatch(/^更新服务器地址：请输入 https:\/\//)
  })

  it('labels are Chinese text', () => {
    for (const [key, label] of Object.entries(fieldLabels)) expect(label, key).toMatch(/[\u4e00-\u9fff]/)
  })
})
