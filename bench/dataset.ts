/**
 * The benchmark data set: the demo community at `large` size (2,000 members, 200,000 torrents,
 * ~2,000,000 seed records) built by the server's own first start into bench/.data/, once; later
 * runs reuse it (pass --rebuild to start over).
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { sql } from 'kysely'
import { startServer, type RunningServer } from '../server/src/server'
import { loadConfig } from '../server/src/config'

export const BENCH_ADMIN_PASSWORD = 'Bench-admin-pass-1'
export const dataRoot = join(import.meta.dirname, '.data')

export type Dialect = 'sqlite' | 'postgres'

export interface OpenedDataset {
  server: RunningServer
  /** Where the data set lives, for a server process of its own (bench/server-process.ts `dataset`). */
  location: { dataDir: string; databaseUrl?: string }
  /** Seconds the first start took to generate and derive the data (null when reused). */
  buildSec: number | null
  size: { members: number; torrents: number; records: number; official: number }
}

/** PostgreSQL: a database of its own next to the one DATABASE_URL names. */
async function postgresUrl(base: string, rebuild: boolean): Promise<string> {
  const url = new URL(base)
  const name = 'seeding_bench'
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  try {
    if (rebuild) await admin.query(`drop database if exists ${name} with (force)`)
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (exists.rowCount === 0) await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  url.pathname = `/${name}`
  return url.toString()
}

export async function openDataset(
  dialect: Dialect,
  options: { rebuild: boolean; size: string; log: (line: string) => void },
): Promise<OpenedDataset> {
  const dataDir = join(dataRoot, dialect)
  if (options.rebuild && dialect === 'sqlite') rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const databaseUrl = dialect === 'postgres' ? await postgresUrl(process.env.DATABASE_URL!, options.rebuild) : undefined
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    DEMO_SIZE: options.size,
    LOG_LEVEL: 'warn',
    PORT: '0',
  })
  options.log(`[${dialect}] starting the server (first start generates the ${options.size} demo data set: minutes)…`)
  const started = performance.now()
  let generated = false
  const server = await startServer({
    config,
    scheduleSync: false,
    // Answers are checked against the contract by the tests; production does not check them either.
    checkOutput: false,
    logger: {
      level: 'debug',
      stream: {
        write: (line: string) => {
          if (!line.includes('demo')) return // request logs: pino still formats them, as in production
          if (line.includes('demo community generated')) generated = true
          const { msg, level: _level, time: _time, pid: _pid, hostname: _host, ...rest } = JSON.parse(line) as Record<string, unknown>
          options.log(`[${dialect}]   ${String(msg)} ${JSON.stringify(rest)}`)
        },
      },
    },
  })
  const buildSec = generated ? (performance.now() - started) / 1000 : null
  const { db } = server.app.services.database
  const count = async (query: ReturnType<typeof sql>) => Number(((await query.execute(db)).rows[0] as { n: number }).n)
  const size = {
    members: await count(sql`select count(*) as n from users where role = 'normal'`),
    torrents: await count(sql`select count(*) as n from site_torrents`),
    records: await count(sql`select count(*) as n from seed_records`),
    official: await count(sql`select count(*) as n from torrent_labels where seed_type = 1`),
  }
  return { server, buildSec, size, location: { dataDir, databaseUrl } }
}
