/**
 * `npm run bench:load` — the server under load: the real server (`server/src/index.ts`, as
 * `npm run server` starts it, NODE_ENV=production, LOG_LEVEL=info) in a process of its own on
 * loopback with the demo data, and autocannon at 50 connections against `GET /health`, the
 * dashboard's cached figures and three page-seed cases, one after the other in one run of bounded
 * time. Each case is reported as req/s, p50/p95/p99 and its req/s as a share of /health in the same
 * run (the share is what compares across machines and busy moments); plus the server's peak RSS
 * and the log bytes it wrote per request. Writes bench/results/load-<dialect>[-<label>].json and
 * its section of BENCHMARKS.md.
 *
 *   npm run bench:load                          # SQLite (+ PostgreSQL when DATABASE_URL is set)
 *   npm run bench:load -- --only postgres
 *   npm run bench:load -- --duration 10         # seconds per case (default 10, after 2 s warm-up)
 *   npm run bench:load -- --size small          # demo size (default: default, ~200,000 records)
 *   npm run bench:load -- --label before        # kept as a comparison point (a column of the table)
 *   npm run bench:load -- --server-env ACCESS_LOG=1 --label access-log
 *   npm run bench:load -- --server-root /tmp/before --label before   # the server of another checkout (a git worktree)
 *   npm run bench:load -- --render-only
 */
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { type Dialect } from './dataset'
import { render, type CaseResult, type LoadReport } from './load-report'
import { percentile } from './measure'
import { benchDialects, saveResults, writeSection } from './report'
import { gitCommit, login, procCpuSec, procStatusMb, startServerProcess } from './server-process'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    size: { type: 'string', default: 'default' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    label: { type: 'string' },
    note: { type: 'string' },
    /** KEY=VALUE given to the server process (repeatable), e.g. NODE_ENV=development to measure the output check. */
    'server-env': { type: 'string', multiple: true, default: [] },
    /** The server of another checkout (a git worktree of an earlier commit), for a before/after on one machine. */
    'server-root': { type: 'string' },
    'render-only': { type: 'boolean', default: false },
  },
})
const serverRoot = values['server-root'] ? resolve(values['server-root']) : undefined

const log = (line: string) => process.stdout.write(`${line}\n`)
const duration = Math.max(1, Number(values.duration))
const connections = Math.max(1, Number(values.connections))
const WARMUP_SEC = 2

const sortFields = ['uploaded', 'downloaded', 'seedTimeSec', 'lastAction', 'assignedAt', 'size', 'status']

interface CaseSpec {
  name: string
  method: 'GET' | 'POST'
  path: string
  /** Needs the admin's token. */
  auth: boolean
  body?: object
  /** A body per request instead of `body` (the n-th request of the case gets bodyOf(n)). */
  bodyOf?: (n: number) => object
}
/** One request through fetch: the case must answer code 200 before it is loaded. */
async function callOnce(apiBase: string, token: string, spec: CaseSpec): Promise<unknown> {
  const res = await fetch(apiBase + spec.path, {
    method: spec.method,
    headers: {
      ...(spec.auth ? { 'access-token': token } : {}),
      ...(spec.body || spec.bodyOf ? { 'content-type': 'application/json' } : {}),
    },
    body: spec.body || spec.bodyOf ? JSON.stringify(spec.body ?? spec.bodyOf!(0)) : undefined,
  })
  const envelope = (await res.json()) as { code: number; msg: string; data: unknown }
  if (envelope.code !== 200) throw new Error(`${spec.name}: ${envelope.code} ${envelope.msg}`)
  return envelope.data
}

/** Runs autocannon for `seconds`; returns the answers' times (ms) and the counts. */
function cannon(
  apiBase: string,
  token: string,
  spec: CaseSpec,
  seconds: number,
): Promise<{ times: number[]; requests: number; errors: number; elapsedSec: number }> {
  return new Promise((resolve, reject) => {
    const times: number[] = []
    let bad = 0
    let sent = 1
    const started = performance.now()
    const instance = autocannon(
      {
        url: apiBase + spec.path,
        method: spec.method,
        connections,
        duration: seconds,
        headers: {
          ...(spec.auth ? { 'access-token': token } : {}),
          ...(spec.body || spec.bodyOf ? { 'content-type': 'application/json' } : {}),
        },
        body: spec.body ? JSON.stringify(spec.body) : undefined,
        requests: spec.bodyOf ? [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(spec.bodyOf!(sent++)) }) }] : undefined,
      },
      (error, result) => {
        if (error) return reject(error)
        resolve({
          times,
          requests: times.length,
          errors: bad + result.errors + result.timeouts,
          elapsedSec: (performance.now() - started) / 1000,
        })
      },
    )
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status !== 200) bad++
      times.push(ms)
    })
  })
}

