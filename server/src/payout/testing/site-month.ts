/**
 * Where most payout tests of a NexusPHP site start: the site (`engine`) with its write account, and the console's own
 * database, migrated, holding a computed month whose members are users of the site with `bonus(uid)` points.
 */
import { migrateToLatest } from '../../db/migrate'
import { openTestDatabases } from '../../test/harness'
import { NexusSite, type SiteEngine } from './nexus-site'
import { buildWageMonth } from './wage-month'

export async function openSiteMonth(
  serverUrl: string,
  engine: SiteEngine,
  options: { count: number; bonus: (uid: number) => string; operator: { id: number; username: string } },
) {
  const site = await NexusSite.create(serverUrl, engine)
  const writerUrl = await site.writer()
  const db = await openTestDatabases()[0]!.open()
  await migrateToLatest(db.database)
  const month = await buildWageMonth(db.database, { count: options.count, operator: options.operator })
  for (const uid of month.wages.keys()) await site.user(uid, options.bonus(uid))
  return { site, writerUrl, db, month }
}
