/**
 * The tracker's side of a sync (a sync must not stall the site's tracker): while a sync runs, a process of its own (so this process's
 * busy event loop does not count) issues announce-style UPDATEs — snatched by (torrentid, userid),
 * peers by id, torrents' seeders/leechers by id — each table on its own connection, in a loop, and
 * records how long each one took. On a v1.6 site (MyISAM, MEMORY peers) an UPDATE waits for every
 * read of its table that is running: the worst of these waits is what the tracker suffers.
 *
 * The UPDATEs leave the data as it is (`SET x = x`): they take the same table lock as a real
 * announce, and the sync's results stay comparable. Each one's latency is measured here, and its
 * wait for the table lock by MariaDB itself (the session's profile, `Waiting for table level lock`):
 * on a shared machine the latency also holds the time the probe or MariaDB waited for a core.
 *
 *   const probe = await TrackerProbe.start(url, sample)   // in the bench process
 *   … the sync …
 *   const waits = await probe.stop()
 */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import mysql from 'mysql2/promise'

export type ProbeTable = 'snatched' | 'peers' | 'torrents'
export const probeTables: readonly ProbeTable[] = ['snatched', 'peers', 'torrents']

/** Rows the UPDATEs aim at (existing ones, so each finds its row as an announce does). */
export interface ProbeSample {
  snatched: [number, number][]
  peers: number[]
  torrents: number[]
}

export interface TableWaits {
  updates: number
  /** Latency of the UPDATEs as the client saw it. */
  worstMs: number
  p99Ms: number
  medianMs: number
  /** Of which waiting for the table lock, as MariaDB profiled it. */
  lockWorstMs: number
  lockP99Ms: number
}
export type ProbeWaits = Record<ProbeTable, TableWaits>

/** Pause between one table's UPDATEs: a few hundred announces a second per table, without taking a core. */
const GAP_MS = 4

const statements: Record<ProbeTable, string> = {
  snatched: 'UPDATE snatched SET uploaded = uploaded, last_action = last_action WHERE torrentid = ? AND userid = ?',
  peers: 'UPDATE peers SET uploaded = uploaded, last_action = last_action WHERE id = ?',
  torrents: 'UPDATE torrents SET seeders = seeders, leechers = leechers WHERE id = ?',
}

const round = (v: number) => Math.round(v * 100) / 100

/** [worst, p99, median] */
function quantiles(values: number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0)
  return [round(sorted[sorted.length - 1] ?? 0), round(at(0.99)), round(at(0.5))]
}

function summarise(latencies: number[], lockWaits: number[]): TableWaits {
  const [worstMs, p99Ms, medianMs] = quantiles(latencies)
  const [lockWorstMs, lockP99Ms] = quantiles(lockWaits)
  return { updates: latencies.length, worstMs, p99Ms, medianMs, lockWorstMs, lockP99Ms }
}

/** The last statement's wait for table locks (ms), from the session's profile. */
const lockWaitOfLast = `SELECT COALESCE(SUM(DURATION), 0) * 1000 AS ms FROM information_schema.PROFILING
  WHERE QUERY_ID = (SELECT MAX(QUERY_ID) FROM information_schema.PROFILING) AND STATE LIKE 'Waiting for table%'`

/** The child's loop: one connection per table until the parent says stop. */
async function runProbe(url: string, sample: ProbeSample): Promise<void> {
  let stopping = false
  process.on('message', (m) => {
    if (m === 'stop') stopping = true
  })
  const conns = await Promise.all(probeTables.map(() => mysql.createConnection({ uri: url })))
  for (const conn of conns) await conn.query('SET profiling = 1')
  const loops = probeTables.map(async (table, t) => {
    const conn = conns[t]
    const latencies: number[] = []
    const lockWaits: number[] = []
    try {
      for (let i = 0; !stopping; i++) {
        const values = table === 'snatched' ? sample.snatched[i % sample.snatched.length] : [sample[table][i % sample[table].length]]
        const t0 = performance.now()
        await conn.query(statements[table], values)
        latencies.push(performance.now() - t0)
        const [rows] = (await conn.query(lockWaitOfLast)) as unknown as [{ ms: string | number }[]]
        lockWaits.push(Number(rows[0]?.ms ?? 0))
        await new Promise((resolve) => setTimeout(resolve, GAP_MS))
      }
    } finally {
      await conn.end()
    }
    return [table, summarise(latencies, lockWaits)] as const
  })
  process.send!({ ready: true })
  const waits = Object.fromEntries(await Promise.all(loops)) as ProbeWaits
  process.send!({ waits }, () => process.exit(0))
}

export class TrackerProbe {
  private constructor(
    private readonly child: ChildProcess,
    private readonly done: Promise<ProbeWaits>,
  ) {}

  /** Starts the child and resolves once its connections are open and the loops run. */
  static async start(url: string, sample: ProbeSample): Promise<TrackerProbe> {
    const child = fork(fileURLToPath(import.meta.url), ['--probe'], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let ready!: () => void
    const started = new Promise<void>((resolve) => (ready = resolve))
    const done = new Promise<ProbeWaits>((resolve, reject) => {
      child.on('message', (m: { ready?: boolean; waits?: ProbeWaits }) => {
        if (m.ready) ready()
        if (m.waits) resolve(m.waits)
      })
      child.on('exit', (code) => reject(new Error(`the tracker probe exited (${code}) before reporting`)))
    })
    done.catch(() => {})
    child.send({ url, sample })
    await Promise.race([started, done])
    return new TrackerProbe(child, done)
  }

  async stop(): Promise<ProbeWaits> {
    this.child.send('stop')
    return this.done
  }
}

if (process.argv.includes('--probe')) {
  process.once('message', (m: { url: string; sample: ProbeSample }) => void runProbe(m.url, m.sample))
}
