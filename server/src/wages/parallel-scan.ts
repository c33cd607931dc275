/**
 * A wage job's record scan on two cores (SQLite): the wage thread reads every other id range and a
 * helper thread — a second wage worker, started by the wage thread — the others, each on its own
 * read-only connection. At 2 M records the ranges' statements and their window arithmetic are most
 * of a preview or a compute (~5 of ~7 s); split, they take about half (BENCHMARKS.md「Wages」).
 *
 * Both connections must read the same commit: a job reads one snapshot (worker.ts), and money is
 * computed from it. SQLite has no way to hand a snapshot to another connection, so the two are
 * started together and checked: once the helper is ready, the coordinator notes `PRAGMA data_version`
 * of a third connection (it changes with every commit made by any other connection), starts its own
 * snapshot, has the helper start its own, and looks again. Unchanged: no commit came between the two,
 * they are the same. Changed (a commit in that millisecond): both start again, a few times at most, and
 * after that the coordinator reads every range alone. Nothing waits for the writer. The window is kept
 * that short on purpose: a version that checked only when the scan began (the job's first reads and the
 * helper's start in between, ~1 s) took 9.4 s a preview under the heavy bench's request streams (an
 * admin's write every ~100 ms), against 6.5 s without a helper — most tries failing is the likely cause.
 *
 * The two threads agree through a shared Int32Array: the coordinator writes a command, the helper
 * its state. The helper blocks on it (Atomics.wait: it has nothing else to do); the coordinator
 * waits asynchronously, and not longer than the helper lives.
 */
import SQLite from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { currentRules } from '../rules/rules'
import { jobThread, type ThreadFile } from '../util/job-thread'
import { NumberColumn } from './columns'
import { periodBounds } from './period'
import type { WageThreadJob } from './worker-protocol'
import { gainColumns, periodCounters, scanPlan, scanRanges, type GainColumns, type RangeScan } from './reader'

/** Shared slots: the coordinator's command and the helper's state. */
const COMMAND = 0
const STATE = 1

const Command = { None: 0, Take: 1, Go: 2, Retry: 3, Abort: 4 } as const
const State = { Starting: 0, Ready: 1, Taken: 2 } as const

/** Tries at starting both snapshots on one commit before the coordinator reads alone. */
export const SNAPSHOT_TRIES = 5
/** Longest wait for the other thread's next step (a thread that is still alive answers in milliseconds). */
const STEP_TIMEOUT_MS = 30_000

/** The helper's half of the scan, as it crosses the thread boundary (the columns' chunks transferred). */
export interface ScanPart {
  maxId: number
  rows: number
  chunks: Record<keyof GainColumns, (Int32Array | Float64Array)[]>
}

/**
 * The helper: a wage worker of this thread's own, ended as soon as its half is read (idle time 0) —
 * kept, its isolate and heap added to the wage thread's while that one computes and writes (at 2 M
 * records a compute's peak rose by ~30–130 MB). Starting it again costs ~0.2 s from the bundle.
 */
const helperThread = jobThread<WageThreadJob>({ bundle: 'wage-worker.js', source: new URL('./worker.ts', import.meta.url) }, 0)

/** Ends the helper if one runs (the wage thread is closing). */
export function closeScanHelper(): Promise<void> {
  return helperThread.close()
}

/** The two snapshots are not one commit: the job starts again. */
class SnapshotMoved extends Error {}

/**
 * Runs `work` in one read snapshot of `db` (the coordinator's read-only connection on `target.file`),
 * with a RangeScan that reads half of the ranges in a helper thread from the same snapshot — or,
 * when both could not be started on one commit, with none (`work` then scans alone).
 */
export async function inSnapshotWithHelper<T>(
  db: Kysely<DB>,
  target: ThreadFile,
  period: string,
  work: (trx: Kysely<DB>, scan: RangeScan | undefined) => Promise<T>,
  /** Tests: runs once an attempt's own snapshot has begun, before the helper's (a commit there must not be missed). */
  afterOwnSnapshot?: () => void,
): Promise<T> {
  const channel = new Int32Array(new SharedArrayBuffer(8))
  const helper = helperThread.run({
    ...target,
    job: { kind: 'scanPart', period, first: 1, step: 2, channel: channel.buffer as SharedArrayBuffer },
  }) as Promise<ScanPart | null>
  // The helper's answer is awaited only after a Go; before that its failure is what ends a wait.
  const failed = helper.then(
    () => new Error('the scan helper ended before it was told to scan'),
    (error: unknown) => error,
  )
  const probe = new SQLite(target.file, { readonly: true, fileMustExist: true })
  let agreed = false
  try {
    for (let attempt = 1; attempt <= SNAPSHOT_TRIES; attempt++) {
      try {
        // The helper is ready first (a new thread takes ~0.2 s to start): the two snapshots begin moments apart.
        await untilState(channel, State.Ready, failed)
        return await db.transaction().execute(async (trx) => {
          const before = probe.pragma('data_version', { simple: true })
          await sql`select 1 from seed_records limit 1`.execute(trx) // this connection's snapshot begins
          afterOwnSnapshot?.()
          await command(channel, Command.Take)
          await untilState(channel, State.Taken, failed)
          if (probe.pragma('data_version', { simple: true }) !== before) {
            await command(channel, Command.Retry)
            throw new SnapshotMoved()
          }
          agreed = true
          probe.close()
          await command(channel, Command.Go)
          return work(trx, (plan) => scanWithHelper(trx, plan, helper))
        })
      } catch (error) {
        if (!(error instanceof SnapshotMoved)) throw error
      }
    }
    probe.close()
    await command(channel, Command.Abort)
    return await db.transaction().execute((trx) => work(trx, undefined))
  } finally {
    if (probe.open) probe.close()
    // A job that failed before its helper was told anything: the helper ends too.
    if (!agreed && Atomics.load(channel, COMMAND) !== Command.Abort) await command(channel, Command.Abort)
    await helper.catch(() => {})
  }
}

