/**
 * The wage worker on SQLite: the same answers as the in-process engine (previews with a member's
 * items, computes with what they write, paid records kept, errors), and a main thread that keeps
 * answering while a preview is read and computed; a compute writes on the worker's own connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WageItem } from '@shared/entities'
import type { AppDatabase } from '../db/database'
import { AppError } from '../errors'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { computeAndSave, payWages, previewInProcess, previewWages } from './engine'
import { readItemSet } from './item-sets'
import { runInWorker, wageWorkerJobs } from './offload'
import { requestTurnsOf } from '../db/write-turns'
import { wageDb } from './tables'
import { DEMO_NOW, DEMO_PERIOD, openDemoMonth } from './testing/demo-month'

/** ~100,000 seed records: the in-process preview runs for a few hundred ms, holding the loop but every ~10 ms. */
const SCALE = { members: 100, extraAdmins: 2, siteUsers: 2_000, torrents: 10_000, recordsPerMember: 1_000, historyDays: 60 }
const sqlite = openTestDatabases().find((backend) => backend.name === 'sqlite')!

describe('wage worker on sqlite', () => {
  let opened: TestDatabase
  let database: AppDatabase
  let operator: { id: number; username: string }

  beforeAll(async () => {
    opened = await openDemoMonth(sqlite, SCALE)
    database = opened.database
    operator = await database.db.selectFrom('users').select(['id', 'username']).where('username', '=', 'admin').executeTakeFirstOrThrow()
  }, 120_000)
  afterAll(async () => {
    await opened?.cleanup()
  })

  const saved = async () => {
    const w = wageDb(database.db)
    const records = await w.selectFrom('wage_records').selectAll().where('period', '=', DEMO_PERIOD).orderBy('user_id').execute()
    const sets = await w.selectFrom('wage_item_sets').selectAll().where('period', '=', DEMO_PERIOD).orderBy('user_id').execute()
    return { records: records.map(({ id: _id, ...rest }) => rest), sets, ids: new Map(records.map((r) => [r.user_id, r.id])) }
  }

  it('previews the same list, and the same items of a member, as in-process', async () => {
    const jobs = wageWorkerJobs()
    const all = await previewWages(database.db, DEMO_PERIOD, DEMO_NOW)
    expect(wageWorkerJobs()).toBe(jobs + 1)
    expect(all).toEqual(await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW))
    expect(all.list.filter((m) => m.amount > 0).length).toBeGreaterThan(SCALE.members / 2)

    const member = all.list.find((m) => m.amount > 0)!
    const one = await previewWages(database.db, DEMO_PERIOD, DEMO_NOW, member.userId)
    expect(one).toEqual(await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW, member.userId))
    expect(one.list[0]!.items!.length).toBeGreaterThan(0)
  })

  it('computes and saves the same records and items as in-process, and keeps a paid record as it is', async () => {
    const args = { period: DEMO_PERIOD, now: DEMO_NOW, operator, ip: '127.0.0.1' }
    const inProcess = await computeAndSave(database, args, { inProcess: true })
    const expected = await saved()
    expect(expected.records.length).toBeGreaterThan(SCALE.members / 2)

    // Cleared (a test shortcut), so the worker's compute has everything to write again.
    await wageDb(database.db).deleteFrom('wage_item_sets').execute()
    await wageDb(database.db).deleteFrom('wage_records').execute()
    const jobs = wageWorkerJobs()
    expect(await computeAndSave(database, args)).toEqual(inProcess)
    expect(wageWorkerJobs()).toBe(jobs + 1)
    const fromWorker = await saved()
    expect(fromWorker.records).toEqual(expected.records)
    expect(fromWorker.sets).toEqual(expected.sets)
    const member = expected.records.find((r) => Number(r.amount) > 0)!.user_id
    // The stored set is in the breakdown's order, the preview's in torrent order.
    const byTorrent = (items: WageItem[]) => [...items].sort((a, b) => a.torrentId - b.torrentId)
    expect(byTorrent(await readItemSet(database.db, DEMO_PERIOD, member))).toEqual(
      byTorrent((await previewInProcess(database.db, DEMO_PERIOD, DEMO_NOW, member)).list[0]!.items!),
    )

    // Paid, then altered (a test shortcut): a recompute that touched it would put the computed values back.
    const paidId = fromWorker.ids.get(member)!
    expect((await payWages(database, { ids: [paidId], now: DEMO_NOW, operator, ip: '127.0.0.1' })).paid).toBe(1)
    await wageDb(database.db).updateTable('wage_records').set({ amount: 1.23 }).where('id', '=', paidId).execute()
    await wageDb(database.db).updateTable('wage_item_sets').set({ items: '[]' }).where('user_id', '=', member).execute()
    expect(await computeAndSave(database, args)).toEqual({ ...inProcess, saved: inProcess.saved - 1, keptPaid: 1 })
    const after = await saved()
    expect(after.ids).toEqual(fromWorker.ids)
    expect(after.records.find((r) => r.user_id === member)).toMatchObject({ amount: 1.23, payment: 1 })
    expect(after.sets.find((s) => s.user_id === member)!.items).toBe('[]')
    expect(after.records.filter((r) => r.user_id !== member)).toEqual(expected.records.filter((r) => r.user_id !== member))
    expect(after.sets.filter((s) => s.user_id !== member)).toEqual(expected.sets.filter((s) => s.user_id !== member))
  })

  it('answers with the error the in-process path gives; a failed job leaves the worker usable', async () => {
    const inProcess = await previewInProcess(database.db, '2020-01', DEMO_NOW).catch((error: unknown) => error)
    const viaWorker = await previewWages(database.db, '2020-01', DEMO_NOW).catch((error: unknown) => error)
    expect(inProcess).toBeInstanceOf(AppError)
    expect(viaWorker).toBeInstanceOf(AppError)
    expect(viaWorker).toMatchObject({ code: (inProcess as AppError).code, msg: (inProcess as AppError).msg })

    const missingFile = `${opened.dataDir}/missing.db`
    const missing = await runInWorker(
      { file: missingFile, turns: requestTurnsOf(missingFile).shared },
      { kind: 'preview', period: DEMO_PERIOD, now: DEMO_NOW },
    ).catch((error: unknown) => error)
    expect(missing).toMatchObject({ code: 'SQLITE_CANTOPEN' })
    expect((await previewWages(database.db, DEMO_PERIOD, DEMO_NOW)).list.length).toBeGreaterThan(0)
  })

  it('a compute writes on the worker’s own connection: it completes while the server’s writer is held; the operation is logged', async () => {
    // Before, the worker only read and the server's writer wrote the result: held here, the compute waited for it.
    let release!: () => void
    const held = database.withWriter(() => new Promise<void>((resolve) => (release = resolve)))
    const args = { period: DEMO_PERIOD, now: DEMO_NOW + 1, operator, ip: '127.0.0.1' }
    try {
      expect((await computeAndSave(database, args)).saved).toBeGreaterThan(0)
    } finally {
      release()
      await held
    }
    const logged = await database.db
      .selectFrom('operation_log')
      .select(['action', 'target_id', 'at'])
      .where('action', '=', 'wages.compute')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(logged).toEqual({ action: 'wages.compute', target_id: DEMO_PERIOD, at: DEMO_NOW + 1 })
  })

  it('the main thread answers hundreds of reads while a preview runs', async () => {
    // In-process, the preview's statements and batches gave the loop a turn only every ~10 ms:
    // a few dozen reads before it settled. In the worker, the loop is not held at all.
    const READS = 300
    let settled = false
    const preview = previewWages(database.db, DEMO_PERIOD, DEMO_NOW).finally(() => (settled = true))
    let reads = 0
    while (!settled && reads < READS) {
      await database.db.selectFrom('users').select('id').where('id', '=', operator.id).executeTakeFirstOrThrow()
      reads++
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect({ reads, settled }).toEqual({ reads: READS, settled: false })
    expect((await preview).list.length).toBeGreaterThan(0)
  })
})
