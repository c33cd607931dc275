/**
 * Turns at a SQLite file's write lock between the server's threads. SQLite's lock is not fair: a job
 * thread that writes transaction after transaction (a large sync's derivation) begins the next one
 * within microseconds of its commit, and a request's write, which waits on a timer
 * (sqlite-routing.ts busyRetry), rarely lands in that gap — it could wait for the whole job.
 *
 * So the server's own connection counts its writes that found the lock held, in memory shared with
 * the job threads (a SharedArrayBuffer sent with each job), and a job thread's connection gives way
 * before each transaction while that count is above zero. A request then waits for at most the job's
 * current transaction. A job is not starved either: it gives way for at most JOB_GIVE_WAY_MS at a time.
 */
import { performance } from 'node:perf_hooks'

/** The longest a job's transaction waits for the server's waiting writes before it begins anyway. */
export const JOB_GIVE_WAY_MS = 1_000

export type WriterRole = 'request' | 'job'

export class WriteTurns {
  private readonly waiting: Int32Array

  constructor(
    readonly role: WriterRole,
    readonly shared: SharedArrayBuffer = new SharedArrayBuffer(4),
  ) {
    this.waiting = new Int32Array(shared)
  }

  /** The server's writes waiting for the lock now. */
  get waitingWrites(): number {
    return Atomics.load(this.waiting, 0)
  }

  /** A request's write found the lock held: counted until the returned function is called (once). */
  startWaiting(): () => void {
    Atomics.add(this.waiting, 0, 1)
    let done = false
    return () => {
      if (done) return
      done = true
      Atomics.sub(this.waiting, 0, 1)
      Atomics.notify(this.waiting, 0)
    }
  }

  /** A job is about to take the lock: first let the server's waiting writes have it (bounded). */
  async giveWay(): Promise<void> {
    const deadline = performance.now() + JOB_GIVE_WAY_MS
    for (;;) {
      const waiting = Atomics.load(this.waiting, 0)
      const left = deadline - performance.now()
      if (waiting === 0 || left <= 0) return
      const wait = Atomics.waitAsync(this.waiting, 0, waiting, left)
      if (wait.async) await wait.value
    }
  }
}

/** The server's turns per database file (absolute path as SQLite names it), shared with the job threads. */
const requestTurns = new Map<string, WriteTurns>()

export function requestTurnsOf(file: string): WriteTurns {
  let turns = requestTurns.get(file)
  if (!turns) {
    turns = new WriteTurns('request')
    requestTurns.set(file, turns)
  }
  return turns
}
