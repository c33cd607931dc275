/**
 * Found by an outside tester (fixed since; the test keeps it so): when an answer does not match the contract,
 * api-client.ts logs why, naming the field by its path — which, inside a record (`SyncStatus.rows`), is the server's own
 * key, written into main.log as it came: line breaks and all, and of any length up to the 32 MB answer limit. A wrong or
 * hostile server could forge whole lines of main.log and, with one key of a few MB, push everything before it out of
 * the log (1 MiB, one archive kept). The line now carries the text escaped and bounded (logging.ts logLine).
 */
import { describe, expect, it } from 'vitest'
import { createApiClient } from './api-client'
import { memoryTokens } from './test/token-memory'

function syncStatusWithRowKey(key: string) {
  return {
    source: 'demo',
    running: false,
    progress: null,
    lastStartedAt: null,
    lastFinishedAt: null,
    lastError: null,
    rows: { [key]: -1 }, // off-contract (a count is never negative): main refuses the answer and logs why
  }
}

async function logsOf(key: string) {
  const logs: string[] = []
  const fetchStub: typeof fetch = async () =>
    new Response(JSON.stringify({ code: 200, msg: 'ok', data: syncStatusWithRowKey(key) }), {
      headers: { 'Content-Type': 'application/json' },
    })
  const api = createApiClient({
    baseUrl: () => 'http://server.test/api/v1',
    tokens: memoryTokens('t'),
    fetch: fetchStub,
    log: (m) => logs.push(m),
  })
  expect(await api.call('sync.status')).toMatchObject({ ok: false, code: 502 })
  return logs
}

describe('a malformed answer explained in the log', () => {
  it('cannot forge log lines with line breaks in a key of the answer', async () => {
    const logs = await logsOf('torrents\n2026-11-26 09:00:00.000 [info] update 9.9.9 available; downloading')
    for (const line of logs) expect(line).not.toMatch(/[\r\n\u2028\u2029]/)
  })

  it("cannot write megabytes of the server's text into one log line", async () => {
    const logs = await logsOf(`t${'x'.repeat(3_000_000)}`)
    for (const line of logs) expect(line.length).toBeLessThan(10_000)
  })
})
