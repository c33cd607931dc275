import { describe, expect, it } from 'vitest'
import { API_PREFIX } from '@shared/endpoints'
import { messages } from '@shared/messages'
import { registerEndpoint } from './http/endpoint'
import { AppError } from './errors'
import { buildTestApp, openTestDatabases, useTestApp } from './test/harness'

describe.each(openTestDatabases())('app on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1' })

  it('answers GET /health with the product version', async () => {
    const res = await t.call('GET', '/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: 200, msg: 'ok', data: { status: 'ok', db: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) } })
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('answers unknown routes and methods with a 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', `${API_PREFIX}/nope`],
      ['POST', `${API_PREFIX}/health`],
      ['GET', '/'],
    ] as const) {
      const res = await t.app.inject({ method, url })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ code: 404, msg: messages.endpointNotFound, data: null })
    }
  })

  it('refuses a body that is not JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/user/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=b',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe(400)
  })

  it('answers 500 with a generic message when the database is gone', async () => {
    const extra = await backend.open()
    const app = await buildTestApp({ database: extra.database, config: extra.config })
    try {
      await extra.database.close()
      const res = await app.inject({ method: 'GET', url: `${API_PREFIX}/health` })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toMatchObject({ code: 500, data: null })
    } finally {
      await app.close()
      await extra.cleanup()
    }
  })
})

describe('errors and the contract', () => {
  const [sqlite] = openTestDatabases()
  const t = useTestApp(sqlite, {
    routes(app) {
      // Answers that break the contract must not reach clients: `health` here returns a wrong shape.
      registerEndpoint(app, 'health', () => ({ status: 'broken' }) as never)
      registerEndpoint(app, 'user.login', () => {
        throw new AppError(409, '冲突了')
      })
      registerEndpoint(app, 'user.loginInfo', () => {
        throw new Error('never reached without a token')
      })
      app.get(`${API_PREFIX}/boom`, async () => {
        throw new Error('secret internal detail at /srv/db')
      })
    },
  })

  it('hides internal errors behind a generic 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/boom` })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ code: 500, msg: messages.serverError, data: null })
    expect(res.body).not.toContain('secret')
    expect(res.body).not.toContain('at ')
  })

  it('turns an answer that breaks the output schema into a 500', async () => {
    const res = await t.call('GET', '/health')
    expect(res.status).toBe(500)
    expect(res.body.msg).toBe(messages.serverError)
  })

  it('answers domain errors with their own code and message', async () => {
    const res = await t.call('POST', '/user/login', { body: { username: 'a', password: 'b' } })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 409, msg: '冲突了', data: null })
  })

  it('checks access before running a handler', async () => {
    const res = await t.call('GET', '/user/login-info')
    expect(res.status).toBe(401)
  })
})
