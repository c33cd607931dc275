/**
 * The connection to the site's MySQL/MariaDB (SOURCE=nexusphp): a small mysql2 pool used read-only.
 *
 * Never harms the site: every session is READ ONLY (a stray write fails on the server), the server
 * itself stops a statement after a while (max_statement_time / max_execution_time) and the client
 * gives up too (connect and per-query time-outs), so a down or slow source fails the sync instead
 * of hanging it. Plain SELECTs on InnoDB are consistent reads: they take no locks.
 *
 * Time zones: NexusPHP writes DATETIMEs in its PHP time zone, never the database server's. Every
 * session's time zone is NEXUSPHP_TIMEZONE (unset: Asia/Shanghai, NexusPHP's shipped PRC), so that
 * UNIX_TIMESTAMP() of a DATETIME is the instant the site meant; the sync time is the source's own clock.
 * (Laravel's TIMESTAMP columns are another matter: reader.ts `laravelTimestamp`.)
 *
 * The GRANT that is enough (read-only, only the tables the mirror copies):
 *   GRANT SELECT ON site_db.users TO 'console'@'host';  -- and the same for teams, categories, tags,
 *   torrents, torrent_tags, peers, snatched, claims
 */
import mysql from 'mysql2/promise'
import type { Pool, PoolConnection, PoolOptions, RowDataPacket } from 'mysql2/promise'
import { DEFAULT_NEXUSPHP_TIMEZONE } from '../../config'
import { wallClock } from '../../domain/local-day'
import { readSiteUrl, type SiteUrl } from './site-url'
import { tlsFailure } from './tls'

/**
 * The sql_mode of every session we open on the site, whatever its server's default: our statements
 * and mysql2's escaping (a quote inside a string is sent as \') are written for it. A server running
 * with NO_BACKSLASH_ESCAPES reads \' as a backslash and the end of the string — a text with an
 * apostrophe fails, and what follows it could run as SQL —, ANSI_QUOTES and PIPES_AS_CONCAT change
 * what "…" and || mean, ONLY_FULL_GROUP_BY (MySQL's default) refuses grouped reads written for
 * MariaDB's. Strict for transactional tables, as MariaDB's default: a value that does not fit fails
 * instead of being cut. Every server since MySQL 5.5 and MariaDB 5.5 knows both names.
 */
export const SITE_SESSION_SQL_MODE = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'

export interface NexusphpConnectionConfig {
  /** mysql://user:pass@host:3306/db (mariadb:// too). */
  databaseUrl: string
  /** NEXUSPHP_TIMEZONE: a zone name (Asia/Shanghai) or an offset (+08:00); unset = DEFAULT_NEXUSPHP_TIMEZONE. */
  timezone?: string
  /** Client-side limit per statement (default 120 s). */
  queryTimeoutMs?: number
  connectTimeoutMs?: number
}

export type SourceRow = Record<string, unknown>

export interface NexusphpConnection {
  /** Runs one read statement; errors come back with a message fit for /data-sync. */
  query<T extends SourceRow = SourceRow>(sql: string, values?: unknown[], what?: string): Promise<T[]>
  /** The source's clock, epoch ms. */
  now(): Promise<number>
  /** The session time zone actually used (for /data-sync and tests). */
  timeZone(): Promise<string>
  close(): Promise<void>
}

const DEFAULT_QUERY_TIMEOUT_MS = 120_000
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

/** Connection-level failures: the source is unreachable or refuses us (as opposed to a bad statement). */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_HOST_NOT_PRIVILEGED',
  'ER_HOST_IS_BLOCKED',
  'ER_SERVER_SHUTDOWN',
  'ER_QUERY_INTERRUPTED',
  'ER_CONNECTION_KILLED',
])

/** An error whose message is shown as is on /data-sync (sync_state.last_error). */
export class NexusphpError extends Error {
  override name = 'NexusphpError'
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: string }).code
  const message = error.message || code || 'unknown error'
  return code && !message.includes(code) ? `${message} (${code})` : message
}

