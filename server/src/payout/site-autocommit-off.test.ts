/**
 * A site whose database server runs with autocommit off (`autocommit=0` in its my.cnf, or an `init_connect` that sets it:
 * both seen on hosting panels). Every session we opened then ran its statements in an implicit transaction that nothing
 * committed:
 * - the payout on a v1.6 site upgraded in place (users MyISAM, `claims` InnoDB — its later migration) credited the
 *   wage and sent the message (MyISAM: no transactions), but the claims it settled stayed uncommitted in the pooled
 *   connection and were rolled back when the pool closed it — the member told 「重新计算」 and the claim unchanged;
 * - the sync's read session kept the snapshot of its first read of an InnoDB table for as long as the pool kept the
 *   connection: a migrated site's later syncs read the same old rows.
 * Every session we open on the site now sets autocommit on. Runs on a MariaDB server of its own started that way, where
 * NEXUSPHP_TEST_DATABASE_URL is set and the machine has the MariaDB server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openNexusphpConnection } from '../sources/nexusphp/connection'
import { siteServerBinaries, startSiteServer, type SiteServer } from '../sources/nexusphp/testing/site-server'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { formatTenths, parseTenths } from './tenths'
import { payoutKit } from './testing/kit'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, buildWageMonth, type WageMonth } from './testing/wage-month'

const runs = Boolean(process.env.NEXUSPHP_TEST_DATABASE_URL) && siteServerBinaries() !== null
const operator = { id: 1, username: 'admin' }
const H = 3600
const START = '1000.0'

let server: SiteServer

beforeAll(async () => {
  if (runs) server = await startSiteServer(['--autocommit=0'])
}, 120_000)
afterAll(async () => {
  await server?.stop()
})

describe.skipIf(!runs)('a site database server with autocommit off', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, closeServices } = payoutKit(() => ({ db, writerUrl, month }))

  beforeAll(async () => {
    // v1.6 upgraded in place: users, torrents, snatched MyISAM; claims InnoDB.
    site = await NexusSite.create(server.url, 'MyISAM')
    // The test's own session commits what it writes (the server's default is off).
    await site.conn.query('SET SESSION autocommit = 1')
    writerUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: true }, AFTER_MONTH - 1000, null)
    await site.user(1001, START)
  })
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('the payout’s claim settlement lands on the InnoDB claims table, not only in an open transaction', async () => {
    const claim = await site.seededClaim(1001, 501, 350)
    const [result] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    expect(await site.bonus(1001)).toBe(formatTenths(parseTenths(START) + credit(1001)))
    // Read by another session while the payout's connection is still in its pool.
    expect(await site.claims(1001)).toMatchObject([{ id: String(claim), seed_time_begin: String(1350 * H) }])
    await closeServices()
    expect(await site.claims(1001)).toMatchObject([{ id: String(claim), seed_time_begin: String(1350 * H) }])
  })

  it('the sync’s read session sees what the site committed after its first read', async () => {
    await site.conn.query(
      'INSERT INTO claims (uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, created_at, updated_at) VALUES (1002, 9, 9, 1, 2, NOW(), NOW())',
    )
    const url = new URL(server.url)
    url.pathname = `/${site.database}`
    const reader = openNexusphpConnection({ databaseUrl: url.toString() })
    try {
      const read = async () => (await reader.query<{ n: number }>('SELECT COUNT(*) AS n FROM claims WHERE uid = 1002'))[0]!.n
      expect(Number(await read())).toBe(1)
      await site.conn.query(
        'INSERT INTO claims (uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, created_at, updated_at) VALUES (1002, 10, 10, 1, 2, NOW(), NOW())',
      )
      expect(Number(await read())).toBe(2)
    } finally {
      await reader.close()
    }
  })
})
