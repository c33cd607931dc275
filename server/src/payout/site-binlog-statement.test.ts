/**
 * A site whose database server writes a statement-based binary log (`binlog_format=STATEMENT`: a replica
 * set up that way; MySQL 5.6's and MariaDB ≤ 10.2.3's default) refuses every InnoDB write at READ COMMITTED
 * (error 1665). NexusPHP writes at the server's own level, and so does the payout: every member is paid.
 * Runs on a MariaDB server of its own started with --log-bin --binlog-format=STATEMENT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { siteServerBinaries, startSiteServer, type SiteServer } from '../sources/nexusphp/testing/site-server'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite } from './testing/nexus-site'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const runs = Boolean(process.env.NEXUSPHP_TEST_DATABASE_URL) && siteServerBinaries() !== null
const operator = { id: 1, username: 'admin' }

let server: SiteServer

beforeAll(async () => {
  if (runs) server = await startSiteServer(['--log-bin=site-bin', '--binlog-format=STATEMENT', '--server-id=1'])
}, 120_000)
afterAll(async () => {
  await server?.stop()
})

describe.skipIf(!runs)('paying an InnoDB site whose server logs statements (binlog_format=STATEMENT)', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let payout: PayoutService

  beforeAll(async () => {
    site = await NexusSite.create(server.url, 'InnoDB')
    // What NexusPHP's own write does on this server: an ordinary InnoDB UPDATE at the server's isolation level.
    await site.user(1001, '100.0')
    await site.conn.query('UPDATE users SET seedbonus = seedbonus + 0 WHERE id = 1001')
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    payout = nexusphpPayoutService(db, await site.writer(), { clock: () => AFTER_MONTH })
  })
  afterAll(async () => {
    await payout?.close()
    await db?.cleanup()
    await site?.drop()
  })

  it('pays the member (the site itself writes these tables without trouble)', async () => {
    const results = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
    expect(results.map((r) => [r.status, ('reason' in r ? (r as { reason?: string | null }).reason : null) ?? null])).toEqual([
      ['paid', null],
    ])
    const credit = creditTenths(month.amounts.get(1001)!)
    expect(await site.bonus(1001)).toBe(formatTenths(parseTenths('100.0') + credit))
    expect(await site.logs(1001)).toHaveLength(1)
    expect(await site.messages(1001)).toHaveLength(1)
  })
})
