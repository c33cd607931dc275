/**
 * The ledger under many concurrent payouts of the same records: opening entries never fails and
 * leaves exactly one entry per wage record (on PostgreSQL a racing insert used to hit the second
 * unique key, `ledger_key`, which the conflict clause did not cover → a 500 to the admin). A failed entry
 * reopened keeps what attempts noted as sent to its member, not to a member bound since.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { openEntries, transition, type NewEntry } from './ledger'

describe.each(openTestDatabases())('payout ledger on $name', (backend) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await backend.open()
    await migrateToLatest(t.database)
  })
  afterAll(() => t.cleanup())

  it('20 callers opening the same entries at once: no error, one entry per wage record, 30 rounds', async () => {
    const operator = { id: 1, username: 'admin' }
    for (let round = 0; round < 30; round++) {
      const entries: NewEntry[] = Array.from({ length: 8 }, (_, i) => ({
        wageId: round * 100 + i + 1,
        period: '2026-01',
        userId: 1,
        siteUid: 1000 + i,
        amount: 10 + i,
      }))
      const opened = await Promise.all(
        Array.from({ length: 20 }, () => openEntries(t.database.db, entries, { target: 'demo', operator, now: 1 })),
      )
      for (const map of opened) expect([...map.keys()].sort((a, b) => a - b)).toEqual(entries.map((e) => e.wageId))
      const ids = new Set(opened.flatMap((map) => [...map.values()].map((e) => e.id)))
      expect(ids.size).toBe(entries.length)
    }
  })
  it('a failed entry reopened keeps the notes of what was sent to the same member, drops them for a new binding', async () => {
    const operator = { id: 1, username: 'admin' }
    const entry = (wageId: number, siteUid: number): NewEntry => ({ wageId, period: '2026-02', userId: 1, siteUid, amount: 10 })
    for (const [wageId, uidAfter, kept] of [
      [9001, 5001, true],
      [9002, 5999, false],
    ] as const) {
      const [opened] = (
        await openEntries(t.database.db, [entry(wageId, 5000 + (wageId - 9000))], { target: 'nexusphp', operator, now: 1 })
      ).values()
      await t.database.db
        .updateTable('payout_ledger')
        .set({ credit_sent_at: 2, claims_sent_at: 3, claims_plan: '{}' })
        .where('id', '=', opened!.id)
        .execute()
      expect(await transition(t.database.db, opened!.id, 'pending', 'failed', { now: 4 })).toBe(true)
      const reopened = (await openEntries(t.database.db, [entry(wageId, uidAfter)], { target: 'nexusphp', operator, now: 5 })).get(wageId)!
      expect(reopened).toMatchObject({ state: 'pending', site_uid: uidAfter })
      expect([reopened.credit_sent_at, reopened.claims_sent_at].map((v) => (v === null ? null : Number(v)))).toEqual(
        kept ? [2, 3] : [null, null],
      )
      expect(reopened.claims_plan).toBe(kept ? '{}' : null)
    }
  })
})
