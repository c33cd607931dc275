import { describe, expect, it } from 'vitest'
import { endpointNames, endpoints, fillPath, isEndpointName } from './endpoints'
import { apiCallRequestSchema, normalizeServerAddress, settingsPatchSchema } from './ipc'
import { orderBySchema, pagedRequest } from './paging'
import { z } from './validation'

describe('endpoint list', () => {
  it('has a unique method + path per entry, all under a leading slash', () => {
    const keys = endpointNames.map((name) => `${endpoints[name].method} ${endpoints[name].path}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const name of endpointNames) expect(endpoints[name].path.startsWith('/')).toBe(true)
  })

  it('keeps the seed calls at their original method and path', () => {
    expect(endpoints['user.login']).toMatchObject({ method: 'POST', path: '/user/login', access: 'public' })
    expect(endpoints['user.loginInfo']).toMatchObject({ method: 'GET', path: '/user/login-info', access: 'member' })
  })

  it('recognises only its own names (no prototype keys)', () => {
    expect(isEndpointName('health')).toBe(true)
    expect(isEndpointName('constructor')).toBe(false)
    expect(isEndpointName('__proto__')).toBe(false)
    expect(isEndpointName(undefined)).toBe(false)
  })

  it('fills path parameters and leaves the rest', () => {
    expect(fillPath('/user/{id}', { id: 5, extra: 1 })).toEqual({ path: '/user/5', rest: { extra: 1 } })
    expect(fillPath('/x/{id}', { id: '../a b' }).path).toBe('/x/..%2Fa%20b')
  })
})

describe('IPC payloads', () => {
  it('accept only contract endpoints', () => {
    expect(apiCallRequestSchema.safeParse({ endpoint: 'health' }).success).toBe(true)
    expect(apiCallRequestSchema.safeParse({ endpoint: 'admin.dropDatabase' }).success).toBe(false)
    expect(apiCallRequestSchema.safeParse({ endpoint: 'toString' }).success).toBe(false)
    expect(apiCallRequestSchema.safeParse(null).success).toBe(false)
  })

  it('accept only known settings keys', () => {
    expect(settingsPatchSchema.safeParse({ navTheme: 'light' }).success).toBe(true)
    expect(settingsPatchSchema.safeParse({ token: 'x' }).success).toBe(false)
  })

  it('normalise server addresses to the API base', () => {
    expect(normalizeServerAddress('http://h:8080')).toBe('http://h:8080/api/v1')
    expect(normalizeServerAddress('http://h:8080/api/v1/')).toBe('http://h:8080/api/v1')
    expect(normalizeServerAddress('https://pt.example/console')).toBe('https://pt.example/console/api/v1')
  })
})

describe('paged requests', () => {
  const schema = pagedRequest(['uploaded', 'size'], { status: z.number().int().optional() })

  it('accept whitelisted sort fields in either direction', () => {
    expect(schema.safeParse({ page: 1, pageSize: 20, orderBy: 'uploaded DESC' }).success).toBe(true)
    expect(schema.safeParse({ page: 1, pageSize: 20, orderBy: 'size ASC', status: 3 }).success).toBe(true)
    expect(schema.safeParse({ page: 1, pageSize: 20 }).success).toBe(true)
  })

  it.each(['password DESC', 'uploaded', 'uploaded DOWN', 'uploaded DESC; drop table users', ''])('refuse orderBy %j', (orderBy) => {
    expect(schema.safeParse({ page: 1, pageSize: 20, orderBy }).success).toBe(false)
  })

  it('bound page and pageSize', () => {
    expect(schema.safeParse({ page: 0, pageSize: 20 }).success).toBe(false)
    expect(schema.safeParse({ page: 1, pageSize: 201 }).success).toBe(false)
    expect(schema.safeParse({ page: 1.5, pageSize: 20 }).success).toBe(false)
  })

  it('refuse a misspelt filter, naming it, instead of answering every row', () => {
    const result = schema.safeParse({ page: 1, pageSize: 20, stauts: 3 })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('不支持的字段：stauts')
    // Every paged call of the contract is strict.
    let checked = 0
    for (const name of endpointNames) {
      const input = endpoints[name].input as z.ZodType
      const paged = input instanceof z.ZodObject && 'page' in input.shape && 'pageSize' in input.shape
      if (!paged) continue
      checked++
      expect(input.safeParse({ page: 1, pageSize: 20, stauts: 3 }).success, name).toBe(false)
    }
    expect(checked).toBeGreaterThanOrEqual(7)
  })

  it("accept the seed clients' keyword and leave it to no filter", () => {
    expect(schema.safeParse({ page: 1, pageSize: 20, keyword: 'anything' }).success).toBe(true)
  })

  it('explain a refused sort in Chinese', () => {
    const result = orderBySchema(['uploaded']).safeParse('name ASC')
    expect(result.error?.issues[0]?.message).toContain('只能按 uploaded 排序')
  })
})

describe('admin and wage inputs', () => {
  it('accept usernames of letters, digits and _.- (Chinese included) and refuse the rest', async () => {
    const { usernameSchema } = await import('./endpoints')
    for (const name of ['admin', '种子守护者', 'seed_keeper.01', 'a-b']) expect(usernameSchema.safeParse(name).success).toBe(true)
    for (const name of ['a', 'has space', 'x'.repeat(33), '<script>', 'semi;colon'])
      expect(usernameSchema.safeParse(name).success).toBe(false)
  })

  it('refuse empty and oversized id lists', () => {
    const input = endpoints['torrent.setType'].input
    expect(input.safeParse({ ids: [1, 2], seedType: null }).success).toBe(true)
    expect(input.safeParse({ ids: [], seedType: 1 }).success).toBe(false)
    expect(input.safeParse({ ids: Array.from({ length: 10_000 }, (_, i) => i + 1), seedType: 1 }).success).toBe(false)
  })

  it('take months as YYYY-MM', () => {
    const input = endpoints['wages.compute'].input
    expect(input.safeParse({ period: '2026-10' }).success).toBe(true)
    for (const period of ['2026-13', '2026-1', '26-10', '2026-10-01']) expect(input.safeParse({ period }).success).toBe(false)
  })

  it('mark only the export as a download', () => {
    expect(endpointNames.filter((name) => (endpoints[name] as { download?: true }).download)).toEqual(['wages.export'])
  })
})
