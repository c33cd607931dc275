/**
 * Found by an outside tester (fixed since; the test keeps it so): the demo source's simulated site lost credits when two payouts pay the same member at the same time for
 * different wage records (two months paid from two server processes, or two admins' tabs, over one PostgreSQL
 * database). demo-target.ts write() serialises only payouts of the *same ledger entry* (`SELECT … FROM payout_ledger
 * WHERE id = <entry> FOR UPDATE`), then reads the member's bonus, and writes back `before + credit` as an absolute value
 * (`INSERT … ON CONFLICT (uid) DO UPDATE SET bonus_tenths = <after>`). Two entries of one uid both read the same
 * `before`; the second upsert overwrites the first: the member's simulated bonus holds one month's wage, while both
 * records show 已发放 and both log rows say they were credited (the second log's "before" is not the first one's
 * "after"). This is the lost update that the NexusPHP writer prevents with its per-member GET_LOCK and
 * `seedbonus = seedbonus + x` (nexusphp-member-lock.ts, nexusphp-rows.ts changeBonusOnce), and what NexusPHP does
 * itself (`increment('seedbonus', …)`, BonusRepository's `where('seedbonus', $old)` guard).
 * Correct (domain.md §4 "concurrent pays of the same record pay it once", §7 the demo "pays into its own simulated
 * site so every screen works"): every credit lands; each member's bonus = start + every wage paid. demo-target.ts now
 * takes an advisory lock on the uid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { wageDb } from '../wages/tables'
import { demoStartingTenths } from './demo-target'
import { createPayoutService, type PayoutService } from './service'
import { creditTenths } from './tenths'
import { buildWageMonth, AFTER_MONTH, PERIOD, type WageMonth } from './testing/wage-month'

const operator = { id: 1, username: 'admin' }
const MEMBERS = 3
/** Later months of the same members, each paid by a process of its own at the same time as January. */
const LATER = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09']

describe.each(openTestDatabases().filter((b) => b.name === 'postgres'))('months paid at once into the demo site, on $name', (backend) => {
  let db: TestDatabase
  let month: WageMonth
  const services: PayoutService[] = []
  const service = () => {
    const config = {
      ...db.config,
      source: 'demo' as const,
      payout: { writeDatabaseUrl: undefined, webhookUrl: undefined, webhookSecret: undefined },
    }
    const created = createPayoutService({ database: db.database, config, clock: () => AFTER_MONTH + 30 * 86_400_000 })
    services.push(created)
    return created
  }

  beforeAll(async () => {
    db = await backend.open()
    await migrateToLatest(db.database)
    month = await buildWageMonth(db.database, { count: MEMBERS, operator })
    // The later months' records of the same members (as a compute of each month saves them): another wage each.
    const january = await wageDb(db.database.db).selectFrom('wage_records').selectAll().where('period', '=', PERIOD).execute()
    const sets = await wageDb(db.database.db).selectFrom('wage_item_sets').selectAll().where('period', '=', PERIOD).execute()
    for (const [i, period] of LATER.entries()) {
      for (const r of january) {
        const { id: _id, ...rest } = r
        await wageDb(db.database.db)
          .insertInto('wage_records')
          .values({ ...rest, period, amount: Number(r.amount) + i + 1 })
          .execute()
      }
      for (const set of sets) {
        const { id: _id, ...rest } = set as typeof set & { id?: number }
        await wageDb(db.database.db)
          .insertInto('wage_item_sets')
          .values({ ...rest, period })
          .execute()
      }
    }
  }, 120_000)
  afterAll(async () => {
    for (const s of services) await s.close()
    await db?.cleanup()
  })

  it("each member's simulated bonus gets every month's wage", async () => {
    // Server processes over the same database, each paying one month, at the same time.
    const runs = await Promise.all([PERIOD, ...LATER].map((period) => service().run({ period }, operator, '127.0.0.1')))
    expect(runs.flat().every((r) => r.status === 'paid')).toBe(true)
    const records = await wageDb(db.database.db).selectFrom('wage_records').select(['user_id', 'period', 'amount']).execute()
    const bonus = new Map(
      (await db.database.db.selectFrom('payout_demo_bonus').select(['uid', 'bonus_tenths']).execute()).map((r) => [
        Number(r.uid),
        BigInt(r.bonus_tenths),
      ]),
    )
    const siteUid = new Map([...month.users].map(([uid, userId]) => [userId, uid]))
    const wrong: string[] = []
    for (const uid of month.wages.keys()) {
      const userId = month.users.get(uid)!
      const paid = records.filter((r) => r.user_id === userId).reduce((sum, r) => sum + creditTenths(Number(r.amount)), 0n)
      const expected = demoStartingTenths(uid) + paid
      if (bonus.get(uid) !== expected) wrong.push(`uid ${uid}: ${bonus.get(uid)} ≠ ${expected}`)
    }
    expect(siteUid.size).toBe(MEMBERS)
    expect(wrong).toEqual([])
  })
})
