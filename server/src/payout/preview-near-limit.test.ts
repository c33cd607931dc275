/**
 * The dry run blocks a record whose bonus the site's column cannot hold (the bonus now + the credit), as the payout
 * refuses it before crediting. A MyISAM attempt cut after its credit landed leaves the entry pending with the credit
 * already in the bonus: the payout makes no second credit (it writes the log row and message: 'already'), so the
 * dry run must not add the credit a second time and call it 无法发放.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { buildWageMonth, PERIOD, type WageMonth } from './testing/wage-month'
import { payoutKit } from './testing/kit'
import { NexusSite } from './testing/nexus-site'
import { formatTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const UID = 1001
/** v1.6 users.seedbonus decimal(10,1): at most 999999999.9. */
const MAX = 9_999_999_999n

describe.skipIf(!serverUrl)('the dry run near the site column limit (NexusPHP v1.6, MyISAM)', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, entry, closeServices } = payoutKit(() => ({ db, writerUrl, month }))

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, 'MyISAM')
    writerUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    // Room for exactly one credit: before + credit = the column's maximum.
    await site.user(UID, formatTenths(MAX - credit(UID)))
  }, 60_000)
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('is not shown 无法发放 when the payout would finish it without a second credit', async () => {
    const fresh = await service().preview({ period: PERIOD })
    expect(fresh.list[0]).toMatchObject({ status: 'ready' })
    // Cut right after the credit landed (bonus and its bonuscomment line in; no log row or message).
    const cutting = service({
      onStep: async (step, e) => void (step === 'credited' && e.wage_id === wage(UID) && (await site.killWriters())),
    })
    await cutting.run({ ids: [wage(UID)] }, operator, '127.0.0.1')
    expect(await site.bonus(UID)).toBe(formatTenths(MAX))
    expect(await entry(UID)).toMatchObject({ state: 'pending' })

    const preview = await service().preview({ period: PERIOD })
    const row = preview.list.find((e) => e.siteUid === UID)!
    expect(row).toMatchObject({ status: 'ready', note: expect.stringContaining('上次未完成') })
    // What the payout does with it: finishes it, no credit.
    const [retry] = await service().run({ ids: [wage(UID)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect(await site.bonus(UID)).toBe(formatTenths(MAX))
  })
})
