/**
 * Where most payout tests of a NexusPHP site start: the site (`engine`) with its write account, and the console's own
 * database, migrated, holding a computed month whose members are users of the site with `bonus(uid)` points.
 */
import { afterAll, beforeAll } from 'vitest'
import { migrateToLatest } from '../../db/migrate'
import { openTestDatabases } from '../../test/harness'
import { NexusSite, type SiteEngine } from './nexus-site'
import { payoutKit } from './kit'
import { buildWageMonth } from './wage-month'

export interface SiteMonthOptions {
  count: number
  /** The last `idle` members seed too little for a wage (wage-month.ts). */
  idle?: number
  bonus: (uid: number) => string
  operator: { id: number; username: string }
}

export async function openSiteMonth(serverUrl: string, engine: SiteEngine, options: SiteMonthOptions) {
  const site = await NexusSite.create(serverUrl, engine)
  const writerUrl = await site.writer()
  const db = await openTestDatabases()[0]!.open()
  await migrateToLatest(db.database)
  const month = await buildWageMonth(db.database, { count: options.count, idle: options.idle, operator: options.operator })
  for (const uid of month.wages.keys()) await site.user(uid, options.bonus(uid))
  return { site, writerUrl, db, month }
}

/**
 * openSiteMonth in the calling describe's beforeAll (`t` is set then), dropped in its afterAll, with the payout kit
 * over it (services closed there too).
 */
export function useSiteMonth(serverUrl: string | undefined, engine: SiteEngine, options: SiteMonthOptions) {
  const t = {} as Awaited<ReturnType<typeof openSiteMonth>>
  const kit = payoutKit(() => t)
  beforeAll(async () => {
    Object.assign(t, await openSiteMonth(serverUrl!, engine, options))
  }, 60_000)
  afterAll(async () => {
    await kit.closeServices()
    await t.db?.cleanup()
    await t.site?.drop()
  })
  return { t, ...kit }
}
