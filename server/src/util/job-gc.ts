/**
 * Full garbage collections at the points where a job thread's work leaves most of what it built
 * behind (a job's end, a wage compute between its reading and its writing).
 *
 * V8 collects its old generation late: a thread that scans 2 M records kept the scan's garbage next
 * to what the next step built, and a wage compute at that size peaked ~100 MB higher than with a
 * collection between the two (BENCHMARKS.md "Requests while heavy work runs"). A thread's full
 * collection pauses only that thread (tens of ms), never a request. In the server's own thread
 * `collectGarbage` does nothing: there a pause would hold every request.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { isMainThread } from 'node:worker_threads'

let collect: (() => void) | null = null

/** In a job thread (serveJobs): makes `collectGarbage` collect. */
export function enableJobGarbageCollection(): void {
  if (isMainThread || collect) return
  // V8 gives `gc` to contexts created after the flag is set; the thread's own was created before it.
  setFlagsFromString('--expose-gc')
  collect = runInNewContext('gc') as () => void
}

export function collectGarbage(): void {
  collect?.()
}
