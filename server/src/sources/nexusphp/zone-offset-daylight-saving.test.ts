/**
 * A database server without time zone tables gets the site zone's offset instead of its name — taken once, when the
 * first sync opened the pool, and kept for the life of the process: a console started in summer read every site time
 * of a Europe/Berlin site an hour off from the last Sunday of October on (the payout writer had the same fault, found by
 * an outside tester: payout/writer-dst-offset.test.ts). Each statement now runs in the offset of its own moment.
 */
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openNexusphpConnection, zoneOffset } from './connection'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const ZONE = 'Europe/Berlin'

describe.skipIf(!serverUrl)('a sync connection opened in the other half of the year', () => {
  const connection = openNexusphpConnection({ databaseUrl: serverUrl!, timezone: ZONE })
  afterAll(() => connection.close())

  it('reads in the zone as it is now, not as it was when the connection was opened', async () => {
    const now = Date.now()
    // Half a year ago: the other side of a daylight-saving change.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(now - 182 * 24 * 3600 * 1000)
    try {
      await connection.query('SELECT 1')
    } finally {
      vi.useRealTimers()
    }
    const [row] = await connection.query<{ zone: string }>('SELECT @@session.time_zone AS zone')
    // The name where the server knows it (then the server follows daylight saving itself), else today's offset.
    expect([ZONE, zoneOffset(ZONE)]).toContain(row!.zone)
  })
})
