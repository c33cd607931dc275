/**
 * Found by an outside tester (fixed since; the test keeps it so): every paged endpoint accepts `keyword: z.unknown()` (src/shared/paging.ts), and main forwards it to the
 * server unchanged. A renderer can therefore make main send megabytes, or text with NUL characters nested deeper
 * than parseWith's walk (depth 32, src/shared/validation.ts), to the server — the "no call to the server with bad
 * data" rule of the IPC boundary does not hold for this one field. The contract says the renderer drops `keyword`
 * and no handler reads it: main should drop it (or bound it) before sending.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { createIpcHandlers } from './ipc/handlers'
import type { SettingsStore } from './settings-store'
import { memoryTokens } from './test/token-memory'

function setup() {
  const bodies: string[] = []
  const fetchStub: typeof fetch = async (input) => {
    const request = input as Request
    bodies.push(await request.clone().text())
    return new Response(JSON.stringify({ code: 200, msg: '', data: { list: [], total: 0 } }), {
      headers: { 'Content-Type': 'application/json' },
    })
  }
  const client = createApiClient({ baseUrl: () => 'http://server.test/api/v1', tokens: memoryTokens('session-token'), fetch: fetchStub })
  const handlers = createIpcHandlers({ client, settings: {} as SettingsStore })
  return { bodies, call: handlers['api:call'] }
}

/** Refused in Chinese without a request, or sent without the bad field: either way the bad data never leaves main. */
function expectKeptFromServer(
  result: Awaited<ReturnType<ReturnType<typeof setup>['call']>>,
  bodies: string[],
  bad: (body: string) => boolean,
) {
  if (bodies.length === 0) {
    expect(result).toMatchObject({ ok: false, code: 400 })
    if (!result.ok) expect(result.msg).toMatch(/[\u4e00-\u9fff]/)
  } else {
    for (const body of bodies) expect(bad(body)).toBe(false)
  }
}

describe('the `keyword` of paged calls at the IPC boundary', () => {
  it('a renderer cannot make main send a 5 MB keyword to the server', async () => {
    const { bodies, call } = setup()
    const result = await call({ endpoint: 'user.pageAdmin', input: { page: 1, pageSize: 10, keyword: 'x'.repeat(5_000_000) } })
    expectKeptFromServer(result, bodies, (body) => body.length > 100_000)
  })

  it('a NUL character nested deeper than the payload walk never reaches the server', async () => {
    const { bodies, call } = setup()
    let keyword: unknown = 'a\u0000b'
    for (let i = 0; i < 40; i++) keyword = [keyword]
    const result = await call({ endpoint: 'user.pageSeed', input: { page: 1, pageSize: 10, keyword } })
    expectKeptFromServer(result, bodies, (body) => body.includes('\\u0000'))
  })

  it('a lone surrogate nested deeper than the payload walk never reaches the server', async () => {
    const { bodies, call } = setup()
    let keyword: unknown = { q: 'a\ud800b' }
    for (let i = 0; i < 40; i++) keyword = { k: keyword }
    const result = await call({ endpoint: 'torrent.page', input: { page: 1, pageSize: 10, keyword } })
    expectKeptFromServer(result, bodies, (body) => body.includes('\\ud800'))
  })
})
