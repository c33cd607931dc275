/**
 * Setup of a NexusPHP sync bench run: our server in-process with SOURCE=nexusphp on a fresh database,
 * the team's members and assignments in it, and facts and probe samples read from the bench site.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { hashPassword, randomPassword } from '../server/src/auth/password'
import { loadConfig } from '../server/src/config'
import type { AppDatabase } from '../server/src/db/database'
import { bulkInsert } from '../server/src/db/bulk'
import { defaultRuleBody, saveRules } from '../server/src/rules/rules'
import { startServer, type RunningServer } from '../server/src/server'
import { Prng } from '../server/src/sources/demo/prng'
import { BENCH_ADMIN_PASSWORD, dataRoot, type Dialect } from './dataset'
import { BENCH_DATABASE, benchDatabaseUrl, connect, officialTagNames, officialTeamNames, SITE } from './nexusphp-data'
import { TrackerProbe, type ProbeSample, type ProbeWaits } from './tracker-probe'

const log = (line: string) => process.stdout.write(`${line}\n`)
const ASSIGNMENTS_PER_MEMBER = 2

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

export async function startBenchServer(dialect: Dialect): Promise<RunningServer> {
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
    // The bench times the source's part and traces its queries in this process.
    syncThread: false,
    checkOutput: false,
    logger: { level: 'warn', stream: { write: (line: string) => log(`[${dialect}] server: ${line.trim()}`) } },
  })
}

/** The team: our members with their site uid (as admins would add them), a few banned; and some assignments. */
export async function createMembers(database: AppDatabase, memberUids: number[]): Promise<number> {
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

export async function siteFacts(): Promise<{
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
export async function probeSample(): Promise<ProbeSample> {
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
export async function idleTrackerWait(sample: ProbeSample): Promise<ProbeWaits> {
  const probe = await TrackerProbe.start(benchDatabaseUrl(), sample)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  return probe.stop()
}
