/**
 * `npm run bench:nexusphp` — the NexusPHP connector at site scale (issue 6): a MariaDB database with
 * NexusPHP's tables, 200,000 torrents, 1,000,000 snatches, 300,000 peers and 2,000 team members
 * (bench/nexusphp-data.ts, built once, reused), synced into a fresh database of ours by the real
 * server running in-process with SOURCE=nexusphp: the full first sync, then an incremental one after
 * 1% of the rows changed, then one with nothing changed. Reports time, rows read from the source per
 * table and rows/s, where the time goes (MariaDB queries, SQLite statements while the source writes
 * the mirror, derivation, the rest), and the peak RSS of the process (the server plus this small
 * driver; the data set is generated in a child process so it does not count).
 * Writes bench/results/nexusphp-<dialect>.json and the "NexusPHP sync" section of BENCHMARKS.md
 * (between its markers; the rest of the file is left as it is).
 *
 *   npm run bench:nexusphp                        # SQLite (+ PostgreSQL if DATABASE_URL is set)
 *   npm run bench:nexusphp -- --only sqlite
 *   npm run bench:nexusphp -- --rebuild           # regenerate the NexusPHP database
 *   npm run bench:nexusphp -- --generate-only [--load insert]   # only (re)build it; --load compares INSERTs with LOAD DATA
 *   npm run bench:nexusphp -- --profile           # also CPU-profile the full and incremental sync (bench/.data/*.cpuprofile)
 *   npm run bench:nexusphp -- --render-only       # rewrite the BENCHMARKS.md section from the saved results
 *
 * MariaDB: NEXUSPHP_BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306); the bench database is
 * `seeding_bench_nexusphp`.
 */
import { spawnSync } from 'node:child_process'
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import pg from 'pg'
import { hashPassword, randomPassword } from '../server/src/auth/password'
import { loadConfig } from '../server/src/config'
import type { AppDatabase } from '../server/src/db/database'
import { bulkInsert } from '../server/src/db/bulk'
import type { SyncOutcome, SyncResult } from '../server/src/jobs/sync'
import { defaultRuleBody, saveRules } from '../server/src/rules/rules'
import { startServer, type RunningServer } from '../server/src/server'
import type { NexusphpSyncReport } from '../server/src/sources/nexusphp/sync/run'
import type { Source } from '../server/src/sources/source'
import { Prng } from '../server/src/sources/demo/prng'
import { BENCH_ADMIN_PASSWORD, dataRoot, type Dialect } from './dataset'
import { benchDialects, resultsFile, savedResults, writeSection } from './report'
import { probeTables, TrackerProbe, type ProbeSample, type ProbeWaits } from './tracker-probe'
import {
  BENCH_DATABASE,
  BENCH_SHAPE,
  benchDatabaseUrl,
  benchSiteExists,
  changeOnePercent,
  connect,
  generateBenchSite,
  officialTagNames,
  officialTeamNames,
  prepareBenchSite,
  SITE,
  type ChangeSummary,
  type LoadMethod,
} from './nexusphp-data'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
    load: { type: 'string', default: 'infile' },
    profile: { type: 'boolean', default: false },
    'render-only': { type: 'boolean', default: false },
  },
})
const log = (line: string) => process.stdout.write(`${line}\n`)
const dialects = benchDialects(values.only)
const ASSIGNMENTS_PER_MEMBER = 2

// ------------------------------------------------------------------------------------ results

interface QueryStats {
  queries: number
  rows: number
  ms: number
}

interface SyncFigures {
  sec: number
  /** Rows of site data the source answered (data rows, not the id-only existence checks). */
  rowsRead: number
  rowsPerSec: number
  /** Per source table: data queries and rows; `ids`: primary-key existence checks (deletions). */
  read: Record<string, QueryStats & { idQueries: number; idRows: number }>
  /** Rows written per mirror table, as the sync reports them. */
  written: Record<string, number>
  /**
   * Milliseconds: the source's part, and inside it: MariaDB query time (summed over queries — they
   * overlap each other and the writes), the time this process waited with nothing to do (the event
   * loop idle: waiting on MariaDB), SQLite statements and the rest of the JS (the loop busy); then
   * the derivation and the rest of the sync.
   */
  split: { sourceMs: number; mariadbMs: number; waitMs: number; sqliteMs: number; otherSourceMs: number; deriveMs: number; afterMs: number }
  /** Source reads started ahead that a step took / step reads nobody started / started reads no step took (read-ahead.ts). */
  readAhead: NexusphpSyncReport['readAhead'] | null
  /** Wall ms per step of the source's sync (sync/run.ts). */
  steps: Record<string, number> | null
  /** Where the paced scan windows of locking tables ended, in ids (sync/pace.ts); absent in older results. */
  windows?: Record<string, number> | null
  derive: { full: boolean; judged: number; changed: number; torrents: number; steps: Record<string, number> }
  rssAfterMiB: number
  load: number
  /** The SQLite statements that took longest while the source wrote the mirror. */
  sqliteTop: { shape: string; n: number; ms: number }[]
  /** Announce-style UPDATEs issued at the source during the sync (tracker-probe.ts): their latency per table. */
  trackerWait?: ProbeWaits
}

interface NexusphpBench {
  dialect: Dialect
  /** The site's shape: 'v16' (MyISAM tables, MEMORY peers) or 'innodb' (a migrated install). */
  shape?: 'v16' | 'innodb'
  /** The same UPDATEs with no sync running, for comparison. */
  trackerIdle?: ProbeWaits
  date: string
  machine: { cores: number; cpu: string; ramGiB: number; node: string; mariadb: string }
  /** The commit measured, and whether the connector's files had uncommitted changes. */
  git: { head: string; dirty: string[] }
  site: {
    rows: Record<string, number>
    members: number
    memberSnatched: number
    memberPeers: number
    memberClaims: number
    officialTorrents: number
    generationSec: number
    method: LoadMethod
  }
  assignments: number
  full: SyncFigures
  second: SyncFigures
  change: Omit<ChangeSummary, 'probe'>
  incremental: SyncFigures
  idle: SyncFigures
  mirror: Record<string, number>
  seedRecords: number
  checks: { name: string; ok: boolean; detail: string }[]
  peakRssMiB: number
}