/** Chinese message for the UI, keeping the driver's own words (which never contain the password). */
export function sourceError(error: unknown, what?: string): NexusphpError {
  if (error instanceof NexusphpError) return error
  const code = (error as { code?: string } | undefined)?.code ?? ''
  if (code === 'ER_NO_SUCH_TABLE') return new NexusphpError(`NexusPHP 数据库缺少数据表：${describe(error)}`)
  if (code === 'ER_TABLEACCESS_DENIED_ERROR' || code === 'ER_COLUMNACCESS_DENIED_ERROR') {
    return new NexusphpError(`没有读取 NexusPHP 数据表的权限（需要 GRANT SELECT，见 README）：${describe(error)}`)
  }
  const tls = tlsFailure(error)
  if (tls) return new NexusphpError(`无法连接 NexusPHP 数据库：${tls}：${describe(error)}`)
  if (connectionCodes.has(code) || /^ER_(DB)?ACCESS_DENIED/.test(code) || (error as { fatal?: boolean } | undefined)?.fatal) {
    return new NexusphpError(`无法连接 NexusPHP 数据库：${describe(error)}`)
  }
  return new NexusphpError(`读取 NexusPHP 数据失败${what ? `（${what}）` : ''}：${describe(error)}`)
}

/** The pool's options from a site database URL; errors name `variable` (the setting the URL came from). */
export function poolOptions(config: NexusphpConnectionConfig, variable = 'NEXUSPHP_DATABASE_URL'): PoolOptions {
  let site: SiteUrl
  try {
    site = readSiteUrl(config.databaseUrl, variable)
  } catch (error) {
    throw new NexusphpError((error as Error).message)
  }
  return {
    ...site,
    // Two connections: the sync reads with one; the second keeps a reconnect from waiting on it.
    connectionLimit: 2,
    maxIdle: 1,
    idleTimeout: 60_000,
    enableKeepAlive: true,
    connectTimeout: config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    charset: 'utf8mb4',
    // Dates are converted by the source (UNIX_TIMESTAMP); any that slip through stay strings, never
    // a Date in this server's time zone.
    dateStrings: true,
    // Values past 2^53 come as strings instead of silently rounded numbers (the reader clamps them).
    supportBigNumbers: true,
    bigNumberStrings: false,
    multipleStatements: false,
  }
}

/** `+08:00` for a zone name at this instant: the fallback when the server has no time zone tables. */
export function zoneOffset(timeZone: string, at = Date.now()): string {
  if (/^[+-]\d\d:\d\d$/.test(timeZone)) return timeZone
  const p = wallClock(at, timeZone)
  const local = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s)
  const minutes = Math.round((local - Math.floor(at / 1000) * 1000) / 60_000)
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * A pooled connection within `ms`: a hung server holds both of the pool's connections (see query), and without a limit
 * every later statement would wait in the pool's queue for ever — the sync 「同步中」 with no end, no later sync run.
 */
function acquire(pool: Pool, ms: number): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    let settled = false
    const timer = setTimeout(() => {
      settled = true
      reject(new NexusphpError(`等待 NexusPHP 数据库连接超过 ${Math.round(ms / 1000)} 秒：数据库服务器没有响应`))
    }, ms)
    pool.getConnection().then(
      (connection) => {
        if (settled) connection.release()
        else {
          settled = true
          clearTimeout(timer)
          resolve(connection)
        }
      },
      (error: unknown) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(sourceError(error))
      },
    )
  })
}

