/** One timed sync of the NexusPHP bench: where its time went, what it read and wrote, and its printout. */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { SyncOutcome, SyncResult } from '../server/src/jobs/sync'
import type { RunningServer } from '../server/src/server'
import type { NexusphpSyncReport } from '../server/src/sources/nexusphp/sync/run'
import type { Source } from '../server/src/sources/source'
import type { Dialect } from './dataset'
import { profiled, type instrumentMysql, type instrumentSqlite } from './nexusphp-instrument'
import type { QueryStats, SyncFigures } from './nexusphp-report'
import { benchDatabaseUrl } from './nexusphp-data'
import { probeTables, TrackerProbe, type ProbeSample, type ProbeWaits } from './tracker-probe'

const log = (line: string) => process.stdout.write(`${line}\n`)

export const rssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024)

export function printWaits(dialect: Dialect, name: string, waits: ProbeWaits): void {
  log(
    `[${dialect}]   tracker wait ${name}: ${probeTables.map((t) => `${t} worst ${waits[t].worstMs} ms, p99 ${waits[t].p99Ms} ms, table lock worst ${waits[t].lockWorstMs} ms, p99 ${waits[t].lockP99Ms} ms (${waits[t].updates} UPDATEs)`).join('; ')}`,
  )
}

export async function timedSync(
  name: string,
  server: RunningServer,
  mysqlStats: ReturnType<typeof instrumentMysql>,
  sqliteStats: ReturnType<typeof instrumentSqlite>,
  profile: boolean,
  sample?: ProbeSample,
): Promise<SyncFigures> {
  const sync = server.app.services.sync
  // The source is private to the runner: wrap its sync to time the source's part of the run.
  const deps = (sync as unknown as { deps: { source: Source } }).deps
  const original = deps.source.sync.bind(deps.source)
  let sourceMs = 0
  let sqliteInSource = 0
  let shapesBefore = new Map<string, { n: number; ms: number }>()
  let shapesAfter = shapesBefore
  let mariadb = { tables: {} as Record<string, QueryStats & { idQueries: number; idRows: number }>, ms: 0 }
  let loop = performance.eventLoopUtilization()
  let report: NexusphpSyncReport | null = null
  const listen = (message: unknown) => void (report = message as NexusphpSyncReport)
  subscribe('seeding:nexusphp-sync', listen)
  deps.source.sync = async (ctx) => {
    const s0 = sqliteStats.read()
    shapesBefore = sqliteStats.shapes()
    const loop0 = performance.eventLoopUtilization()
    const t0 = performance.now()
    try {
      return await original(ctx)
    } finally {
      sourceMs = performance.now() - t0
      loop = performance.eventLoopUtilization(loop0)
      sqliteInSource = sqliteStats.read() - s0
      shapesAfter = sqliteStats.shapes()
      mariadb = mysqlStats.end()
    }
  }
  const probe = sample ? await TrackerProbe.start(benchDatabaseUrl(), sample) : null
  mysqlStats.begin()
  const started = performance.now()
  let result: SyncResult
  let trackerWait: ProbeWaits | undefined
  try {
    result = await profiled(`${name}`, () => sync.runOnce(), profile)
  } finally {
    deps.source.sync = original
    unsubscribe('seeding:nexusphp-sync', listen)
    trackerWait = await probe?.stop()
  }
  const sec = (performance.now() - started) / 1000
  if (!result.ran) throw new Error(`${name} sync did not run: ${result.reason}`)
  const outcome = result as SyncOutcome
  const read = mariadb.tables
  const rowsRead = Object.entries(read).reduce((s, [table, t]) => s + (table.startsWith('(') || table === 'COLUMNS' ? 0 : t.rows), 0)
  const deriveMs = outcome.derive.ms
  const sqliteTop = [...shapesAfter.entries()]
    .map(([shape, v]) => ({ shape, n: v.n - (shapesBefore.get(shape)?.n ?? 0), ms: Math.round(v.ms - (shapesBefore.get(shape)?.ms ?? 0)) }))
    .filter((e) => e.ms > 0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 12)
  return {
    sqliteTop,
    sec,
    rowsRead,
    rowsPerSec: rowsRead / sec,
    read,
    written: outcome.rows,
    split: {
      sourceMs,
      mariadbMs: mariadb.ms,
      waitMs: loop.idle,
      sqliteMs: sqliteInSource,
      otherSourceMs: sourceMs - loop.idle - sqliteInSource,
      deriveMs,
      afterMs: sec * 1000 - sourceMs - deriveMs,
    },
    readAhead: (report as NexusphpSyncReport | null)?.readAhead ?? null,
    steps: (report as NexusphpSyncReport | null)?.steps ?? null,
    windows: (report as NexusphpSyncReport | null)?.windows ?? null,
    derive: {
      full: outcome.derive.full,
      judged: outcome.derive.judged,
      changed: outcome.derive.changed,
      torrents: outcome.derive.torrents,
      steps: outcome.derive.steps,
    },
    rssAfterMiB: rssMiB(),
    load: loadavg()[0],
    trackerWait,
  }
}

export function printSync(dialect: Dialect, name: string, f: SyncFigures): void {
  const s = f.split
  log(
    `[${dialect}] ${name}: ${f.sec.toFixed(2)} s, ${f.rowsRead.toLocaleString('en')} rows read (${Math.round(f.rowsPerSec).toLocaleString('en')} rows/s), peak RSS so far ${f.rssAfterMiB} MiB, load ${f.load.toFixed(1)}`,
  )
  log(
    `[${dialect}]   source ${(s.sourceMs / 1000).toFixed(2)} s = ${Math.round(f.rowsRead / Math.max(1e-3, s.sourceMs / 1000)).toLocaleString('en')} rows/s (MariaDB queries ${(s.mariadbMs / 1000).toFixed(2)} s summed; waiting on it ${(s.waitMs / 1000).toFixed(2)} s, SQLite ${(s.sqliteMs / 1000).toFixed(2)} s, other JS ${(s.otherSourceMs / 1000).toFixed(2)} s; read ahead ${JSON.stringify(f.readAhead)}; paced windows ${JSON.stringify(f.windows ?? {})}) · derivation ${(s.deriveMs / 1000).toFixed(2)} s (${f.derive.judged.toLocaleString('en')} judged, ${f.derive.changed.toLocaleString('en')} written) · snapshot+stats ${(s.afterMs / 1000).toFixed(2)} s`,
  )
  for (const [table, t] of Object.entries(f.read).sort()) {
    log(
      `[${dialect}]     ${table.padEnd(14)} ${String(t.queries).padStart(5)} queries ${t.rows.toLocaleString('en').padStart(10)} rows · ${String(t.idQueries).padStart(4)} id checks ${t.idRows.toLocaleString('en').padStart(9)} ids · ${(t.ms / 1000).toFixed(2).padStart(6)} s`,
    )
  }
  log(`[${dialect}]   steps (ms): ${JSON.stringify(f.steps)}`)
  log(`[${dialect}]   written: ${JSON.stringify(f.written)}`)
  log(`[${dialect}]   SQLite statements while the source ran (top by time):`)
  for (const e of f.sqliteTop.slice(0, 8)) log(`[${dialect}]     ${String(e.ms).padStart(7)} ms ${String(e.n).padStart(7)}×  ${e.shape}`)
  if (f.trackerWait) printWaits(dialect, 'during the sync', f.trackerWait)
}
