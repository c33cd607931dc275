/**
 * Found by an outside tester (fixed since; the test keeps it so): api-client.ts call() ended the local session of
 * `user.logout` BEFORE the payload was validated (send() validates). A logout payload the contract refuses (`null`,
 * `{ allDevices: true }`: noBody is a strict empty object) was answered 400 — with the token already deleted and no
 * request sent: the session stayed alive on the server (7 days idle, api.md) and nobody could end it any more.
 * product.md: "Logout revokes the token on the server and clears it locally". A refused payload now has no effect.
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { createIpcHandlers } from './ipc/handlers'
import type { SettingsStore } from './settings-store'
import { memoryTokens } from './test/token-memory'

describe('退出登录 with a payload the contract refuses', () => {
  it.each([[null], [{ allDevices: true }], ['now']])(
    '%j does not leave a live session on the server that the app forgot',
    async (input) => {
      const seen: string[] = []
      const fetchStub: typeof fetch = async (request) => {
        seen.push(`${(request as Request).url} ${(request as Request).headers.get('Access-Token')}`)
        return new Response(JSON.stringify({ code: 200, msg: 'ok', data: null }), { headers: { 'Content-Type': 'application/json' } })
      }
      const tokens = memoryTokens('live-session-token')
      const client = createApiClient({ baseUrl: () => 'http://server.test/api/v1', tokens, fetch: fetchStub })
      const handlers = createIpcHandlers({ client, settings: {} as SettingsStore })

      const result = await handlers['api:call']({ endpoint: 'user.logout', input })

      const revokedOnServer = seen.includes('http://server.test/api/v1/user/logout live-session-token')
      // Either nothing happened (refused, session kept) or the logout happened in full (ended on the server too).
      if (!result.ok) expect({ token: tokens.token, revokedOnServer }).toEqual({ token: 'live-session-token', revokedOnServer: false })
      else expect({ token: tokens.token, revokedOnServer }).toEqual({ token: null, revokedOnServer: true })
    },
  )
})
