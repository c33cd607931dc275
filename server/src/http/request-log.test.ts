/**
 * Request logging (request-log.ts): at LOG_LEVEL=info a successful call writes nothing, a failed or
 * slow one a single line; ACCESS_LOG=1 writes one line per call, and never the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { loadConfig } from '../config'
import { registerRoutes } from '../routes'
import { buildTestApp, openTestDatabases, type TestDatabase } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe('request log', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await openTestDatabases()[0].open()
  })
  afterAll(async () => {
    await db?.cleanup()
  })

  /** An app whose log lines are collected; a route `/api/v1/test-fail` answers 500. */
  async function appWith(
    env: Record<string, string>,
    slowRequestMs?: number,
  ): Promise<{ app: FastifyInstance; lines: Record<string, unknown>[] }> {
    const lines: Record<string, unknown>[] = []
    const app = await buildTestApp({
      database: db.database,
      config: loadConfig({ DATA_DIR: db.dataDir, ...env }),
      adminPassword: ADMIN_PASSWORD,
      slowRequestMs,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
      routes: (app) => {
        registerRoutes(app)
        app.get(`${API_PREFIX}/test-fail`, async () => {
          throw new Error('boom')
        })
      },
    })
    return { app, lines }
  }

  async function login(app: FastifyInstance): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: `${API_PREFIX}/user/login`,
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    })
    return (res.json() as { data: string }).data
  }

  it('writes nothing for successful calls at info, one line for a failed one', async () => {
    const { app, lines } = await appWith({ LOG_LEVEL: 'info' })
    try {
      const token = await login(app)
      lines.length = 0
      for (let i = 0; i < 5; i++)
        expect(
          (await app.inject({ method: 'GET', url: `${API_PREFIX}/user/login-info`, headers: { [TOKEN_HEADER]: token } })).statusCode,
        ).toBe(200)
      expect((await app.inject({ method: 'GET', url: `${API_PREFIX}/health` })).statusCode).toBe(200)
      expect(lines).toEqual([])

      expect((await app.inject({ method: 'GET', url: `${API_PREFIX}/test-fail` })).statusCode).toBe(500)
      expect(lines.map((l) => l.msg)).toEqual(['request failed', 'request answered with a server error'])
      expect(lines[1]).toMatchObject({ method: 'GET', url: `${API_PREFIX}/test-fail`, status: 500 })
    } finally {
      await app.close()
    }
  })

  it('logs slow calls', async () => {
    const { app, lines } = await appWith({ LOG_LEVEL: 'info' }, 0)
    try {
      expect((await app.inject({ method: 'GET', url: `${API_PREFIX}/health` })).statusCode).toBe(200)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({ msg: 'slow request', method: 'GET', url: `${API_PREFIX}/health`, status: 200 })
    } finally {
      await app.close()
    }
  })

  it('ACCESS_LOG=1: one line per call, without the token', async () => {
    const { app, lines } = await appWith({ LOG_LEVEL: 'info', ACCESS_LOG: '1' })
    try {
      const token = await login(app)
      lines.length = 0
      await app.inject({ method: 'GET', url: `${API_PREFIX}/user/login-info`, headers: { [TOKEN_HEADER]: token } })
      await app.inject({ method: 'GET', url: `${API_PREFIX}/user/login-info` })
      expect(lines.map((l) => [l.msg, l.status])).toEqual([
        ['request', 200],
        ['request', 401],
      ])
      expect(JSON.stringify(lines)).not.toContain(token)
    } finally {
      await app.close()
    }
  })

  it('refuses an ACCESS_LOG that is not 0 or 1, naming it', () => {
    expect(loadConfig({}).accessLog).toBe(false)
    expect(loadConfig({ ACCESS_LOG: '1' }).accessLog).toBe(true)
    expect(() => loadConfig({ ACCESS_LOG: 'yes' })).toThrow(/ACCESS_LOG/)
  })
})
