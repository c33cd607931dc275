/**
 * Found by an outside tester (fixed since; the test keeps it so): the stored token is not tied to the server that issued it. settings-store.ts forgets it only when the
 * address is changed through setSettings; when the address in effect changes any other way — the build default
 * (MAIN_VITE_API_BASE) differs after an update and the user never saved an address, or the stored address is no
 * longer valid and getSettings falls back to the default — the next call carries the old server's Access-Token to
 * the new address. The token should be stored with the API base (or origin) it was issued for, and dropped (never
 * sent) when the address in effect differs.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { createSettingsStore, type Sealer } from './settings-store'
import { memoryBackend } from './test/memory-backend'

const plainSealer: Sealer = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' }

/** What the next authenticated call sends, and where. */
async function nextCall(settings: ReturnType<typeof createSettingsStore>) {
  const sent: { url: string; token: string | null }[] = []
  const fetchStub: typeof fetch = async (input) => {
    const request = input as Request
    sent.push({ url: request.url, token: request.headers.get('Access-Token') })
    return new Response(JSON.stringify({ code: 401, msg: '请先登录', data: null }), {
      status: 401,
      headers: { 'Content-Type': 'application/json' },
    })
  }
  const api = createApiClient({ baseUrl: settings.apiBase, tokens: settings, fetch: fetchStub })
  await api.call('user.loginInfo')
  return sent
}

describe('the token belongs to the server that issued it', () => {
  it('is not sent to a new build-default server after an update', async () => {
    const backend = memoryBackend()
    // Version 1 (default server A): the user logs in without ever editing the address.
    const before = createSettingsStore({ backend, sealer: plainSealer, defaultServerAddress: 'http://old-server.test:8080' })
    before.setToken('token-issued-by-old-server')
    // Version 2 ships another default address.
    const after = createSettingsStore({ backend, sealer: plainSealer, defaultServerAddress: 'http://new-server.test:8080' })
    expect(after.apiBase()).toBe('http://new-server.test:8080/api/v1')

    const sent = await nextCall(after)
    expect(sent.filter((request) => request.token === 'token-issued-by-old-server')).toEqual([])
  })

  it('is not sent to the default server when the stored address falls back', async () => {
    const backend = memoryBackend()
    const settings = createSettingsStore({ backend, sealer: plainSealer, defaultServerAddress: 'http://default.test:8080' })
    expect(settings.setSettings({ serverAddress: 'https://team-server.test/' })).toMatchObject({ ok: true })
    settings.setToken('token-issued-by-team-server')
    // The file is edited or damaged: the address no longer validates, getSettings falls back to the build default.
    backend.set('serverAddress', 'ftp://team-server.test/')
    expect(settings.apiBase()).toBe('http://default.test:8080/api/v1')

    const sent = await nextCall(settings)
    expect(sent.filter((request) => request.token === 'token-issued-by-team-server')).toEqual([])
  })
})
