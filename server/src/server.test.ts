import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { startServer } from './server'
import { testScrypt } from './test/harness'

const data = async (res: Response) => ((await res.json()) as { data: Record<string, unknown> | string }).data as never

describe('startServer', () => {
  it('listens on a free port, serves over HTTP, logs no secrets, and closes', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    // With the access log: a line per request, none of which may hold a secret.
    const server = await startServer({
      port: 0,
      adminPassword: 'Http-pass-1',
      scrypt: testScrypt,
      logger: { level: 'trace', stream },
      env: { ACCESS_LOG: '1' },
    })
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.apiBase).toBe(`${server.url}/api/v1`)
      expect(server.port).toBeGreaterThan(0)

      const health = await fetch(`${server.apiBase}/health`)
      expect(health.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await data(health)).toMatchObject({ status: 'ok' })

      const login = await fetch(`${server.apiBase}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Http-pass-1' }),
      })
      const token = login.headers.get('access-token')!
      expect(await data(login)).toBe(token)

      const info = await fetch(`${server.apiBase}/user/login-info`, { headers: { 'Access-Token': token } })
      expect(await data(info)).toMatchObject({ username: 'admin' })

      const log = lines.join('')
      expect(log).toContain('"url":"/api/v1/user/login"')
      expect(log).toContain('"url":"/api/v1/user/login-info"')
      expect(log).not.toContain(token)
      expect(log).not.toContain('Http-pass-1')
    } finally {
      await server.close()
      await server.close()
    }
    await expect(fetch(`${server.apiBase}/health`)).rejects.toThrow()
  })

  it('refuses a bad configuration before listening', async () => {
    await expect(startServer({ env: { SOURCE: 'nowhere' } })).rejects.toThrow(/SOURCE/)
  })
})
