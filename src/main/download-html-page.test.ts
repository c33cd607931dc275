/**
 * Found by an outside tester (fixed since; the test keeps it so): for the wage export (a download endpoint) main took
 * ANY 2xx answer that was not `application/json` as the file. A captive portal, a proxy's login or error page, or a
 * wrong server answering `200 text/html` was written to disk as `download.xlsx` and the renderer told `{ saved: true }`:
 * the admin believed the month's wages exported. A web page is now refused with a Chinese message, nothing saved.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { memoryTokens } from './test/token-memory'

function clientAnswering(status: number, body: string, headers: Record<string, string>) {
  const saved: { name: string; bytes: number }[] = []
  const fetchStub: typeof fetch = async () => new Response(body, { status, headers })
  const api = createApiClient({
    baseUrl: () => 'http://server.test/api/v1',
    tokens: memoryTokens('session-token'),
    fetch: fetchStub,
    saveFile: async (name, bytes) => {
      saved.push({ name, bytes: bytes.byteLength })
      return true
    },
  })
  return { api, saved }
}

describe('the wage export answered by a web page instead of the file', () => {
  it('does not save a proxy login page as 工资.xlsx and report it saved', async () => {
    const page = '<!doctype html><html><head><title>Proxy login</title></head><body>Please sign in</body></html>'
    const { api, saved } = clientAnswering(200, page, { 'Content-Type': 'text/html; charset=utf-8' })

    const result = await api.call('wages.export', { period: '2026-10', format: 'xlsx' })

    expect(saved).toEqual([]) // nothing written to the user's disk
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.msg).toMatch(/[\u4e00-\u9fff]/)
  })
})
