import { describe, expect, it } from 'vitest'
import { endpointNames, endpoints } from '@shared/endpoints'
import type { FastifyInstance } from 'fastify'
import { checksOutputByDefault } from '../app'
import { registerEndpoint, routeUrl } from './endpoint'
import { JsonText } from './envelope'
import { registerRoutes } from '../routes'
import { openTestDatabases, useTestApp } from '../test/harness'

describe('routeUrl', () => {
  it('prefixes the API base and turns {name} into :name', () => {
    expect(routeUrl('/health')).toBe('/api/v1/health')
    expect(routeUrl('/user/{id}')).toBe('/api/v1/user/:id')
    expect(routeUrl('/wages/{id}/items/{itemId}')).toBe('/api/v1/wages/:id/items/:itemId')
  })
})

describe('registered routes', () => {
  const [sqlite] = openTestDatabases()
  const t = useTestApp(sqlite, { routes: registerRoutes })

  it('serve every endpoint of the contract that the server implements', () => {
    for (const name of endpointNames) {
      const { method, path } = endpoints[name]
      expect(t.app.hasRoute({ method, url: routeUrl(path) }), `${name}: ${method} ${path}`).toBe(true)
    }
  })
})

describe("checking the server's own answers", () => {
  const [sqlite] = openTestDatabases()
  // health answering a shape its contract does not allow.
  const wrongHealth = (app: FastifyInstance) => registerEndpoint(app, 'health', () => ({ status: 'fine' }) as never)
  const checked = useTestApp(sqlite, { routes: wrongHealth, checkOutput: undefined })
  const unchecked = useTestApp(sqlite, { routes: wrongHealth, checkOutput: false })

  it('is on in tests and development, off otherwise (a deployed server)', () => {
    expect(checksOutputByDefault({ NODE_ENV: 'test' })).toBe(true)
    expect(checksOutputByDefault({ NODE_ENV: 'development' })).toBe(true)
    expect(checksOutputByDefault({ NODE_ENV: 'production' })).toBe(false)
    expect(checksOutputByDefault({})).toBe(false)
  })

  it('refuses an answer that does not match the contract when on (the default under vitest)', async () => {
    expect(checked.app.services.checkOutput).toBe(true)
    expect((await checked.call('GET', '/health')).status).toBe(500)
    expect((await unchecked.call('GET', '/health')).status).toBe(200)
  })
})

describe('an answer given as JSON text', () => {
  const [sqlite] = openTestDatabases()
  const t = useTestApp(sqlite, {
    routes: (app) => registerEndpoint(app, 'health', () => new JsonText('{"status":"ok","db":"ok","version":"9.9.9"}')),
  })
  const bad = useTestApp(sqlite, { routes: (app) => registerEndpoint(app, 'health', () => new JsonText('{"status":"fine"}')) })

  it('is sent inside the envelope as JSON, and checked against the contract like any answer', async () => {
    const res = await t.call('GET', '/health')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).toEqual({ code: 200, msg: 'ok', data: { status: 'ok', db: 'ok', version: '9.9.9' } })
    expect((await bad.call('GET', '/health')).status).toBe(500)
  })
})
