/**
 * Instrumentation of the NexusPHP sync bench: MariaDB query time and rows per source table (mysql2's
 * diagnostics channels), SQLite statement time by shape (better-sqlite3 is synchronous, so exact), and an
 * optional CPU profile of a sync.
 */
import { tracingChannel } from 'node:diagnostics_channel'
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { AppDatabase } from '../server/src/db/database'
import { dataRoot } from './dataset'
import type { QueryStats } from './nexusphp-report'

const log = (line: string) => process.stdout.write(`${line}\n`)

/** mysql2 publishes every query on diagnostics channels: time and rows per statement, by table. */
export function instrumentMysql() {
  let current: Map<string, QueryStats & { idQueries: number; idRows: number }> | null = null
  let ms = 0
  const started = new WeakMap<object, number>()
  const subscribers = {
    start(ctx: object) {
      started.set(ctx, performance.now())
    },
    asyncEnd(ctx: object) {
      const t0 = started.get(ctx)
      if (t0 === undefined || !current) return
      const elapsed = performance.now() - t0
      ms += elapsed
      const { query, result } = ctx as { query?: string; result?: unknown }
      const text = String(query ?? '')
      const table = /\bFROM\s+`?(\w+)`?/i.exec(text)?.[1] ?? (/^\s*SET\b/i.test(text) ? '(session)' : '(other)')
      const entry = current.get(table) ?? { queries: 0, rows: 0, ms: 0, idQueries: 0, idRows: 0 }
      const rows = Array.isArray(result) ? result.length : 0
      // Existence checks: id lists, and the per-member fingerprints of the deletion check.
      if (/^\s*SELECT\s+(id\s+FROM|\w+\s+AS\s+u,\s+COUNT\(\*\))/i.test(text)) {
        entry.idQueries++
        entry.idRows += rows
      } else {
        entry.queries++
        entry.rows += rows
      }
      entry.ms += elapsed
      current.set(table, entry)
    },
    end() {},
    asyncStart() {},
    error() {},
  }
  for (const name of ['mysql2:query', 'mysql2:execute']) tracingChannel(name).subscribe(subscribers)
  return {
    begin() {
      current = new Map()
      ms = 0
    },
    end() {
      const out = { tables: Object.fromEntries(current ?? []), ms }
      current = null
      return out
    },
  }
}

/** Time spent inside SQLite statements (synchronous in better-sqlite3, so exact), by statement shape. */
export function instrumentSqlite(database: AppDatabase) {
  const raw = database.sqlite
  const totals = { ms: 0 }
  const byShape = new Map<string, { n: number; ms: number }>()
  if (!raw) return { read: () => 0, shapes: () => new Map<string, { n: number; ms: number }>() }
  const prepare = raw.prepare.bind(raw)
  const timed = <F extends (...args: never[]) => unknown>(fn: F, self: object, shape: string): F =>
    function (this: unknown, ...args: Parameters<F>) {
      const t0 = performance.now()
      try {
        return fn.apply(self, args)
      } finally {
        const ms = performance.now() - t0
        totals.ms += ms
        const entry = byShape.get(shape) ?? { n: 0, ms: 0 }
        entry.n++
        entry.ms += ms
        byShape.set(shape, entry)
      }
    } as F
  ;(raw as { prepare: typeof raw.prepare }).prepare = ((source: string) => {
    const t0 = performance.now()
    const statement = prepare(source)
    totals.ms += performance.now() - t0
    const shape = source
      .replace(/\s+/g, ' ')
      .replace(/\d+/g, 'N')
      .replace(/(\(N(, N)*\)|N, N(, N)+)/g, '…')
      .slice(0, 90)
    for (const method of ['run', 'all', 'get'] as const) {
      const original = statement[method] as (...args: never[]) => unknown
      Object.defineProperty(statement, method, { value: timed(original, statement, shape) })
    }
    return statement
  }) as typeof raw.prepare
  // A copy of the counters (the live entries keep growing).
  return { read: () => totals.ms, shapes: () => new Map([...byShape].map(([k, v]) => [k, { ...v }])) }
}

/** Runs `run`, CPU-profiled when `enabled` (bench/.data/nexusphp-<name>.cpuprofile, summary printed). */
export async function profiled<T>(name: string, run: () => Promise<T>, enabled: boolean): Promise<T> {
  if (!enabled) return run()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 1000 })
  await session.post('Profiler.start')
  try {
    return await run()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    const file = join(dataRoot, `nexusphp-${name}.cpuprofile`)
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
    summariseProfile(profile, name, file)
  }
}

/** Top self time by function (what --cpu-prof would show), printed. */
function summariseProfile(
  profile: {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
    samples?: number[]
    timeDeltas?: number[]
  },
  name: string,
  file: string,
): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  let total = 0
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i])
    if (!node) continue
    const { functionName, url, lineNumber } = node.callFrame
    const where = url ? `${url.replace(/^.*\/(node_modules|server\/src|bench)\//, '$1/')}:${lineNumber + 1}` : ''
    const key = `${functionName || '(anonymous)'} ${where}`.trim()
    const us = deltas[i] ?? 0
    self.set(key, (self.get(key) ?? 0) + us)
    total += us
  }
  log(`  profile ${name}: ${(total / 1e6).toFixed(1)} s sampled → ${file}; top self time:`)
  for (const [key, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    log(`    ${(us / 1e3).toFixed(0).padStart(7)} ms  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`)
}
