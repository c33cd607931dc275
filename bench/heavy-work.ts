/**
 * `npm run bench:heavy` — how long a reader waits while heavy work runs (the target: heavy work never
 * holds the request path). The real server in its own process (bench/server-process.ts, as
 * bench:load starts it) on the demo data; then, phase after phase: no job (the baseline), and each
 * heavy job run over and over through the API for a window — statistics refresh, wage preview, wage
 * compute, a rules change and back (two full derivation passes), a sync — while two request streams
 * run over a few keep-alive connections at a steady rate: `GET /health` and page-seed's first page.
 * A request's time is from sending it to its whole answer; a client never queues requests of its
 * own, so the figures are what one request waited for the server.
 * Prints a table; writes bench/results/heavy-<dialect>[-<label>].json and its section of BENCHMARKS.md.
 *
 *   npm run bench:heavy                                  # SQLite (+ PostgreSQL when DATABASE_URL is set)
 *   npm run bench:heavy -- --only postgres
 *   npm run bench:heavy -- --window 15                   # seconds each job is repeated for (default 15)
 *   npm run bench:heavy -- --size small                  # demo size (default: default, ~200,000 records)
 *   npm run bench:heavy -- --server-root /tmp/before --label before   # the server of another checkout (a git worktree)
 *   npm run bench:heavy -- --source                     # the server from its sources through tsx (default: built, as \`npm run server\` runs it)
 *   npm run bench:heavy -- --render-only
 */
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { type Dialect } from './dataset'
import { ms, render, type HeavyReport, type PhaseResult } from './heavy-report'
import { startStreams, statsOf, STREAMS } from './heavy-streams'
import { benchDialects, saveResults, writeSection } from './report'
import { gitCommit, login, procStatusMb, resetPeakRss, startServerProcess } from './server-process'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    size: { type: 'string', default: 'default' },
    /** Seconds each job is run again and again for (at least once). */
    window: { type: 'string', default: '15' },
    /** Seconds of the no-job baselines (one first, one last). */
    baseline: { type: 'string', default: '10' },
    /** Requests per second of each stream. */
    rate: { type: 'string', default: '20' },
    /** Connections (clients) per stream. */
    connections: { type: 'string', default: '2' },
    /** The wage month (YYYY-MM); default the calendar month before this one (the demo keeps its boundary snapshots). */
    period: { type: 'string' },
    /** Job names to run (comma-separated; default all). */
    jobs: { type: 'string' },
    label: { type: 'string' },
    note: { type: 'string' },
    'server-root': { type: 'string' },
    'server-env': { type: 'string', multiple: true, default: [] },
    'render-only': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
})

const log = (line: string) => process.stdout.write(`${line}\n`)
const windowSec = Math.max(1, Number(values.window))
const baselineSec = Math.max(1, Number(values.baseline))
const rate = Math.max(1, Number(values.rate))
const connections = Math.max(1, Number(values.connections))
const serverRoot = values['server-root'] ? resolve(values['server-root']) : undefined
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
// ---- the heavy jobs -------------------------------------------------------------------------

