/**
 * Found by an outside tester (fixed since; the test keeps it so): api-client.ts drops a stored token that cannot travel
 * as a header (storedToken), but the revoke path did not: on a server change, settings:set handed the raw stored token
 * to client.revoke(), fetch refused it with `Headers.append: "<token>" is an invalid header value.`, and revoke logged
 * that message — the token in main.log in clear (redactSecrets has no pattern for it; a line break in the token also
 * forged a log line). Such a token is what a store file of an older version, or one edited or damaged, holds. revoke
 * now sends nothing for such a token, as the call path does.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from './api-client'
import { createIpcHandlers } from './ipc/handlers'
import { redactSecrets } from './logging'
import { createSettingsStore, type Sealer } from './settings-store'
import { memoryBackend } from './test/memory-backend'

const plainSealer: Sealer = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' }

describe('switching servers with a stored token that is not a valid header value', () => {
  it('never writes the token to the log', async () => {
    const settings = createSettingsStore({
      backend: memoryBackend(),
      sealer: plainSealer,
      defaultServerAddress: 'http://old-server.test:8080',
    })
    // As an older version's (or a hand-edited) store file holds it: bound to the current server, but with a line break.
    settings.setToken('stored-secret-0123456789\nsecond-line')
    // main.log receives every line through the redaction hook.
    const mainLog: string[] = []
    const fetchStub: typeof fetch = async () =>
      new Response(JSON.stringify({ code: 200, msg: 'ok', data: null }), { headers: { 'Content-Type': 'application/json' } })
    const real = createApiClient({
      baseUrl: settings.apiBase,
      tokens: settings,
      fetch: fetchStub,
      log: (m) => mainLog.push(redactSecrets(m)),
    })
    const revokes: Promise<void>[] = []
    const client: ApiClient = { call: real.call, revoke: (base, token) => (revokes.push(real.revoke(base, token)), revokes.at(-1)!) }
    const handlers = createIpcHandlers({ client, settings })

    expect(await handlers['settings:set']({ serverAddress: 'http://new-server.test:8080' })).toMatchObject({ ok: true })
    await Promise.all(revokes) // the revocation, if any, has finished and logged what it logs

    expect(mainLog.join('\n')).not.toContain('stored-secret-0123456789')
  })
})
