/**
 * The wage worker thread (started by offload.ts; bundled as dist/wage-worker.js): runs each job it
 * is sent on a read-only connection of its own with the same engine functions the in-process path
 * calls — a compute then writes its result on a writer of its own — and posts the answer or the error.
 * A preview or a compute starts a second one, from here, for half of its scan (parallel-scan.ts).
 */
import { openSqliteReader } from '../db/database'
import { closeThreadDatabases, threadDatabase } from '../db/thread-database'
import { collectGarbage } from '../util/job-gc'
import { serveJobs } from '../util/job-thread'
import { computePeriod, previewInProcess, runWages, saveComputed } from './engine'
import { closeScanHelper, inSnapshotWithHelper, scanPart } from './parallel-scan'
import type { RangeScan } from './reader'
import type { ComputedPeriod, WageJob, WageThreadJob } from './worker-protocol'

/** The worker connection's page cache (the server's reader keeps 32 MiB). */
const WORKER_CACHE_KIB = 8_192

/**
 * A compute's writes go to the thread's own writer: a transaction that appends the month's item sets
 * needs no big page cache (the server's writer keeps 64 MiB for the derivation).
 */
async function writer(file: string, turns: SharedArrayBuffer) {
  const database = await threadDatabase(file, turns)
  database.sqlite!.pragma(`cache_size = -${WORKER_CACHE_KIB}`)
  return database
}

async function run({ file, turns, job }: WageThreadJob): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  // A wage job scans in id order and reads each leaf page about once: a small cache (room for the
  // indexes' inner pages) does as well as a big one, and it adds to the server's two in the process's memory.
  const db = openSqliteReader(file, WORKER_CACHE_KIB)
  try {
    if (job.kind === 'scanPart') return await scanPart(db, job)
    // One read snapshot: every statement of the job sees the same commit. A preview or a compute (an
    // admin waits for it) reads half of its ranges in a helper thread from that snapshot; the
    // estimates (after a sync, nobody waits) leave the second core to the server.
    const inOneSnapshot = <T>(work: (trx: typeof db, scan: RangeScan | undefined) => Promise<T>) =>
      job.kind === 'members'
        ? db.transaction().execute((trx) => work(trx, undefined))
        : inSnapshotWithHelper(db, { file, turns }, job.period, work)
    const read = await inOneSnapshot(async (trx, scan): Promise<{ value: unknown } | { computed: ComputedPeriod }> => {
      switch (job.kind) {
        case 'preview':
          return { value: await previewInProcess(trx, job.period, job.now, job.userId, scan) }
        case 'members':
          return { value: (await runWages(trx, job.period, { rules: job.rules, body: job.body })).members }
        case 'computeAndSave':
          return { computed: await computePeriod(trx, job.period, undefined, scan) }
      }
    })
    if (!('computed' in read)) return read
    // The scan's rows and the formula's objects are garbage now; the item sets' JSON comes next.
    collectGarbage()
    // ... made here, before the write transaction: the server's writes wait for that transaction, not for the JSON
    // (at 2 M records ~0.4 s of its ~0.7 s: the transaction now holds the lock ~0.3 s). The whole JSON is held at
    // once (~34 MB then) while the collector's columns it was made from go.
    read.computed.itemSets = [...read.computed.itemSets]
    // Written after the snapshot ends; the transaction sees what was paid meanwhile (engine.ts computeAndSave).
    const { kind: _kind, ...args } = job as Extract<WageJob, { kind: 'computeAndSave' }>
    return { value: await saveComputed(await writer(file, turns), args, read.computed) }
  } finally {
    await db.destroy()
  }
}

serveJobs(run, async () => {
  await closeScanHelper()
  await closeThreadDatabases()
})
