/**
 * The sync thread (started by sync-offload.ts; bundled as dist/sync-worker.js): runs a sync's heavy
 * steps (sending progress while they run) or a relabelling pass on connections of its own to the
 * server's SQLite file. The source stays open while the thread lives (it keeps its connection), and
 * is closed when the thread is asked to end (a NexusPHP pool then quits its connections properly) —
 * at the end of every sync (jobs/sync.ts), after idle time, or when the server stops.
 */
import { closeThreadDatabases, threadDatabase } from '../db/thread-database'
import { derive } from '../derive'
import { createSource, type SourceSpec } from '../sources/create'
import type { Source } from '../sources/source'
import { serveJobs } from '../util/job-thread'
import type { SyncThreadJob, ThreadSyncSteps } from './sync-offload'
import { runSyncSteps } from './sync-steps'

const sources = new Map<string, Source>()

function sourceOf(spec: SourceSpec): Source {
  const key = JSON.stringify(spec)
  let source = sources.get(key)
  if (!source) {
    source = createSource(spec)
    sources.set(key, source)
  }
  return source
}

async function closeAll(): Promise<void> {
  const open = [...sources.values()]
  sources.clear()
  await Promise.all(open.map((source) => source.close?.()))
  await closeThreadDatabases()
}

serveJobs<SyncThreadJob>(async (job, emit) => {
  const database = await threadDatabase(job.file, job.turns)
  if (job.kind === 'derive') return { value: await derive(database, { now: job.now, full: job.full }) }
  const source = sourceOf(job.spec)
  const lost = new Int32Array(job.lost)
  const steps = await runSyncSteps(database, source, job.now, emit, () => Atomics.load(lost, 0) === 0)
  return { value: { ...steps, site: source.site?.() ?? null } satisfies ThreadSyncSteps }
}, closeAll)