async function measure(dialect: Dialect): Promise<LoadReport> {
  log(`[${dialect}] starting the server (DEMO_SIZE=${values.size}; the first start generates the data set)…`)
  const server = await startServerProcess(dialect, values.size!, { bench: 'load', serverEnv: values['server-env'], root: serverRoot })
  try {
    const token = await login(server.apiBase)
    // A torrent-name word that matches: the first word of a title on the first page.
    const first = (await callOnce(server.apiBase, token, {
      name: 'probe',
      method: 'POST',
      path: '/user/page-seed',
      auth: true,
      body: { page: 1, pageSize: 20 },
    })) as {
      list: { torrentName: string }[]
    }
    const word =
      first.list.map((r) => r.torrentName.split(/[^A-Za-z]+/).find((w) => w.length >= 4)).find(Boolean) ??
      first.list[0].torrentName.slice(0, 6)
    const cases: CaseSpec[] = [
      { name: 'GET /health', method: 'GET', path: '/health', auth: false },
      { name: 'GET /statistics/all-seeding-sta', method: 'GET', path: '/statistics/all-seeding-sta', auth: true },
      { name: 'page-seed first page', method: 'POST', path: '/user/page-seed', auth: true, body: { page: 1, pageSize: 20 } },
      {
        name: 'page-seed status=3 (seeding)',
        method: 'POST',
        path: '/user/page-seed',
        auth: true,
        body: { page: 1, pageSize: 20, status: 3 },
      },
      {
        name: `page-seed torrentName contains`,
        method: 'POST',
        path: '/user/page-seed',
        auth: true,
        body: { page: 1, pageSize: 20, torrentName: word },
      },
      {
        // Every request a page and sort not asked before in the run (10,000 pages × 14 sorts), so none is
        // answered from the answer cache: what a page costs when it has to be read.
        name: 'extra: page-seed, a different page and sort each request',
        method: 'POST',
        path: '/user/page-seed',
        auth: true,
        bodyOf: (n) => ({
          page: (n % 10_000) + 1,
          pageSize: 20,
          orderBy: `${sortFields[Math.floor(n / 10_000) % 7]} ${n % 20_000 < 10_000 ? 'DESC' : 'ASC'}`,
        }),
      },
    ]
    const loadBefore = loadavg()[0]
    const logBefore = server.logBytes()
    // Peak RSS under load (VmHWM would include the first start's data generation).
    let peakRssMb = procStatusMb(server.child.pid!, 'VmRSS')
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb ?? 0, procStatusMb(server.child.pid!, 'VmRSS') ?? 0)), 200).unref()
    let requests = 0
    const results: CaseResult[] = []
    // /health once more at the end: the machine's other work changes during a run, and the shares use
    // the mean of both /health runs.
    for (const spec of [...cases, { ...cases[0], name: 'GET /health (again, last)' }]) {
      await callOnce(server.apiBase, token, spec)
      requests += (await cannon(server.apiBase, token, spec, WARMUP_SEC)).requests
      const serverCpu0 = procCpuSec(server.child.pid!)
      const clientCpu0 = process.cpuUsage()
      const run = await cannon(server.apiBase, token, spec, duration)
      const serverCpu1 = procCpuSec(server.child.pid!)
      const clientCpu = process.cpuUsage(clientCpu0)
      requests += run.requests
      const sorted = run.times.sort((a, b) => a - b)
      const result: CaseResult = {
        name: spec.name,
        method: spec.method,
        path: spec.path,
        body: spec.body,
        requests: run.requests,
        rps: Math.round(run.requests / run.elapsedSec),
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        errors: run.errors,
        serverCpuUs: serverCpu0 === null || serverCpu1 === null ? undefined : Math.round(((serverCpu1 - serverCpu0) * 1e6) / run.requests),
        clientCpuUs: Math.round((clientCpu.user + clientCpu.system) / run.requests),
      }
      results.push(result)
      log(
        `[${dialect}]   ${spec.name}: ${result.rps} req/s, p50 ${result.p50.toFixed(1)} / p95 ${result.p95.toFixed(1)} / p99 ${result.p99.toFixed(1)} ms, CPU per request: server ${result.serverCpuUs ?? '?'} µs, autocannon ${result.clientCpuUs} µs${result.errors ? `, ${result.errors} errors` : ''}`,
      )
    }
    // The log is written synchronously: what is in the pipe by now is all of it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const logBytesPerRequest = Math.round((server.logBytes() - logBefore) / Math.max(1, requests))
    clearInterval(sampler)
    log(`[${dialect}]   peak RSS ${peakRssMb ?? '?'} MB, ${logBytesPerRequest} log bytes per request`)
    return {
      dialect,
      label: values.label ?? null,
      note: values.note ?? null,
      date: new Date().toISOString(),
      commit: gitCommit(serverRoot),
      size: values.size!,
      connections,
      durationSec: duration,
      cores: cpus().length,
      load: [loadBefore, loadavg()[0]],
      peakRssMb,
      logBytesPerRequest,
      cases: results,
    }
  } finally {
    await server.stop()
  }
}

const dialects = benchDialects(values.only)

for (const dialect of values['render-only'] ? [] : dialects) {
  const report = await measure(dialect)
  saveResults('load', dialect, report, values.label)
}
writeSection('load', render(connections))
log('BENCHMARKS.md written')