async function scanWithHelper(trx: Kysely<DB>, plan: Parameters<RangeScan>[0], helper: Promise<ScanPart | null>): Promise<GainColumns[]> {
  const own = await scanRanges(trx, plan, 0, 2)
  const part = await helper
  if (!part) throw new Error('the scan helper ended without its half')
  // Same snapshot, same table: a different size means the agreement above is broken.
  if (part.maxId !== plan.maxId) throw new Error(`the scan helper read another snapshot (max id ${part.maxId}, here ${plan.maxId})`)
  const other = gainColumns()
  for (const key of Object.keys(other) as (keyof GainColumns)[]) other[key] = NumberColumn.adopt(part.chunks[key], part.rows) as never
  return [own, other]
}

async function command(channel: Int32Array, value: number): Promise<void> {
  Atomics.store(channel, COMMAND, value)
  Atomics.notify(channel, COMMAND)
}

/** Waits (without blocking the thread) for the helper's `state`; fails with the helper's end if it ends first. */
async function untilState(channel: Int32Array, state: number, failed: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS
  for (;;) {
    const now = Atomics.load(channel, STATE)
    if (now === state) return
    const left = deadline - Date.now()
    if (left <= 0) throw new Error('the scan helper did not answer')
    const wait = Atomics.waitAsync(channel, STATE, now, left)
    if (!wait.async) continue
    const ended = await Promise.race([wait.value, failed.then((error) => ({ error }))])
    if (typeof ended === 'object') throw ended.error
  }
}

/** Blocks the helper until the coordinator's command is one of `wanted`. */
function untilCommand(channel: Int32Array, wanted: readonly number[]): number {
  const deadline = Date.now() + STEP_TIMEOUT_MS
  for (;;) {
    const now = Atomics.load(channel, COMMAND)
    if (wanted.includes(now)) return now
    const left = deadline - Date.now()
    if (left <= 0 || Atomics.wait(channel, COMMAND, now, left) === 'timed-out') throw new Error('the wage thread did not say when to scan')
  }
}

function setState(channel: Int32Array, state: number): void {
  Atomics.store(channel, STATE, state)
  Atomics.notify(channel, STATE)
}

/**
 * The helper's side (worker.ts, job `scanPart`): starts a snapshot when told, and once told it is the
 * coordinator's, reads its ranges with the plan it reads itself (the same, from the same snapshot).
 */
export async function scanPart(
  db: Kysely<DB>,
  job: { period: string; first: number; step: number; channel: SharedArrayBuffer },
): Promise<{ value: ScanPart | null; transfer?: ArrayBuffer[] }> {
  const channel = new Int32Array(job.channel)
  for (;;) {
    setState(channel, State.Ready)
    if (untilCommand(channel, [Command.Take, Command.Abort]) === Command.Abort) return { value: null }
    const part = await db.transaction().execute(async (trx): Promise<ScanPart | null> => {
      await sql`select 1 from seed_records limit 1`.execute(trx)
      setState(channel, State.Taken)
      const next = untilCommand(channel, [Command.Go, Command.Retry, Command.Abort])
      if (next !== Command.Go) return null
      const rules = await currentRules(trx)
      const plan = await scanPlan(trx, await periodCounters(trx, periodBounds(job.period, rules.timezone)), rules)
      const scanned = await scanRanges(trx, plan, job.first, job.step)
      const chunks = {} as ScanPart['chunks']
      for (const key of Object.keys(scanned) as (keyof GainColumns)[]) chunks[key] = scanned[key].toChunks()
      return { maxId: plan.maxId, rows: scanned.users.length, chunks }
    })
    if (part)
      return { value: part, transfer: Object.values(part.chunks).flatMap((chunks) => chunks.map((chunk) => chunk.buffer as ArrayBuffer)) }
    if (Atomics.load(channel, COMMAND) === Command.Abort) return { value: null }
  }
}