// ------------------------------------------------------------------------------------ instrumentation

/** mysql2 publishes every query on diagnostics channels: time and rows per statement, by table. */
function instrumentMysql() {
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
function instrumentSqlite(database: AppDatabase) {
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

async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!values.profile) return run()
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

// ------------------------------------------------------------------------------------ the run

const rssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024)

async function postgresUrl(base: string): Promise<string> {
  const url = new URL(base)
  const name = 'seeding_bench_nexusphp'
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  url.pathname = `/${name}`
  return url.toString()
}

/** The MariaDB server's zone now, as an offset (`+00:00`). */
async function databaseZone(): Promise<string> {
  const conn = await connect()
  try {
    const [[{ m }]] = (await conn.query('SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW()) AS m')) as unknown as [[{ m: number }]]
    const minutes = Math.round(Number(m) / 15) * 15
    const abs = Math.abs(minutes)
    return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  } finally {
    await conn.end()
  }
}

async function startBenchServer(dialect: Dialect): Promise<RunningServer> {
  const dataDir = join(dataRoot, `nexusphp-${dialect}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: dialect === 'postgres' ? await postgresUrl(process.env.DATABASE_URL!) : undefined,
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    SOURCE: 'nexusphp',
    NEXUSPHP_DATABASE_URL: benchDatabaseUrl(),
    // The bench site's DATETIMEs are written by MariaDB's NOW(): in the database's own zone.
    NEXUSPHP_TIMEZONE: await databaseZone(),
    LOG_LEVEL: 'warn',
    PORT: '0',
  })
  return startServer({
    config,
    scheduleSync: false,
    checkOutput: false,
    logger: { level: 'warn', stream: { write: (line: string) => log(`[${dialect}] server: ${line.trim()}`) } },
  })
}

/** The team: our members with their site uid (as admins would add them), a few banned; and some assignments. */
async function createMembers(database: AppDatabase, memberUids: number[]): Promise<number> {
  const conn = await connect(BENCH_DATABASE)
  let users: { id: number; username: string }[]
  try {
    ;[users] = (await conn.query(
      `SELECT u.id, u.username FROM users u JOIN _bench_members m ON m.uid = u.id ORDER BY u.id`,
    )) as unknown as [{ id: number; username: string }[]]
  } finally {
    await conn.end()
  }
  if (users.length !== memberUids.length)
    throw new Error(`expected ${memberUids.length} members in the NexusPHP database, found ${users.length}`)
  const now = Date.now()
  const hash = await hashPassword(randomPassword(24))
  const taken = new Set(['admin'])
  await bulkInsert(
    database,
    'users',
    [
      ['username', 'text'],
      ['username_lower', 'text'],
      ['password_hash', 'text'],
      ['role', 'text'],
      ['status', 'smallint'],
      ['site_uid', 'integer'],
      ['created_at', 'bigint'],
      ['updated_at', 'bigint'],
    ],
    users.map((u) => {
      let name = u.username
      while (taken.has(name.toLowerCase())) name = `${u.username}_${u.id}`
      taken.add(name.toLowerCase())
      return [name, name.toLowerCase(), hash, 'normal', u.id % 100 === 0 ? 0 : 2, u.id, now, now]
    }),
  )
  const ids = await database.db.selectFrom('users').select('id').where('site_uid', 'is not', null).orderBy('id').execute()
  const adminId = (await database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id
  // Admins hand out torrents too: two per member, any torrent (most are not official, so the sync must fetch them).
  const rng = new Prng('nexusphp-bench:assignments')
  const pairs = new Map<string, [number, number, number, number]>()
  for (const { id } of ids) {
    for (let k = 0; k < ASSIGNMENTS_PER_MEMBER; k++) {
      const torrent = rng.int(1, SITE.torrents)
      pairs.set(`${id}:${torrent}`, [torrent, id, now - rng.int(0, 90) * 86_400_000, adminId])
    }
  }
  await bulkInsert(
    database,
    'assignments',
    [
      ['torrent_id', 'integer'],
      ['user_id', 'integer'],
      ['assigned_at', 'bigint'],
      ['assigned_by', 'integer'],
    ],
    [...pairs.values()],
  )
  await saveRules(database.db, { ...defaultRuleBody, officialTeams: officialTeamNames, officialTags: officialTagNames }, now, adminId)
  return pairs.size
}

async function siteFacts(): Promise<{
  memberSnatched: number
  memberPeers: number
  memberClaims: number
  officialTorrents: number
  mariadb: string
}> {
  const conn = await connect(BENCH_DATABASE)
  try {
    const one = async (q: string) => Number(((await conn.query(q)) as unknown as [{ n: number }[]])[0][0].n)
    return {
      memberSnatched: await one('SELECT COUNT(*) AS n FROM snatched s JOIN _bench_members m ON m.uid = s.userid'),
      memberPeers: await one('SELECT COUNT(*) AS n FROM peers p JOIN _bench_members m ON m.uid = p.userid'),
      memberClaims: await one('SELECT COUNT(*) AS n FROM claims c JOIN _bench_members m ON m.uid = c.uid'),
      officialTorrents:
        await one(`SELECT COUNT(*) AS n FROM torrents t JOIN teams e ON e.id = t.team WHERE e.name IN (${officialTeamNames.map((n) => conn.escape(n)).join(',')})
        OR t.id IN (SELECT g.torrent_id FROM torrent_tags g JOIN tags a ON a.id = g.tag_id WHERE a.name IN (${officialTagNames.map((n) => conn.escape(n)).join(',')}))`),
      mariadb: String(((await conn.query('SELECT VERSION() AS v')) as unknown as [{ v: string }[]])[0][0].v),
    }
  } finally {
    await conn.end()
  }
}

/** Rows at the source for the tracker probe's UPDATEs: a spread of existing snatches, peers and torrents. */
async function probeSample(): Promise<ProbeSample> {
  const conn = await connect(BENCH_DATABASE)
  try {
    const q = async <T>(text: string) => ((await conn.query(text)) as unknown as [T[]])[0]
    const snatched = await q<{ t: number; u: number }>(
      `SELECT torrentid AS t, userid AS u FROM snatched WHERE id % 499 = 0 AND id <= ${SITE.snatched}`,
    )
    const peers = await q<{ id: number }>(`SELECT id FROM peers WHERE id % 151 = 0 AND id <= ${SITE.peers}`)
    const torrents = await q<{ id: number }>(`SELECT id FROM torrents WHERE id % 97 = 0 AND id <= ${SITE.torrents}`)
    return {
      snatched: snatched.map((r) => [Number(r.t), Number(r.u)]),
      peers: peers.map((r) => Number(r.id)),
      torrents: torrents.map((r) => Number(r.id)),
    }
  } finally {
    await conn.end()
  }
}

/** The probe's UPDATEs for a few seconds with no sync running (the baseline). */
async function idleTrackerWait(sample: ProbeSample): Promise<ProbeWaits> {
  const probe = await TrackerProbe.start(benchDatabaseUrl(), sample)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  return probe.stop()
}

function printWaits(dialect: Dialect, name: string, waits: ProbeWaits): void {
  log(
    `[${dialect}]   tracker wait ${name}: ${probeTables.map((t) => `${t} worst ${waits[t].worstMs} ms, p99 ${waits[t].p99Ms} ms, table lock worst ${waits[t].lockWorstMs} ms, p99 ${waits[t].lockP99Ms} ms (${waits[t].updates} UPDATEs)`).join('; ')}`,
  )
}

async function timedSync(
  name: string,
  server: RunningServer,
  mysqlStats: ReturnType<typeof instrumentMysql>,
  sqliteStats: ReturnType<typeof instrumentSqlite>,
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
    result = await profiled(`${name}`, () => sync.runOnce())
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

function printSync(dialect: Dialect, name: string, f: SyncFigures): void {
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

async function checkIncremental(database: AppDatabase, change: ChangeSummary): Promise<NexusphpBench['checks']> {
  const { db } = database
  const conn = await connect(BENCH_DATABASE)
  const checks: NexusphpBench['checks'] = []
  try {
    const q = async <T>(text: string) => ((await conn.query(text)) as unknown as [T[]])[0]
    const memberPeers = await q<{ id: number; uploaded: number }>(
      `SELECT p.id, p.uploaded FROM peers p JOIN _bench_members m ON m.uid = p.userid WHERE p.id IN (${change.probe.updatedPeerIds.join(',')})`,
    )
    const mirrored = new Map(
      (
        await db
          .selectFrom('site_peers')
          .select(['id', 'uploaded'])
          .where(
            'id',
            'in',
            memberPeers.map((p) => p.id),
          )
          .execute()
      ).map((r) => [r.id, Number(r.uploaded)]),
    )
    const same = memberPeers.filter((p) => mirrored.get(p.id) === Number(p.uploaded)).length
    checks.push({
      name: "updated peers (members')",
      ok: same === memberPeers.length,
      detail: `${same} of ${memberPeers.length} carry the new counters`,
    })
    // Stopped peers: the connector re-checks the active ones every sync; stale ones wait for its rolling check.
    const stopped = await q<{ id: number; stale: number }>(
      `SELECT p.id, p.last_action < NOW() - INTERVAL 65 MINUTE AS stale FROM _bench_deleted_peers p JOIN _bench_members m ON m.uid = p.userid`,
    )
    const stillThere = new Set(
      (
        await db
          .selectFrom('site_peers')
          .select('id')
          .where('id', 'in', stopped.length ? stopped.map((p) => p.id) : [0])
          .execute()
      ).map((r) => r.id),
    )
    const activeStopped = stopped.filter((p) => !Number(p.stale))
    const staleLeft = stopped.filter((p) => Number(p.stale) && stillThere.has(p.id)).length
    const activeLeft = activeStopped.filter((p) => stillThere.has(p.id)).length
    checks.push({
      name: "stopped active peers (members')",
      ok: activeLeft === 0,
      detail: `${activeStopped.length - activeLeft} of ${activeStopped.length} gone from the mirror`,
    })
    checks.push({
      name: "stopped stale peers (members')",
      ok: true,
      detail: `${staleLeft} of ${stopped.length - activeStopped.length} still mirrored; stale, so no effect on statuses`,
    })
    const newPeers = await q<{ n: number }>(`SELECT COUNT(*) AS n FROM peers WHERE id > ${SITE.peers}`)
    const newMirrored = Number(
      (await sql<{ n: number }>`select count(*) as n from site_peers where id > ${SITE.peers}`.execute(db)).rows[0].n,
    )
    checks.push({
      name: 'started peers',
      ok: newMirrored === Number(newPeers[0].n),
      detail: `${newMirrored} of ${newPeers[0].n} in the mirror`,
    })
    const finishing = await q<{ id: number }>(
      `SELECT s.id FROM snatched s JOIN _bench_members m ON m.uid = s.userid WHERE s.id IN (${change.probe.finishedSnatchIds.join(',')})`,
    )
    const finished = finishing.length
      ? await db
          .selectFrom('site_snatched')
          .select('id')
          .where(
            'id',
            'in',
            finishing.map((s) => s.id),
          )
          .where('finished', '=', 1)
          .execute()
      : []
    checks.push({
      name: "finished snatches (members')",
      ok: finished.length === finishing.length,
      detail: `${finished.length} of ${finishing.length} finished in the mirror`,
    })
    const claims = change.probe.addedClaimIds.length
      ? await db.selectFrom('site_claims').select('id').where('id', 'in', change.probe.addedClaimIds).execute()
      : []
    checks.push({
      name: 'new claims',
      ok: claims.length === change.probe.addedClaimIds.length,
      detail: `${claims.length} of ${change.probe.addedClaimIds.length} in the mirror`,
    })
    const tagged = change.probe.addedTagTorrents.length
      ? await db
          .selectFrom('torrent_labels')
          .select('torrent_id')
          .where('torrent_id', 'in', change.probe.addedTagTorrents)
          .where('seed_type', '=', 1)
          .execute()
      : []
    const bigEnough = await q<{ id: number }>(
      `SELECT id FROM torrents WHERE size >= 1073741824 AND id IN (${change.probe.addedTagTorrents.join(',') || 0})`,
    )
    checks.push({
      name: 'newly official (tag)',
      ok: tagged.length === bigEnough.length,
      detail: `${tagged.length} of ${bigEnough.length} (≥ 1 GiB) now official`,
    })
    for (const [table, source, col] of [
      ['site_peers', 'peers', 'userid'],
      ['site_snatched', 'snatched', 'userid'],
      ['site_claims', 'claims', 'uid'],
    ] as const) {
      const n = Number((await q<{ n: number }>(`SELECT COUNT(*) AS n FROM ${source} x JOIN _bench_members m ON m.uid = x.${col}`))[0].n)
      const mirror = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0].n)
      const expected = n + (source === 'peers' ? staleLeft : 0)
      checks.push({
        name: `${source}: members' rows`,
        ok: mirror === expected,
        detail: `${mirror.toLocaleString('en')} in the mirror, ${n.toLocaleString('en')} at the source${source === 'peers' && staleLeft ? ` + ${staleLeft} stale stopped` : ''}`,
      })
    }
  } finally {
    await conn.end()
  }
  return checks
}

