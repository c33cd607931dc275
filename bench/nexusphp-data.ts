/**
 * The NexusPHP benchmark database (the connector at site scale): NexusPHP's tables (server/src/sources/nexusphp/testing/
 * nexusphp-schema-v16.sql, or nexusphp-schema.sql: BENCH_SHAPE) in a MariaDB database of their own, filled with a deterministic site —
 * 20,000 users of whom 2,000 are the team's members, 200,000 torrents (12 release teams, 3 of them
 * official, and an official tag), 1,000,000 snatches (85% the members'), 300,000 peers (a subset of
 * the snatches: seeders and leechers, recent, near the activity window and stale) and claims.
 *
 * DATETIMEs are written relative to the database's own NOW() at generation time (`@base`); a reused
 * database is shifted forward to the current NOW() before every run (`prepareBenchSite`), so a peer
 * that was active at generation is active again. Rows the change step adds are removed, rows it
 * deleted put back. Loaded with LOAD DATA LOCAL INFILE from an in-memory stream (mysql2's
 * `infileStreamFactory`); `--load insert` uses multi-row INSERTs instead (for comparison).
 *
 * Bookkeeping lives in two extra tables the connector never reads: `_bench_meta` and `_bench_members`.
 */
import mysql from 'mysql2/promise'
import { demoTeams, officialDemoTags } from '../server/src/sources/demo/names'
import type { LoadMethod } from './nexusphp-load'

export const SITE = { siteUsers: 20_000, members: 2_000, torrents: 200_000, snatched: 1_000_000, peers: 300_000 } as const
/**
 * The shape of the bench site (NEXUSPHP_BENCH_SHAPE): 'v16' (default), a v1.6 install — MyISAM tables,
 * MEMORY peers, where a long read makes the tracker wait — or 'innodb', a migrated install. Each has its own database.
 */
export const BENCH_SHAPE: 'v16' | 'innodb' = process.env.NEXUSPHP_BENCH_SHAPE === 'innodb' ? 'innodb' : 'v16'
export const BENCH_DATABASE = BENCH_SHAPE === 'innodb' ? 'seeding_bench_nexusphp' : 'seeding_bench_nexusphp_v16'
/** Bumped when the generated data changes: an older database is rebuilt. */
export const GENERATOR_VERSION = 2
export const SEED = 'nexusphp-bench'

export const officialTeamNames = demoTeams.filter((t) => t.official).map((t) => t.name)
export const officialTagNames = officialDemoTags

/** `mysql://root@127.0.0.1:3306` unless NEXUSPHP_BENCH_MYSQL_URL says otherwise (no database in it). */
export function mysqlServerUrl(): string {
  return process.env.NEXUSPHP_BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306'
}

export function benchDatabaseUrl(): string {
  const url = new URL(mysqlServerUrl())
  url.pathname = `/${BENCH_DATABASE}`
  return url.toString()
}

export async function connect(database?: string): Promise<mysql.Connection> {
  const url = new URL(mysqlServerUrl())
  if (database) url.pathname = `/${database}`
  return mysql.createConnection({
    uri: url.toString(),
    multipleStatements: true,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
  })
}

export function officialTeamIds(): number[] {
  return demoTeams.flatMap((t, i) => (t.official ? [i + 1] : []))
}

// ------------------------------------------------------------------------------------ reuse

export interface BenchSiteInfo {
  generatedAt: string
  generationSec: number
  method: LoadMethod
  /** Rows per table as generated. */
  rows: Record<string, number>
  memberUids: number[]
  /** Seconds the clock shift of a reused database took (0 when fresh). */
  shiftSec: number
  shiftedBy: number
}

/** Whether a complete database of this generator's version exists. */
export async function benchSiteExists(): Promise<boolean> {
  const conn = await connect()
  try {
    const [tables] = (await conn.query('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [
      BENCH_DATABASE,
      '_bench_meta',
    ])) as unknown as [unknown[]]
    if (tables.length === 0) return false
    const [rows] = (await conn.query(`SELECT v FROM \`${BENCH_DATABASE}\`._bench_meta WHERE k = 'version'`)) as unknown as [{ v: string }[]]
    return rows[0]?.v === String(GENERATOR_VERSION)
  } finally {
    await conn.end()
  }
}

/**
 * Before a run: undoes the previous run's change step (rows it added go, peers it deleted come back)
 * and moves every date forward by the time since generation / the previous shift, so the site looks
 * as it did when generated, seen from now.
 */
export async function prepareBenchSite(log: (line: string) => void): Promise<BenchSiteInfo> {
  const conn = await connect(BENCH_DATABASE)
  try {
    const [metaRows] = (await conn.query('SELECT k, v FROM _bench_meta')) as unknown as [{ k: string; v: string }[]]
    const meta = Object.fromEntries(metaRows.map((r) => [r.k, r.v]))
    const base = JSON.parse(meta.base_max_ids) as Record<string, number>
    await conn.query(`DELETE FROM claims WHERE id > ${base.claims}; DELETE FROM torrent_tags WHERE id > ${base.torrent_tags};
      DELETE FROM peers WHERE id > ${base.peers}; DELETE FROM snatched WHERE id > ${base.snatched}; DELETE FROM torrents WHERE id > ${base.torrents}; DELETE FROM users WHERE id > ${base.users};
      INSERT INTO peers SELECT * FROM _bench_deleted_peers; DELETE FROM _bench_deleted_peers`)
    const [[{ d }]] = (await conn.query('SELECT TIMESTAMPDIFF(SECOND, ?, NOW()) AS d', [meta.shifted_to])) as unknown as [[{ d: number }]]
    const started = performance.now()
    if (d > 0) {
      const shift = (cols: string[]) => cols.map((c) => `\`${c}\` = \`${c}\` + INTERVAL ${d} SECOND`).join(', ')
      log(`  shifting the site's dates forward by ${(d / 3600).toFixed(1)} h (time since the last run)…`)
      await conn.query(
        `UPDATE users SET ${shift(['added', 'last_login', 'last_access'])};
        UPDATE torrents SET ${shift(['added', 'last_action'])};
        UPDATE tags SET ${shift(['created_at', 'updated_at'])};
        UPDATE torrent_tags SET ${shift(['created_at', 'updated_at'])};
        UPDATE peers SET ${shift(['started', 'last_action', 'prev_action'])}, finishedat = IF(finishedat > 0, finishedat + ${d}, 0);
        UPDATE snatched SET ${shift(['last_action', 'startdat', 'completedat'])};
        UPDATE claims SET ${shift(['last_settle_at', 'created_at', 'updated_at'])};
        UPDATE _bench_meta SET v = DATE_FORMAT(? + INTERVAL ${d} SECOND, '%Y-%m-%d %H:%i:%s') WHERE k = 'shifted_to'`,
        [meta.shifted_to],
      )
    }
    const shiftSec = (performance.now() - started) / 1000
    const [members] = (await conn.query('SELECT uid FROM _bench_members ORDER BY uid')) as unknown as [{ uid: number }[]]
    return {
      generatedAt: meta.generated_at,
      generationSec: Number(meta.generation_sec),
      method: meta.method as LoadMethod,
      rows: JSON.parse(meta.rows) as Record<string, number>,
      memberUids: members.map((m) => m.uid),
      shiftSec,
      shiftedBy: Math.max(0, d),
    }
  } finally {
    await conn.end()
  }
}
