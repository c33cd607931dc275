/**
 * The sync thread (started by sync-offload.ts; bundled as dist/sync-worker.js): runs a sync's heavy
 * steps on connections of its own to the server's SQLite file and sends progress while they run.
 * The source stays open while the thread lives (it keeps its connection), and ends with it.
 */
import { threadDatabase } from '../db/thread-database'
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

serveJobs<SyncThreadJob>(async ({ file, spec, now }, emit) => {
  const source = sourceOf(spec)
  const steps = await runSyncSteps(await threadDatabase(file), source, now, emit)
  return { value: { ...steps, site: source.site?.() ?? null } satisfies ThreadSyncSteps }
})
