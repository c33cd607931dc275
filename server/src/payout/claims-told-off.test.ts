/**
 * A MyISAM payout cut after the member's message told them 2 claims were removed with 1200 deducted, and the admin then
 * switches 发放时结算认领 (settleClaims) off: the retry still settles as told (payout_ledger.claims_plan) — the claims
 * removed, the deduction taken once. It used to mark the record done with neither, or (cut after the deduction) with
 * the claims left on the site to be charged again by the next settlement. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { currentRules, saveRules } from '../rules/rules'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { payoutKit } from './testing/kit'
import { NexusSite } from './testing/nexus-site'
import { buildWageMonth, AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'

describe.skipIf(!serverUrl)('a MyISAM payout cut after its message, then settleClaims switched off', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, entry, closeServices } = payoutKit(() => ({ db, writerUrl, month }))
  const unreached = {
    size: 10 * GIB,
    seedtime: 1010 * H,
    uploaded: 0,
    seedBegin: 1000 * H,
    uploadedBegin: 0,
    createdAt: '2025-07-01 10:00:00',
  }

  beforeAll(async () => {
    site = await NexusSite.create(serverUrl!, 'MyISAM')
    writerUrl = await site.writer()
    db = await openTestDatabases()[0]!.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: 1, operator })
    await site.user(1001, START)
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: true, claimRemoveDeduction: 600 }, AFTER_MONTH - 1000, null)
  })
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('the record is not shown done with the told deduction never taken', async () => {
    await site.claim(1001, 501, unreached)
    await site.claim(1001, 502, unreached)
    const cutting = service({ onStep: async (step) => void (step === 'messaged' && (await site.killWriters())) })
    await cutting.run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    const paid = parseTenths(START) + credit(1001)
    const [message] = await site.messages(1001)
    expect(message!.msg).toContain('共扣除 1200.0 魔力')
    expect((await entry(1001)).claims_plan).not.toBeNull()

    // The admin switches 发放时结算认领 off, then pays again.
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: false }, AFTER_MONTH - 900, null)
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect((await entry(1001)).state).toBe('done')
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await site.claims(1001)).toHaveLength(0)
    expect(await site.messages(1001)).toHaveLength(1)
  })

  it('cut after the deduction was taken: the claims it was taken for are removed, not left to be charged again', async () => {
    // 1001 again, from a clean slate: its site rows, ledger entry and payment undone.
    await site.conn.query('DELETE FROM claims')
    await site.conn.query('DELETE FROM bonus_logs')
    await site.conn.query('DELETE FROM messages')
    await site.conn.query('UPDATE users SET seedbonus = ?, bonuscomment = NULL WHERE id = 1001', [START])
    await db.database.db.deleteFrom('payout_ledger').execute()
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null })
      .execute()
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: true }, AFTER_MONTH - 800, null)
    await site.claim(1001, 601, unreached)
    await site.claim(1001, 602, unreached)
    const cutting = service({ onStep: async (step) => void (step === 'claims-deducted' && (await site.killWriters())) })
    await cutting.run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    const paid = parseTenths(START) + credit(1001)
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    const { version: _v2, ...rules2 } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules2, settleClaims: false }, AFTER_MONTH - 700, null)
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect((await entry(1001)).state).toBe('done')
    // Charged 1200 for these two claims, once: they are gone (else the next settlement charges them again), and logged.
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await site.claims(1001)).toHaveLength(0)
    expect((await site.logs(1001)).map((l) => [Number(l.business_type), Number(l.value)])).toContainEqual([20, 1200])
  })
})
