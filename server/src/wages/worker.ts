/**
 * The wage worker thread (started by offload.ts; bundled as dist/wage-worker.js): runs each job it
 * is sent on a read-only connection of its own with the same engine functions the in-process path
 * calls, and posts the answer (a compute's item sets as transferred buffers) or the error.
 */
import { openSqliteReader } from '../db/database'
import { serveJobs } from '../util/job-thread'
import { computePeriod, previewInProcess, runWages } from './engine'
import { packItemSets, type WageJob } from './worker-protocol'

/** The worker connection's page cache (the server's reader keeps 32 MiB). */
const WORKER_CACHE_KIB = 8_192

async function run({ file, job }: { file: string; job: WageJob }): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  // A wage job scans in id order and reads each leaf page about once: a small cache (room for the
  // indexes' inner pages) does as well as a big one, and it adds to the server's two in the process's memory.
  const db = openSqliteReader(file, WORKER_CACHE_KIB)
  try {
    // One read transaction: every statement of the job sees the same commit (WAL snapshot).
    return await db.transaction().execute(async (trx) => {
      switch (job.kind) {
        case 'preview':
          return { value: await previewInProcess(trx, job.period, job.now, job.userId), transfer: [] }
        case 'members':
          return { value: (await runWages(trx, job.period, { rules: job.rules, body: job.body })).members, transfer: [] }
        case 'compute': {
          const computed = await computePeriod(trx, job.period)
          const itemSets = packItemSets(computed.itemSets)
          const value = { ruleVersion: computed.ruleVersion, members: computed.members, itemSets }
          return { value, transfer: [itemSets.userIds.buffer, itemSets.ends.buffer, itemSets.json.buffer] as ArrayBuffer[] }
        }
      }
    })
  } finally {
    await db.destroy()
  }
}

serveJobs(run)