// ------------------------------------------------------------------------------------ main

function gitInfo(): NexusphpBench['git'] {
  const run = (args: string[]) => spawnSync('git', args, { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' }).stdout.trim()
  return {
    head: run(['rev-parse', '--short', 'HEAD']),
    dirty: run(['status', '--porcelain', '--', 'server/src'])
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim().replace(/^\S+\s+/, '')),
  }
}

async function ensureSite(): Promise<void> {
  const method = values.load as LoadMethod
  if (method !== 'infile' && method !== 'insert') throw new Error('--load is infile or insert')
  if (!values.rebuild && (await benchSiteExists())) return
  if (values['generate-only']) {
    log(`generating the NexusPHP database \`${BENCH_DATABASE}\` (${method === 'infile' ? 'LOAD DATA LOCAL INFILE' : 'multi-row INSERTs'})…`)
    const outcome = await generateBenchSite({ method, log })
    log(`generated in ${outcome.sec.toFixed(1)} s`)
    return
  }
  // In a child process: the generator's memory must not count in this process's peak RSS.
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--generate-only', '--rebuild', '--load', method],
    { stdio: 'inherit' },
  )
  if (child.status !== 0) throw new Error(`generating the NexusPHP database failed (exit ${child.status})`)
}

if (values['generate-only']) {
  await ensureSite()
  process.exit(0)
}

