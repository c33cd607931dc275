/**
 * Found by an outside tester (fixed since; the test keeps it so): the NexusPHP writer fixed its session time zone as the UTC offset NEXUSPHP_TIMEZONE had when the
 * server process started (nexusphp-writer.ts: `const offset = zoneOffset(options.timezone …)` once, in
 * nexusphpWriter(), then `SET time_zone = <that offset>` on every connection for the life of the process). For a site in
 * a zone with daylight saving (NEXUSPHP_TIMEZONE=Europe/Berlin, America/…, which config.ts accepts and the sync
 * connector honours by name: sources/nexusphp/connection.ts resolveZone sets the zone *name*), a console started in
 * summer and paying a month after the clocks went back — the usual case: October's wages are paid in the first days of
 * November by a server that has been running since before the last Sunday of October — writes every site time one
 * hour off:
 *   - messages.added (the member's inbox shows the wage message dated an hour in the future),
 *   - the "Y-m-d - …" date of the bonuscomment line (the wrong day for a payout between 23:00 and midnight),
 *   - bonus_logs.created_at/updated_at, claims.last_settle_at/updated_at (settleClaims), and monthsNotOver's idea of
 *     whether the month is over (settleClaims), all taken from NOW() in that session.
 * NexusPHP itself writes these in its PHP zone *now* (`now()` / `date('Y-m-d')` with TIMEZONE from its .env;
 * BonusRepository::consumeUserBonus, Message::add in xiaomlove/nexusphp), and domain.md §5 says NexusPHP writes
 * DATETIMEs in its PHP time zone.
 * Correct: each payout session is in the site's zone as it is at the time of writing — nexusphp-writer.ts now sets the
 * zone's offset at each checkout of a connection.
 *
 * The test creates the payout service while the process clock is in the other half of the year (July when run in
 * winter, Berlin +02:00 then; January when run in summer), then pays with the real clock and compares messages.added
 * with Berlin's wall clock now.
 */
import type { RowDataPacket } from 'mysql2/promise'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createPayoutService, type PayoutService } from './service'
import { useSiteMonth } from './testing/site-month'
import { AFTER_MONTH, PERIOD } from './testing/wage-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const ZONE = 'Europe/Berlin'

/** "YYYY-MM-DD HH:MM:SS" of `at` on the wall clock of `zone`. */
function wallClock(at: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`
}
const asUtcMs = (datetime: string) => Date.parse(`${datetime.replace(' ', 'T')}Z`)

describe.skipIf(!serverUrl)('a payout into a site in a zone with daylight saving, by a server started before the change', () => {
  const { t } = useSiteMonth(serverUrl, 'InnoDB', { count: 1, bonus: () => '100.0', operator })
  let service: PayoutService | null = null
  afterAll(async () => {
    await service?.close()
  })

  it("dates the member's message on the site's wall clock at the time of paying, not the offset of the server's start", async () => {
    // The server process started in summer (only Date is faked; the writer takes its offset when it is created).
    // A day of the other half of the year than today's (Berlin is +02:00 in July, +01:00 in January).
    const offsetAt = (at: number) => asUtcMs(wallClock(at, ZONE)) - Math.floor(at / 1000) * 1000
    const year = new Date().getUTCFullYear()
    const started = [Date.UTC(year, 6, 15, 10), Date.UTC(year, 0, 15, 10)].find((at) => offsetAt(at) !== offsetAt(Date.now()))!
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(started)
    try {
      service = createPayoutService({
        database: t.db.database,
        config: {
          ...t.db.config,
          source: 'nexusphp' as const,
          nexusphp: { ...t.db.config.nexusphp, timezone: ZONE },
          payout: { writeDatabaseUrl: t.writerUrl, webhookUrl: undefined, webhookSecret: undefined },
        },
        clock: () => AFTER_MONTH,
      })
    } finally {
      vi.useRealTimers()
    }
    // Months later (the real clock): the payout.
    const results = await service.run({ period: PERIOD }, operator, '127.0.0.1')
    expect(results.map((r) => r.status)).toEqual(['paid'])
    const now = Date.now()
    const [messages] = await t.site.conn.query<RowDataPacket[]>('SELECT added FROM messages')
    expect(messages).toHaveLength(1)
    const added = String(messages[0]!.added)
    const expected = wallClock(now, ZONE)
    // Within two minutes of the site's wall clock now (the run took seconds); an hour off is the fault.
    expect(Math.abs(asUtcMs(added) - asUtcMs(expected))).toBeLessThan(2 * 60_000)
  })
})