export function openNexusphpConnection(config: NexusphpConnectionConfig): NexusphpConnection {
  const options = poolOptions(config)
  const queryTimeout = config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
  const serverLimitSec = Math.ceil(queryTimeout / 1000)
  let pool: Pool | null = null
  let zone: Promise<string> | null = null
  const siteZone = config.timezone || DEFAULT_NEXUSPHP_TIMEZONE

  /**
   * The session time zone, settled once: the configured name when the server knows it, else its offset (a server
   * without time zone tables refuses names) — then set again before each statement (`query`): an offset set once is
   * an hour off after the next daylight-saving change.
   */
  const resolveZone = async (): Promise<string> => {
    const probe = await mysql.createConnection(options).catch((error: unknown) => {
      throw sourceError(error)
    })
    try {
      await probe.query('SET time_zone = ?', [siteZone])
      return siteZone
    } catch (error) {
      if ((error as { code?: string }).code !== 'ER_UNKNOWN_TIME_ZONE') throw sourceError(error)
      // The offset must be one the server takes too (MariaDB: −12:59 to +13:00; Pacific/Kiritimati is +14:00): else
      // every session would stay in the server's zone and each site time be read hours off, without a word.
      const offset = zoneOffset(siteZone)
      await probe.query('SET time_zone = ?', [offset]).catch(() => {
        throw new NexusphpError(
          `NexusPHP 数据库服务器不认识时区 ${siteZone}（没有加载时区表），也不接受它现在的偏移 ${offset}：请在数据库服务器上加载时区表（mysql_tzinfo_to_sql），或检查 NEXUSPHP_TIMEZONE`,
        )
      })
      return offset
    } finally {
      await probe.end().catch(() => {})
    }
  }

  const getPool = async (): Promise<Pool> => {
    zone ??= resolveZone().catch((error: unknown) => {
      zone = null // try again on the next sync
      throw error
    })
    const timeZone = await zone
    if (pool) return pool
    pool = mysql.createPool(options)
    // Runs on every new connection before it is handed out (commands queue in order on a connection).
    pool.on('connection', (connection) => {
      // The event hands over the callback-style connection (mysql2's typings say otherwise).
      const core = connection as unknown as { query(sql: string, values: unknown[], callback: (error: unknown) => void): void }
      const run = (statement: string, values: unknown[] = []) => core.query(statement, values, () => {})
      // A session whose sql_mode could not be set must not be used (the escaping of every value depends on it).
      core.query(`SET SESSION sql_mode = '${SITE_SESSION_SQL_MODE}'`, [], (error) => {
        if (error) connection.destroy()
      })
      // Nor one in another time zone (every site time would be read off by the difference).
      if (timeZone === siteZone)
        core.query('SET time_zone = ?', [timeZone], (error) => {
          if (error) connection.destroy()
        })
      // A server with autocommit off (my.cnf, init_connect) would keep each session in one transaction: its first read's
      // snapshot for as long as the pool keeps the connection, every later sync reading the same old InnoDB rows.
      run('SET SESSION autocommit = 1')
      run('SET SESSION TRANSACTION READ ONLY')
      // The server's own statement limit, so an abandoned query does not keep running on the site:
      // MariaDB's max_statement_time (s), MySQL's max_execution_time (ms); each ignores the other.
      run(`SET SESSION max_statement_time = ${serverLimitSec}`)
      run(`SET SESSION max_execution_time = ${serverLimitSec * 1000}`)
    })
    return pool
  }

  const connection: NexusphpConnection = {
    async query<T extends SourceRow>(sql: string, values: unknown[] = [], what?: string): Promise<T[]> {
      const p = await getPool()
      const held = await acquire(p, queryTimeout)
      try {
        if ((await zone) !== siteZone) await held.query({ sql: 'SET time_zone = ?', values: [zoneOffset(siteZone)], timeout: queryTimeout })
        const [rows] = await held.query<RowDataPacket[]>({ sql, values, timeout: queryTimeout })
        held.release()
        return rows as unknown as T[]
      } catch (error) {
        // A statement the client gave up on keeps its connection busy until the server answers (a hung server: never):
        // that connection goes, and the pool opens a new one (the server's own limit ends the statement there).
        if ((error as { code?: string }).code === 'PROTOCOL_SEQUENCE_TIMEOUT' || (error as { fatal?: boolean }).fatal) held.destroy()
        else held.release()
        throw sourceError(error, what)
      }
    },
    async now() {
      const [row] = await connection.query<{ t: string | number }>('SELECT UNIX_TIMESTAMP(NOW(3)) AS t', [], 'clock')
      const ms = Math.round(Number(row?.t) * 1000)
      if (!Number.isSafeInteger(ms) || ms <= 0) throw new NexusphpError(`NexusPHP 数据库返回了无效的时间：${String(row?.t)}`)
      return ms
    },
    async timeZone() {
      await getPool()
      return zone ? await zone : siteZone
    },
    async close() {
      const p = pool
      pool = null
      zone = null
      await p?.end().catch(() => {})
    },
  }
  return connection
}