if (!values['render-only']) {
  mkdirSync(dataRoot, { recursive: true })
  if (!readFileSync(join(import.meta.dirname, '..', 'server', 'src', 'app.ts'), 'utf8').includes('nexusphpSource')) {
    throw new Error(
      'server/src/app.ts does not wire SOURCE=nexusphp to a connector yet: nothing to measure (--generate-only builds the data)',
    )
  }
  await ensureSite()
  const mysqlStats = instrumentMysql()
  for (const dialect of dialects) {
    log(`[${dialect}] preparing the NexusPHP database…`)
    const site = await prepareBenchSite(log)
    const facts = await siteFacts()
    log(
      `[${dialect}] site: ${JSON.stringify(site.rows)}; members' snatches ${facts.memberSnatched.toLocaleString('en')}, peers ${facts.memberPeers.toLocaleString('en')}, claims ${facts.memberClaims.toLocaleString('en')}; official torrents ${facts.officialTorrents.toLocaleString('en')}`,
    )
    const server = await startBenchServer(dialect)
    try {
      const database = server.app.services.database
      const sqliteStats = instrumentSqlite(database)
      const assignments = await createMembers(database, site.memberUids)
      log(
        `[${dialect}] ${site.memberUids.length} members and ${assignments} assignments created; rules: official teams ${officialTeamNames.join(', ')}, tags ${officialTagNames.join(', ')}`,
      )

      const sample = await probeSample()
      const trackerIdle = await idleTrackerWait(sample)
      printWaits(dialect, 'with no sync running', trackerIdle)
      const full = await timedSync('full', server, mysqlStats, sqliteStats, sample)
      printSync(dialect, 'full sync', full)

      // The second sync after a fresh start carries one-time work (the first wage estimates flip members
      // below the minimum, and the derivation re-judges all their records): measured, reported, kept apart.
      const second = await timedSync('second', server, mysqlStats, sqliteStats)
      printSync(dialect, 'second sync (nothing changed at the source)', second)

      const change = await changeOnePercent()
      const { probe, ...changed } = change
      log(`[${dialect}] changed at the source: ${JSON.stringify(changed)}`)
      const incremental = await timedSync('incremental', server, mysqlStats, sqliteStats, sample)
      printSync(dialect, 'incremental sync (1% changed)', incremental)
      const checks = await checkIncremental(database, change)
      for (const c of checks) log(`[${dialect}]   check ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
      const idle = await timedSync('idle', server, mysqlStats, sqliteStats)
      printSync(dialect, 'incremental sync (nothing changed)', idle)

      const { db } = database
      const mirror: Record<string, number> = {}
      for (const table of [
        'site_users',
        'site_teams',
        'site_categories',
        'site_tags',
        'site_torrents',
        'site_torrent_tags',
        'site_peers',
        'site_snatched',
        'site_claims',
      ] as const) {
        mirror[table] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0].n)
      }
      const seedRecords = Number((await sql<{ n: number }>`select count(*) as n from seed_records`.execute(db)).rows[0].n)
      log(`[${dialect}] mirror: ${JSON.stringify(mirror)}; ${seedRecords.toLocaleString('en')} seed records`)
      const peakRssMiB = rssMiB()
      log(`[${dialect}] peak RSS ${peakRssMiB} MiB`)
      const cpu = cpus()
      const result: NexusphpBench = {
        dialect,
        shape: BENCH_SHAPE,
        trackerIdle,
        date: new Date().toISOString(),
        git: gitInfo(),
        machine: {
          cores: cpu.length,
          cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
          ramGiB: Math.round(totalmem() / 1024 ** 3),
          node: process.version,
          mariadb: facts.mariadb,
        },
        site: {
          rows: site.rows,
          members: site.memberUids.length,
          memberSnatched: facts.memberSnatched,
          memberPeers: facts.memberPeers,
          memberClaims: facts.memberClaims,
          officialTorrents: facts.officialTorrents,
          generationSec: site.generationSec,
          method: site.method,
        },
        assignments,
        full,
        second,
        change: changed,
        incremental,
        idle,
        mirror,
        seedRecords,
        checks,
        peakRssMiB,
      }
      if (values.profile) log(`[${dialect}] --profile: results not saved (the profiler slows the run down)`)
      else writeFileSync(resultsFile('nexusphp', dialect), JSON.stringify(result, null, 2))
    } finally {
      await server.close()
    }
  }
}

// ------------------------------------------------------------------------------------ BENCHMARKS.md

const BEGIN = '<!-- nexusphp:begin -->'
const END = '<!-- nexusphp:end -->'
const n = (v: number) => Math.round(v).toLocaleString('en')
const s = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`

function section(): string {
  const lines = [
    BEGIN,
    '## NexusPHP sync',
    '',
    'Measured by `npm run bench:nexusphp` (bench/nexusphp.ts, data from bench/nexusphp-data.ts): a MariaDB database with',
    "NexusPHP's tables — since issue 11 in the shape of a v1.6 install (server/src/sources/nexusphp/testing/",
    'nexusphp-schema-v16.sql: users, torrents, snatched MyISAM, peers MEMORY; `NEXUSPHP_BENCH_SHAPE=innodb` for a migrated',
    'install, nexusphp-schema.sql) — generated once from a seeded PRNG and',
    "reused (dates are moved forward to the database's NOW() before every run), synced by the real server in-process",
    '(`SOURCE=nexusphp`, scheduler off) into a fresh database of ours that holds only the 2,000 members (with their site',
    'uid), 2 assignments each and rules naming the official teams and tag. Four syncs, one after the other: the full',
    'first one; a second with nothing changed at the source; an incremental one',
    'after 1% of the rows changed at the source; one with nothing changed.',
    '"Rows read" are the data rows MariaDB answered (counted on mysql2\'s diagnostics channel), not the id-only existence',
    "checks the connector uses to find deleted rows (shown separately). **What the targets measure** (the owner's call):",
    "the sync rate = rows read / the source's part of the run (reading the source and writing the mirror, in one",
    "timer around the source's sync); the derivation — a separate step, measured on its own in this file — and the whole",
    'sync (source, derivation, snapshot and statistics: `runOnce`) are reported next to it. Same for the incremental',
    "target ≤ 2 s: the source's part, with the whole `runOnce` beside it. The split of the source's part: the time this",
    'process waited with nothing to do (its event loop idle: waiting on MariaDB — and on PostgreSQL, whose driver is',
    'asynchronous, where our database is PostgreSQL), SQLite statements while it writes the mirror (SQLite only: they are',
    "synchronous), the rest (JS) — these three add up to the source part; MariaDB's query time summed over its queries is shown",
    'too (queries overlap one another and the writes: the next page, and in an incremental sync the reads started ahead).',
    "Peak RSS is the process's (the server plus the small driver; the data set is generated in a child process).",
    'Targets (issue 6): full ≥ 50,000 rows/s, incremental ≤ 2 s, server RSS ≤ 500 MB.',
    "**The tracker's wait** (issue 11): during the full and the incremental sync a process of its own",
    '(bench/tracker-probe.ts) issues announce-style UPDATEs at the source — snatched by (torrentid, userid), peers by id,',
    "torrents' seeders/leechers by id — one connection per table, in a loop, and records each one's latency and, from",
    "MariaDB's own profile of the statement, its wait for the table lock (on MyISAM and MEMORY an UPDATE waits for every",
    'read of its table that is running). Target: the worst wait ≤ 50 ms per table, judged on the table-lock wait — the',
    'latency also holds the time the probe or MariaDB waited for a core on this shared machine (see the row with no sync).',
    '',
  ]
  for (const { dialect, result: r } of savedResults<NexusphpBench>('nexusphp')) {
    lines.push(`### ${dialect === 'sqlite' ? 'SQLite (better-sqlite3, WAL)' : 'PostgreSQL'}`, '')
    lines.push(
      `${r.shape === 'v16' ? '**v1.6 site** (MyISAM / MEMORY)' : 'migrated InnoDB site'} · ${r.date.slice(0, 10)} · commit ${r.git.head}${r.git.dirty.length ? ` (+ uncommitted changes in ${r.git.dirty.join(', ')})` : ''} · machine: ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.ramGiB} GB RAM, Node ${r.machine.node}, MariaDB ${r.machine.mariadb.replace(/-.*/, '')} on the same machine · ` +
        `site: ${n(r.site.rows.torrents)} torrents (${n(r.site.officialTorrents)} official), ${n(r.site.rows.snatched)} snatched, ${n(r.site.rows.peers)} peers, ${n(r.site.rows.claims)} claims, ` +
        `${n(r.site.rows.users)} site users of whom ${n(r.site.members)} members (their part: ${n(r.site.memberSnatched)} snatched, ${n(r.site.memberPeers)} peers, ${n(r.site.memberClaims)} claims) · ` +
        `generated in ${r.site.generationSec.toFixed(0)} s with ${r.site.method === 'infile' ? 'LOAD DATA LOCAL INFILE' : 'multi-row INSERTs'} · load average ${r.full.load.toFixed(1)} / ${r.incremental.load.toFixed(1)} after the full / incremental sync`,
      '',
      `| sync | rows read | source part: read + mirror write | sync rows/s | MariaDB queries (summed) | ${dialect === 'sqlite' ? 'waiting on MariaDB | SQLite (mirror writes)' : 'waiting on MariaDB or PostgreSQL | SQLite'} | other (JS) | derivation | snapshot + stats | whole sync (rows/s) | target |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    )
    const syncRate = (f: SyncFigures) => f.rowsRead / Math.max(1e-3, f.split.sourceMs / 1000)
    const row = (name: string, f: SyncFigures, target: string) =>
      `| ${name} | ${n(f.rowsRead)} | **${s(f.split.sourceMs)}** | **${n(syncRate(f))}** | ${s(f.split.mariadbMs)} | ${f.split.waitMs === undefined ? '–' : s(f.split.waitMs)} | ${dialect === 'sqlite' ? s(f.split.sqliteMs) : '–'} | ${s(f.split.otherSourceMs)} | ${s(f.split.deriveMs)} (${n(f.derive.judged)} judged, ${n(f.derive.changed)} written) | ${s(f.split.afterMs)} | ${s(f.sec * 1000)} (${n(f.rowsPerSec)}) | ${target} |`
    lines.push(row('full (first) sync', r.full, `${syncRate(r.full) >= 50_000 ? '✅' : '❌'} ≥ 50,000 rows/s`))
    lines.push(row('second sync, nothing changed', r.second, ''))
    const c = r.change
    lines.push(
      row(
        `incremental, 1% changed (${n(c.total)} rows: ${n(c.peersUpdated)} peers and ${n(c.snatchedUpdated)} snatches announced, ${c.peersDeleted} peers stopped, ${c.peersAdded} started, ${n(c.torrentsUpdated)} torrents' counters, ${c.claimsAdded} claims, ${c.tagsAdded} official tags, …)`,
        r.incremental,
        `${r.incremental.split.sourceMs <= 2000 ? '✅' : '❌'} ≤ 2 s`,
      ),
    )
    lines.push(row('incremental, nothing changed', r.idle, `${r.idle.split.sourceMs <= 2000 ? '✅' : '❌'} ≤ 2 s`))
    lines.push(
      '',
      `Peak RSS: **${r.peakRssMiB} MiB** (after the full sync ${r.full.rssAfterMiB} MiB) — ${r.peakRssMiB <= 500 ? '✅' : '❌'} ≤ 500 MB.`,
      '',
    )
    lines.push(...trackerTable(r))
    lines.push(
      '| source table | rows at the source | read: full | read: incremental | read: nothing changed | existence checks: ids, per-member fingerprints (full / incr. / nothing) | in the mirror |',
      '|---|---:|---:|---:|---:|---:|---:|',
    )
    const mirrorOf: Record<string, string> = {
      users: 'site_users',
      teams: 'site_teams',
      categories: 'site_categories',
      tags: 'site_tags',
      torrents: 'site_torrents',
      torrent_tags: 'site_torrent_tags',
      peers: 'site_peers',
      snatched: 'site_snatched',
      claims: 'site_claims',
    }
    for (const [table, mirror] of Object.entries(mirrorOf)) {
      const get = (f: SyncFigures) => f.read[table] ?? { queries: 0, rows: 0, ms: 0, idQueries: 0, idRows: 0 }
      const [a, b, d] = [get(r.full), get(r.incremental), get(r.idle)]
      lines.push(
        `| ${table} | ${n(r.site.rows[table] ?? 0)} | ${n(a.rows)} | ${n(b.rows)} | ${n(d.rows)} | ${n(a.idRows)} / ${n(b.idRows)} / ${n(d.idRows)} | ${n(r.mirror[mirror] ?? 0)} |`,
      )
    }
    lines.push(
      '',
      `Checks after the incremental sync: ${r.checks.map((k) => `${k.ok ? '✅' : '❌'} ${k.name} (${k.detail})`).join('; ')}.`,
      '',
    )
  }
  lines.push(NOTES, END)
  return lines.join('\n')
}

/** The tracker's wait during the syncs (tracker-probe.ts), per table. */
function trackerTable(r: NexusphpBench): string[] {
  if (!r.full.trackerWait || !r.incremental.trackerWait) return []
  const cell = (w: ProbeWaits[keyof ProbeWaits] | undefined) =>
    w ? `${w.worstMs} / ${w.p99Ms} ms · lock **${w.lockWorstMs}** / ${w.lockP99Ms} ms (${n(w.updates)})` : '–'
  const lines = [
    `Tracker's wait on this ${r.shape === 'innodb' ? 'migrated InnoDB' : 'v1.6 (MyISAM / MEMORY)'} site — announce-style UPDATEs: latency worst / p99 · table-lock wait worst / p99 (UPDATEs issued):`,
    '',
    '| table | no sync running | during the full sync | during the incremental sync | target: worst table-lock wait ≤ 50 ms |',
    '|---|---|---|---|---|',
  ]
  for (const table of probeTables) {
    const worst = Math.max(r.full.trackerWait[table].lockWorstMs, r.incremental.trackerWait[table].lockWorstMs)
    lines.push(
      `| ${table} | ${cell(r.trackerIdle?.[table])} | ${cell(r.full.trackerWait[table])} | ${cell(r.incremental.trackerWait[table])} | ${worst <= 50 ? '✅' : '❌'} ${worst} ms |`,
    )
  }
  lines.push('')
  return lines
}

const NOTES = `**The tracker's wait on a v1.6 site** (issue 11; SQLite, this machine, session of 2026-11-24 — in every run the
load average was 11–13 on the 2 cores, other engineers' test runs). Before (commit 1ebf8dd: each table read in as few
statements as possible — the incremental sync scanned the 1 M snatches in one statement, MEMORY peers by \`ORDER BY id\`
over a hash key): during the incremental sync an announce UPDATE of snatched took up to **3,983 ms**, of torrents
**1,905 ms**, of peers 468 ms; during the full sync up to 487 ms on all three (latency; that run did not profile the lock
wait yet); the source's part of the full sync 45.3 s = 36,108 rows/s, of the incremental 7.1 s. After, step by step:
- Primary-key scans read id windows; MEMORY peers (hash keys: no id ranges) go through their member index, a few members
  at a time; torrents by id are lookups (\`FORCE INDEX (PRIMARY)\`: a small table was scanned instead). 20,000-id windows
  in two side-by-side ranges: incremental lock waits up to 213 / 36 / 163 ms (snatched / peers / torrents), p99 156 ms on
  snatched.
- \`SQL_BUFFER_RESULT\` (the lock released before the rows are sent) and 10,000-id windows, one range at a time: MariaDB's
  time doubled (source part of the full sync 50 → 101 s) and the waits with it — dropped (on loopback the answers fit the
  socket buffers anyway).
- 4,000-id windows: up to 672 / 192 / 41 ms. A window of 4,000 ids took 13–49 ms of MariaDB's time on this machine, one of
  2,000 4–14 ms (the statements' own profile): 2,000-id windows, 500 ids per torrent lookup, 25 members per peers lookup —
  incremental 93 / 73 / 43 ms worst, p99 31 / 19 / 14 ms.
- The rows of consecutive windows are gathered into pages of 5,000 before they are written (as many transactions here as
  before): full sync source part 105.4 s = 15,526 rows/s, lock waits worst 242 / 110 / 100 ms (load 12). Its cost: the
  full sync's source part read the site in 1,443 statements one after the other (433 before).
- Paced windows (\`sync/pace.ts\`; commit 1a1cb33, load 6–7.5): start at 2,000 ids, halve when
  two statements in a row take over 20 ms (then down to 250), grow by a quarter when three stay under 10 ms (up to 8,000).
  On this loaded machine they shrank: the full sync read the site in 3,983 statements (source part 94.3 s = 17,378
  rows/s), lock waits worst 114 / 103 / 64 ms, p99 9.6 / 0 / 1.2 ms; the incremental one's source part 24.2 s (14.3 s
  before), worst 168 / 44 / 95 ms. Under a CPU shortage a window of 250 ids held the lock about as long as one of 2,000
  (the wait is for a core, not for rows) and only multiplied the statements: since then the pace never goes below its
  start.
- **The run in the table above** (commit ceb2313, the machine quiet: load 0.7 before, 2.5 after the full sync): with the
  site answering fast the windows grew (to 2,500–6,100 ids; 1,377 statements for the full sync). Full sync: source part
  25.3 s = **64,774 rows/s** ✅; the tracker's table-lock wait worst **27.7 / 19.9 / 17.0 ms** (snatched / peers /
  torrents), p99 6.4 / 0 / 0.5 ms ✅. Incremental, 1% changed: worst **17.1 / 9.3 / 12.2 ms** ✅, source part 5.3 s (the
  ≤ 2 s of issue 6 is still missed on this shape). With no sync, the same UPDATEs took up to 4 ms.
- Tried and dropped: two windows at a time (both short) — no faster on this machine (full source part 108.6 s) and lock
  waits up to 323 ms on torrents.
Why the worst case stays above 50 ms on a loaded machine: with the load at 6–12 on 2 cores the thread holding a read lock is descheduled
for tens of ms at a time, and the UPDATE waits for it too — with no sync at all the same UPDATEs took up to 15–215 ms on
this machine across the runs (the "no sync" column). The p99 is the steady state.
**The price, and what is not met**: on the v1.6 site the windows cost sync rate — the full sync's source part went from
45.3 s (36,108 rows/s) before to 105.4 s (15,526 rows/s), the incremental one from 7.1 s to 14.3 s (MariaDB's summed
time 21 → 48 s: 1,443 statements against 433; the SQLite part moved between 20 and 60 s across runs with the machine's
load). On the loaded machine neither the ≥ 50,000 rows/s target nor the ≤ 50 ms worst lock wait was met; on the quiet one
(the table above, paced windows) both are. On a migrated InnoDB site, whose reads lock
nothing, the windows do not apply (the rates of earlier sessions, below, stand). The notes below this paragraph are from
earlier sessions, on the migrated InnoDB shape.

**Before → after** (SQLite, this machine, session of 2026-11-22; before = commit 9b534db, after = the run above;
load 1.0–1.5 on 2 cores in both): the source's part of the full sync 25.8–29.6 s → 15.8–18.9 s (55,000–63,000 →
86,000–104,000 rows/s over five runs), the incremental one with 1% changed 2.8–2.9 s → 1.5–1.8 s, with nothing
changed 1.9 s → 1.1 s. Earlier: commit b8d9311 took 33.6 s and 3.9 s, commit 771d302 111.9 s and 16.4 s. What
changed, each measured on its own:
- SQLite keyed peers, snatched and claims by \`bigint primary key\`, which is not SQLite's rowid: each kept a hidden
  rowid and a second b-tree for \`id\`, and the (userid, …) indexes could not cover \`id\` — the deletion check's
  per-member fingerprint over 282,000 peers read every table row (0.27–0.33 s, now ~25 ms). Migration 0011 rebuilds
  them with \`integer primary key\`.
- The first import now builds the members' tables' unique keys after the load too (SQLite). Kept, each page's
  random inserts into (userid, torrentid) dirtied thousands of index pages per commit: ~1.1 GB of WAL for 850,000
  snatches against 64 MB, and 3× the insert time (site_snatched 5.8–11.6 s → ~2.1 s; the key is built in ~0.8 s).
  A row the site re-created meanwhile cannot be refused then: the rebuild keeps the newest of a key (db/bulk.ts).
- WAL checkpoints during a sync only past 64 MiB of log and once at its end (db/wal.ts), instead of past every
  4 MiB (they copied and synced the same pages again and again): an incremental sync checkpoints once. (No
  checkpoint at all until the end, tried first, let the log reach 7.5 GB in a large demo sync and slowed it 35%.)
- Read-ahead in incremental syncs (sync/read-ahead.ts): every step's first source read starts before the writes,
  and the members' changed rows of a table are read in two id ranges on the pool's two connections; MariaDB then
  works while SQLite writes (idle time of this process 1.4 s → 0.6 s).
- The members' scans no longer force the primary key: the member index is ignored instead, so MariaDB can take
  peers' last_action index when few rows changed (~2 ms against ~0.15 s for the scan; measured on the bench site).
- Upserts leave key and pair columns out of the SET when they equal the stored ones (SQLite updates every index on
  a SET column; a 9,000-snatch upsert 258 → 151 ms), and the torrent-name trigger fires only on a real rename
  (migration 0012: seeder counts re-indexed ~2,000 names a sync).
Tried and dropped: first-import pages of 20,000 rows (no gain, session 2).

**Where the full sync's source part goes** (~16–19 s): waiting on MariaDB ~4 s (the next page is read while one is
written; members' rows by keyset on \`id\`, the (userid) index ignored: a primary-key scan of each table); SQLite
~8 s — site_snatched 850,000 rows ~2.1 s, peers ~0.7 s, the torrent-name FTS rebuild ~0.8 s, the index builds
~2 s, commits ~0.4 s; JS ~5–6 s (mysql2's row parsing, reader.ts converting rows in place, mirror.ts's check).
The derivation (59–70 s, 884,599 records) is a separate step with its own section; the whole first sync is in the
table next to the sync rate.

**Where the incremental sync's source part goes** (~1.5–1.8 s with 1% changed): waiting on MariaDB ~0.6 s — the
critical path is the scan of snatched (1 M rows, no index on last_action in NexusPHP; ~0.1 s when the machine is
quiet, 0.3–0.6 s while this process writes on the other core); SQLite ~0.5 s (the upserts of ~12,000 rows, 20
commits); JS ~0.3 s. The 60-second watermark slack re-reads the rows changed in the minute before the previous
sync (the bench runs its syncs back to back, so "nothing changed" still reads ~23,000 rows). The derivation adds
~2 s for ~12,200 judged pairs; the whole runOnce is in the table.

**PostgreSQL** (the same site into our database on the local PostgreSQL 15): the first import takes the same bulk path
since this session — \`unnest\` arrays with \`on conflict (id)\` instead of the upsert, the members' unique keys built
after the load: the source part 109.5 s → 47.1 s → 32.5 s (14,900 → 34,800 → 50,300 rows/s) over those two steps; what
remains is PostgreSQL's inserts (the idle time, ~17 s) and the pg driver's array serialisation (JS ~15 s). The
incremental source part is 2.0–2.1 s — just at the target; every statement is a round trip there. The derivation after
the incremental sync takes 9–12 s on PostgreSQL against ~2 s on SQLite, most of it in its torrents step (~7 s in the
run, ~0.5 s for the same statements run by hand afterwards: autovacuum of the freshly imported tables was running
alongside) — not investigated further this session.

**Memory** ✅: pages of 5,000 source rows; the peak (360–390 MiB over the runs) is mostly SQLite's page cache and
the V8 heap.

**Correctness** (not a target, checked in passing): after the incremental sync the mirror holds exactly the members'
rows of the source, and the changed counters, finished snatches, stopped and started peers, new claims and newly
official torrents are all there.

**The data set**: loaded with LOAD DATA LOCAL INFILE from an in-memory stream (mysql2's \`infileStreamFactory\`):
15–90 s for the 1.8 M rows depending on the machine's load; multi-row INSERTs of 2,000 rows took 109 s
(\`--load insert\`, measured once). Timings move with the load of the machine (other engineers' work on these 2
cores): the ranges above are over this session's runs.`

writeSection('nexusphp', section())
log('BENCHMARKS.md: NexusPHP sync section written')
