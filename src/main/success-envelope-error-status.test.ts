/**
 * Found by an outside tester (fixed since; the test keeps it so): an answer with an error HTTP status (a 500 from a
 * proxy or a server that crashed half-way) whose body is a success envelope was taken as a success: the console showed
 * 「保存成功」 for a write the server never confirmed. A success is a 2xx answer carrying code 200; anything else is a
 * bad answer (502) and the console says so.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { memoryTokens } from './test/token-memory'

describe('a success envelope on an error status', () => {
  it('is a bad answer, not a success', async () => {
    const fetchStub: typeof fetch = async () =>
      new Response(JSON.stringify({ code: 200, msg: 'ok', data: { paid: 1, alreadyPaid: 0 } }), {
        status: 500,
        headers: { 'Content-Type': 'application/json' },
      })
    const api = createApiClient({ baseUrl: () => 'http://server.test/api/v1', tokens: memoryTokens('t'), fetch: fetchStub })

    const result = await api.call('wages.pay', { ids: [1] })

    expect(result).toMatchObject({ ok: false, code: 502 })
  })
})