async function call<T>(apiBase: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(apiBase + path, {
    method,
    headers: { 'access-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const envelope = (await res.json()) as { code: number; msg: string; data: T }
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`)
  return envelope.data
}

interface Job {
  name: string
  run(): Promise<void>
}

function defaultPeriod(): string {
  const now = new Date()
  const month = now.getUTCMonth() // 0-based: the month before this one, 1-based
  return month === 0 ? `${now.getUTCFullYear() - 1}-12` : `${now.getUTCFullYear()}-${String(month).padStart(2, '0')}`
}

function jobsFor(apiBase: string, token: string, period: string): Job[] {
  const jobs: Job[] = [
    { name: 'statistics refresh', run: () => call(apiBase, token, 'GET', '/statistics/refresh-index-statistics-cache') },
    { name: `wage preview ${period}`, run: () => call(apiBase, token, 'POST', '/wages/preview', { period }) },
    { name: `wage compute ${period}`, run: () => call(apiBase, token, 'POST', '/wages/compute', { period }) },
    {
      // A new rule version makes the next pass full: every record re-judged, the first official
      // team's records change seed type; then the rules as they were (a second full pass).
      name: 'rules change + back (2 full derivations)',
      run: async () => {
        const { version: _version, ...rules } = await call<{ version: number; officialTeams: string[] }>(
          apiBase,
          token,
          'GET',
          '/config/rules',
        )
        await call(apiBase, token, 'POST', '/config/rules', { ...rules, officialTeams: rules.officialTeams.slice(1) })
        await call(apiBase, token, 'POST', '/config/rules', rules)
      },
    },
    {
      // Started in the background by the server; done when the status says so.
      name: 'sync (demo source, derivation, snapshot, statistics)',
      run: async () => {
        await call(apiBase, token, 'POST', '/sync/run')
        for (;;) {
          const status = await call<{ running: boolean; lastError: string | null }>(apiBase, token, 'GET', '/sync/status')
          if (!status.running) {
            if (status.lastError) throw new Error(`sync failed: ${status.lastError}`)
            return
          }
          await sleep(100)
        }
      },
    },
  ]
  const wanted = values.jobs?.split(',').map((s) => s.trim())
  return wanted ? jobs.filter((job) => wanted.some((w) => job.name.startsWith(w))) : jobs
}

/** A member the write stream edits (the remark only). */
async function firstMember(apiBase: string, token: string): Promise<number> {
  const res = await fetch(`${apiBase}/user/page-normal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': token },
    body: JSON.stringify({ page: 1, pageSize: 1 }),
  })
  const body = (await res.json()) as { code: number; data: { list: { id: number }[] } }
  if (body.code !== 200 || !body.data.list[0]) throw new Error('no member to edit for the write stream')
  return body.data.list[0].id
}

// ---- a run ----------------------------------------------------------------------------------

async function measure(dialect: Dialect): Promise<HeavyReport> {
  const period = values.period ?? defaultPeriod()
  log(
    `[${dialect}] starting the server${serverRoot ? ` of ${serverRoot}` : ''} (DEMO_SIZE=${values.size}; the first start generates the data set)…`,
  )
  const server = await startServerProcess(dialect, values.size!, {
    bench: 'heavy',
    serverEnv: values['server-env'],
    root: serverRoot,
    built: !values.source,
  })
  try {
    const token = await login(server.apiBase)
    const memberId = await firstMember(server.apiBase, token)
    const jobs = jobsFor(server.apiBase, token, period)
    // Every job once untimed: the caches warm, the first compute of the month is not the measured one.
    log(`[${dialect}] warming up (each job once)…`)
    for (const job of jobs) await job.run()
    const warm = startStreams(server.apiBase, token, { rate, connections, memberId })
    await sleep(2000)
    await warm.stop()

    const loadBefore = loadavg()[0]
    const phases: PhaseResult[] = []
    const pid = server.child.pid!
    // The whole run's peak so far: each phase starts the process's own peak afresh to measure its own.
    let runPeak = procStatusMb(pid, 'VmHWM') ?? 0
    const phase = async (name: string, job: Job | null) => {
      runPeak = Math.max(runPeak, procStatusMb(pid, 'VmHWM') ?? 0)
      const ownPeak = resetPeakRss(pid)
      const streams = startStreams(server.apiBase, token, { rate, connections, memberId })
      const started = performance.now()
      const durations: number[] = []
      if (!job) await sleep(baselineSec * 1000)
      else
        do {
          const t = performance.now()
          await job.run()
          durations.push((performance.now() - t) / 1000)
        } while (performance.now() - started < windowSec * 1000)
      const ended = performance.now()
      // Requests sent while the phase ran; the ones still answering are waited for.
      const samples = (await streams.stop()).filter((s) => s.sent >= started && s.sent <= ended)
      const result: PhaseResult = {
        name,
        runs: durations.length,
        jobSec: durations.length ? { mean: durations.reduce((a, b) => a + b, 0) / durations.length, max: Math.max(...durations) } : null,
        seconds: (ended - started) / 1000,
        streams: Object.fromEntries(STREAMS.map((s) => [s.name, statsOf(samples.filter((x) => x.stream === s.name))])),
        peakRssMb: Math.max(runPeak, procStatusMb(pid, 'VmHWM') ?? 0),
        phasePeakRssMb: ownPeak ? procStatusMb(pid, 'VmHWM') : null,
      }
      phases.push(result)
      const job_ = result.jobSec
        ? `${result.runs} × ${result.jobSec.mean.toFixed(2)} s (max ${result.jobSec.max.toFixed(2)})`
        : `${result.seconds.toFixed(0)} s, no job`
      log(`[${dialect}] ${name}: ${job_} · server peak RSS ${result.peakRssMb ?? '?'} MB (this phase: ${result.phasePeakRssMb ?? '?'} MB)`)
      for (const [stream, st] of Object.entries(result.streams)) {
        log(
          `[${dialect}]     ${stream.padEnd(22)} n ${String(st.n).padStart(4)}  p50 ${ms(st.p50)}  p95 ${ms(st.p95)}  p99 ${ms(st.p99)}  max ${ms(st.max)} ms${st.errors ? `  ${st.errors} errors` : ''}`,
        )
      }
      await sleep(1000)
    }
    await phase('baseline (no job)', null)
    for (const job of jobs) await phase(job.name, job)
    await phase('baseline again (no job, last)', null)
    const peakRssMb = Math.max(runPeak, procStatusMb(pid, 'VmHWM') ?? 0)
    log(`[${dialect}] server peak RSS ${peakRssMb ?? '?'} MB`)
    return {
      dialect,
      label: values.label ?? null,
      note: values.note ?? null,
      date: new Date().toISOString(),
      commit: gitCommit(serverRoot),
      size: values.size!,
      period,
      ratePerStream: rate,
      connections,
      windowSec,
      cores: cpus().length,
      load: [loadBefore, loadavg()[0]],
      peakRssMb,
      built: !values.source,
      phases,
    }
  } finally {
    await server.stop()
  }
}

const dialects = benchDialects(values.only)

for (const dialect of values['render-only'] ? [] : dialects) {
  const report = await measure(dialect)
  saveResults('heavy', dialect, report, values.label)
}
writeSection('heavy', render())
log('BENCHMARKS.md written')
