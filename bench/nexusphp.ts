/**
 * `npm run bench:nexusphp` — the NexusPHP connector at site scale: a MariaDB database with
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
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { dataRoot } from './dataset'
import { benchDialects, resultsFile, writeSection } from './report'
import { changeOnePercent } from './nexusphp-change'
import { checkIncremental } from './nexusphp-checks'
import { BENCH_DATABASE, BENCH_SHAPE, benchSiteExists, officialTagNames, officialTeamNames, prepareBenchSite } from './nexusphp-data'
import { generateBenchSite } from './nexusphp-generate'
import { instrumentMysql, instrumentSqlite } from './nexusphp-instrument'
import type { LoadMethod } from './nexusphp-load'
import { section, type NexusphpBench } from './nexusphp-report'
import { createMembers, idleTrackerWait, probeSample, siteFacts, startBenchServer } from './nexusphp-setup'
import { printSync, printWaits, rssMiB, timedSync } from './nexusphp-timed-sync'
import { mirrorTables } from '../server/src/sources/mirror/columns'

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
      const full = await timedSync('full', server, mysqlStats, sqliteStats, values.profile, sample)
      printSync(dialect, 'full sync', full)

      // The second sync after a fresh start carries one-time work (the first wage estimates flip members
      // below the minimum, and the derivation re-judges all their records): measured, reported, kept apart.
      const second = await timedSync('second', server, mysqlStats, sqliteStats, values.profile)
      printSync(dialect, 'second sync (nothing changed at the source)', second)

      const change = await changeOnePercent()
      const { probe, ...changed } = change
      log(`[${dialect}] changed at the source: ${JSON.stringify(changed)}`)
      const incremental = await timedSync('incremental', server, mysqlStats, sqliteStats, values.profile, sample)
      printSync(dialect, 'incremental sync (1% changed)', incremental)
      const checks = await checkIncremental(database, change)
      for (const c of checks) log(`[${dialect}]   check ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
      const idle = await timedSync('idle', server, mysqlStats, sqliteStats, values.profile)
      printSync(dialect, 'incremental sync (nothing changed)', idle)

      const { db } = database
      const mirror: Record<string, number> = {}
      for (const table of mirrorTables) {
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

writeSection('nexusphp', section())
log('BENCHMARKS.md: NexusPHP sync section written')
