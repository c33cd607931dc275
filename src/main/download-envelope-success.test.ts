/**
 * Found by an outside tester (fixed since; the test keeps it so): for a download endpoint (wages.export) main treats a JSON answer as an envelope, and an envelope with
 * code 200 whose `data` happens to fit fileSaveResultSchema is handed to the renderer as the result of the save:
 * `{ saved: true, fileName: <server's text> }` — although no save dialog opened and no byte was written. A wrong
 * server, a proxy or anyone on a plain-http path can make the admin believe the wage export is on disk. Only main's
 * own save may produce the download result; a success envelope on a download endpoint is a bad answer (502).
 */
import { describe, expect, it, vi } from 'vitest'
import { createApiClient } from './api-client'
import { memoryTokens } from './test/token-memory'

describe('a download endpoint answering a success envelope instead of the file', () => {
  it('does not report a file as saved when nothing was saved', async () => {
    const saveFile = vi.fn(async () => true)
    const fetchStub: typeof fetch = async () =>
      new Response(JSON.stringify({ code: 200, msg: '', data: { saved: true, fileName: '工资-2026-10.xlsx' } }), {
        headers: { 'Content-Type': 'application/json' },
      })
    const api = createApiClient({ baseUrl: () => 'http://server.test/api/v1', tokens: memoryTokens('t'), fetch: fetchStub, saveFile })

    const result = await api.call('wages.export', { period: '2026-10', format: 'xlsx' })

    expect(saveFile).not.toHaveBeenCalled()
    expect(result).toMatchObject({ ok: false, code: 502 })
  })
})
