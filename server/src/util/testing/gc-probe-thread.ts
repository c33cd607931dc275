/**
 * A test thread (util/job-gc.test.ts): makes an object only a WeakRef points to, lets the turn that
 * made it end (a WeakRef keeps its target alive until then), calls collectGarbage and answers
 * whether the object is gone.
 */
import { collectGarbage } from '../job-gc'
import { serveJobs } from '../job-thread'

serveJobs<{ collect: boolean }>(async (job) => {
  const ref = new WeakRef({ payload: new Array<number>(10_000).fill(1) })
  await new Promise((resolve) => setImmediate(resolve))
  if (job.collect) collectGarbage()
  return { value: ref.deref() === undefined }
})
