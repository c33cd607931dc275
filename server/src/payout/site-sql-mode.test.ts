/**
 * A site whose database server runs with another sql_mode than MariaDB's default. mysql2 writes a
 * quote inside a string as \' — with NO_BACKSLASH_ESCAPES the server reads a backslash and the end of
 * the string: a message template with an apostrophe failed after the bonus had landed (a v1.6 site's
 * member left 待核对, every retry failing the same way), and a template's text could run as SQL with
 * the write account's grants. Every session we open on the site now sets the sql_mode our statements
 * are written for. Runs on a MariaDB server of its own (started with that sql_mode), where
 * NEXUSPHP_TEST_DATABASE_URL is set and the machine has the MariaDB server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { siteServerBinaries, startSiteServer, type SiteServer } from '../sources/nexusphp/testing/site-server'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import type { PayoutService } from './service'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { NexusSite, type SiteEngine } from './testing/nexus-site'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const runs = Boolean(process.env.NEXUSPHP_TEST_DATABASE_URL) && siteServerBinaries() !== null
/** What a site's my.cnf may hold: every mode that changes how a statement's text is read. */
const SITE_SQL_MODE = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT,ONLY_FULL_GROUP_BY,STRICT_ALL_TABLES'
const operator = { id: 1, username: 'admin' }
// An apostrophe, a backslash and what an injection would try after them.
const template = {
  subject: "{月份} 工资 it's \\ {金额}",
  body: "{用户名}'s 工资 {金额} 魔力 \\' , 'x'); DELETE FROM users; -- \\\\",
}

let server: SiteServer

beforeAll(async () => {
  if (runs) server = await startSiteServer([`--sql-mode=${SITE_SQL_MODE}`])
}, 120_000)
afterAll(async () => {
  await server?.stop()
})

describe.skipIf(!runs).each(['InnoDB', 'MyISAM'] as SiteEngine[])(
  `paying a site whose server runs with sql_mode ${SITE_SQL_MODE} (%s)`,
  (engine) => {
    let site: NexusSite
    let db: TestDatabase
    let month: WageMonth
    let payout: PayoutService

    beforeAll(async () => {
      site = await NexusSite.create(server.url, engine)
      db = await openTestDatabases()[0]!.open()
      await migrateToLatest(db.database)
      month = await buildWageMonth(db.database, { count: 2, operator })
      const { version: _v, ...rules } = await currentRules(db.database.db)
      await saveRules(db.database.db, { ...rules, payoutMessageTemplate: template }, AFTER_MONTH - 1000, null)
      await site.user(1001, '100.0')
      await site.user(1002, '5.0')
      payout = nexusphpPayoutService(db, await site.writer(), { clock: () => AFTER_MONTH })
    })
    afterAll(async () => {
      await payout?.close()
      await db?.cleanup()
      await site?.drop()
    })

    it('pays each member once, with the texts exactly as the template has them', async () => {
      const results = await payout.run({ ids: [month.wages.get(1001)!, month.wages.get(1002)!] }, operator, '127.0.0.1')
      expect(results.map((r) => r.status)).toEqual(['paid', 'paid'])
      for (const [uid, start] of [
        [1001, '100.0'],
        [1002, '5.0'],
      ] as const) {
        const credit = formatTenths(creditTenths(month.amounts.get(uid)!))
        expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(start) + parseTenths(credit)))
        const [message] = await site.messages(uid)
        expect(message!.subject).toBe(`2026-01 工资 it's \\ ${credit}`)
        expect(message!.msg).toContain(`'s 工资 ${credit} 魔力 \\' , 'x'); DELETE FROM users; -- \\\\\n[seeding-console:wage:`)
        expect(await site.logs(uid)).toHaveLength(1)
      }
      // A second run finds both paid and writes nothing.
      const again = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
      expect(again[0]!.status).toBe('already')
      expect(await site.logs()).toHaveLength(2)
      expect(await site.messages(1001)).toHaveLength(1)
    })
  },
)
