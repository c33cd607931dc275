import { describe, expect, it } from 'vitest'
import { endpointNames, endpoints } from '@shared/endpoints'
import { routeUrl } from './endpoint'
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
