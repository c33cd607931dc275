/**
 * Server configuration from environment variables. The variable names are part of the public
 * contract (README「服务端配置」lists them). Every value is checked here, so a typo stops the server at start
 * with a message naming the variable instead of failing later in a request.
 */
import { isIP } from 'node:net'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sourceKindValues, type SourceKind } from '@shared/entities'
import { readSiteUrl } from './sources/nexusphp/site-url'

/** The `server/` folder; relative paths in the configuration are resolved against it. */
export const serverRoot = fileURLToPath(new URL('..', import.meta.url))

export const sourceKinds = sourceKindValues
export type { SourceKind }

/** Mirrors sources/demo/scale.ts (config stays free of imports from the rest of the server). */
/** NexusPHP's shipped time zone (`PRC` in its example .env): what NEXUSPHP_TIMEZONE unset means. */
export const DEFAULT_NEXUSPHP_TIMEZONE = 'Asia/Shanghai'

export const demoSizeNames = ['small', 'default', 'large'] as const
export type DemoSizeName = (typeof demoSizeNames)[number]

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }

export interface Config {
  port: number
  host: string
  /** Absolute path of the folder for the SQLite file, logs and exports. */
  dataDir: string
  database: DatabaseConfig
  /** Password of `admin` when the database is created; unset → random, printed once. */
  adminPassword: string | undefined
  source: SourceKind
  /** `timezone`: the zone NexusPHP writes its DATETIMEs in (NEXUSPHP_TIMEZONE; loadConfig fills in DEFAULT_NEXUSPHP_TIMEZONE). */
  nexusphp: { databaseUrl: string | undefined; timezone: string | undefined }
  /** Paying wages into the site (README「发放到站点」): off unless the write account or the webhook is set. */
  payout: { writeDatabaseUrl: string | undefined; webhookUrl: string | undefined; webhookSecret: string | undefined }
  syncIntervalSec: number
  /** Demo source: size of the community generated at first start (DEMO_SIZE). */
  demoSize: DemoSizeName
  /**
   * Demo source: password of the generated members (DEMO_MEMBER_PASSWORD). Unset (the default):
   * no one knows it, so a demo left running on a network has no guessable accounts.
   */
  demoMemberPassword: string | undefined
  ingestKeys: string[]
  logLevel: LogLevel
  /** ACCESS_LOG=1: one log line per request (otherwise only failed and slow ones). */
  accessLog: boolean
  /**
   * TRUST_PROXY: the addresses of the load balancers in front of the server. Only a request that
   * arrives from one of them has its client address taken from X-Forwarded-For (for the login limit,
   * the operation log and the access log); empty (the default) trusts no header.
   */
  trustProxy: string[]
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Env = Record<string, string | undefined>

/** Empty strings count as unset: `PORT= npm run server` should mean "default", not "invalid". */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value ? value : undefined
}

/** A comma-separated list; blanks around and between the commas are dropped. */
function commaList(env: Env, name: string): string[] {
  return (read(env, name) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} 必须是 ${min} 到 ${max} 之间的整数，当前为 "${raw}"`)
  }
  return Number(raw)
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = read(env, name)
  if (raw === undefined) return fallback
  const value = raw.toLowerCase() as T
  if (!values.includes(value)) throw new ConfigError(`${name} 只能是 ${values.join('、')} 之一，当前为 "${raw}"`)
  return value
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url)
}

/** A site database URL read as its connection will read it (database, escapes, ssl-mode, ssl-ca): at start, not at the first sync or payout. */
function checkSiteUrl(value: string, name: string): void {
  try {
    readSiteUrl(value, name)
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
}

function isTimeZone(value: string): boolean {
  if (/^[+-](0\d|1[0-4]):[0-5]\d$/.test(value)) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** DATABASE_URL as pg will read it: the driver's own errors are English and name no variable (never the address: its password). */
function checkPostgresUrl(value: string): void {
  const invalid = 'DATABASE_URL 不是有效的地址（postgres://用户:密码@主机:5432/数据库；密码中的 % @ : / # ? 写成 %25 %40 %3A %2F %23 %3F）'
  let url: URL
  try {
    url = new URL(value)
    decodeURIComponent(url.password)
  } catch {
    throw new ConfigError(invalid)
  }
  // A '#' cuts the URL: the rest of a password (and the database after it) would be dropped without a word.
  if (value.includes('#')) throw new ConfigError(invalid)
}

/** A host name (RFC 1123 labels): what listen() takes besides an IP address. */
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

/**
 * An http(s) address fetch can send to. Credentials in it are refused (fetch refuses such a URL, every delivery would
 * fail, and its error names the whole URL, password included); the message never repeats the address.
 */
function checkWebhookUrl(raw: string): void {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('PAYOUT_WEBHOOK_URL 不是有效的地址')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError('PAYOUT_WEBHOOK_URL 必须是 http:// 或 https:// 开头的地址')
  if (url.username || url.password)
    throw new ConfigError('PAYOUT_WEBHOOK_URL 不能包含用户名或密码（推送不会带上它们）：接收方请用 PAYOUT_WEBHOOK_SECRET 的签名验证请求')
}

/** Shortest ingest key we accept: a key is a shared secret, and a short one can be guessed. */
export const MIN_INGEST_KEY_LENGTH = 16

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535)
  const host = read(env, 'HOST') ?? '127.0.0.1'
  // Checked here, not by listen(): that fails after the first start has printed the admin's one-time password.
  if (!isIP(host) && !HOSTNAME.test(host))
    throw new ConfigError('HOST 必须是要监听的 IP 地址或主机名（如 127.0.0.1、0.0.0.0、::），不含端口（端口用 PORT 设置）')

  const dataDirRaw = read(env, 'DATA_DIR')
  const dataDir = dataDirRaw ? (isAbsolute(dataDirRaw) ? dataDirRaw : resolve(serverRoot, dataDirRaw)) : resolve(serverRoot, 'data')

  const databaseUrl = read(env, 'DATABASE_URL')
  let database: DatabaseConfig
  if (databaseUrl === undefined) database = { kind: 'sqlite', file: resolve(dataDir, 'seeding.db') }
  else if (isPostgresUrl(databaseUrl)) {
    checkPostgresUrl(databaseUrl)
    database = { kind: 'postgres', url: databaseUrl }
  } else throw new ConfigError('DATABASE_URL 只支持 postgres:// 或 postgresql:// 开头的地址（不设置则使用 DATA_DIR 中的 SQLite）')

  // The password is taken as typed (no trim): leading or trailing spaces may be intended.
  const adminPassword = env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : undefined
  if (adminPassword !== undefined && adminPassword.length > 128) throw new ConfigError('ADMIN_PASSWORD 不能超过 128 个字符')
  // Spaces only: a quoting slip in a service file, never a password anyone meant (the forms refuse it too).
  if (adminPassword !== undefined && !/\S/.test(adminPassword)) throw new ConfigError('ADMIN_PASSWORD 不能只包含空格')

  const source = oneOf(env, 'SOURCE', sourceKinds, 'demo')

  const nexusUrl = read(env, 'NEXUSPHP_DATABASE_URL')
  if (nexusUrl !== undefined && !/^(mysql|mariadb):\/\//i.test(nexusUrl)) {
    throw new ConfigError('NEXUSPHP_DATABASE_URL 必须是 mysql:// 或 mariadb:// 开头的地址')
  }
  if (source === 'nexusphp' && nexusUrl === undefined) throw new ConfigError('SOURCE=nexusphp 时必须设置 NEXUSPHP_DATABASE_URL')
  if (nexusUrl !== undefined) checkSiteUrl(nexusUrl, 'NEXUSPHP_DATABASE_URL')
  // Unset: NexusPHP's own default, never the database server's zone (the site's PHP writes its times, not the server).
  const timezone = read(env, 'NEXUSPHP_TIMEZONE') ?? DEFAULT_NEXUSPHP_TIMEZONE
  if (!isTimeZone(timezone)) {
    throw new ConfigError(`NEXUSPHP_TIMEZONE 必须是时区名（如 Asia/Shanghai）或偏移（如 +08:00），当前为 "${timezone}"`)
  }

  const payout = {
    writeDatabaseUrl: read(env, 'NEXUSPHP_WRITE_DATABASE_URL'),
    webhookUrl: read(env, 'PAYOUT_WEBHOOK_URL'),
    webhookSecret: env.PAYOUT_WEBHOOK_SECRET ? env.PAYOUT_WEBHOOK_SECRET : undefined,
  }
  if (payout.writeDatabaseUrl !== undefined && !/^(mysql|mariadb):\/\//i.test(payout.writeDatabaseUrl)) {
    throw new ConfigError('NEXUSPHP_WRITE_DATABASE_URL 必须是 mysql:// 或 mariadb:// 开头的地址')
  }
  if (payout.writeDatabaseUrl !== undefined) checkSiteUrl(payout.writeDatabaseUrl, 'NEXUSPHP_WRITE_DATABASE_URL')
  if (payout.webhookUrl !== undefined) checkWebhookUrl(payout.webhookUrl)
  if (payout.webhookUrl !== undefined && (payout.webhookSecret ?? '').length < MIN_INGEST_KEY_LENGTH) {
    throw new ConfigError(`设置 PAYOUT_WEBHOOK_URL 时必须设置至少 ${MIN_INGEST_KEY_LENGTH} 个字符的 PAYOUT_WEBHOOK_SECRET`)
  }

  const syncIntervalSec = integer(env, 'SYNC_INTERVAL', 600, 1, 7 * 24 * 3600)
  const demoSize = oneOf(env, 'DEMO_SIZE', demoSizeNames, 'default')
  const demoMemberPassword = env.DEMO_MEMBER_PASSWORD ? env.DEMO_MEMBER_PASSWORD : undefined
  if (demoMemberPassword !== undefined && demoMemberPassword.length > 128) throw new ConfigError('DEMO_MEMBER_PASSWORD 不能超过 128 个字符')

  const ingestKeys = commaList(env, 'INGEST_KEYS')
  const shortKey = ingestKeys.find((key) => key.length < MIN_INGEST_KEY_LENGTH)
  if (shortKey !== undefined) throw new ConfigError(`INGEST_KEYS 中的每个密钥至少 ${MIN_INGEST_KEY_LENGTH} 个字符`)
  if (source === 'ingest' && ingestKeys.length === 0) throw new ConfigError('SOURCE=ingest 时必须设置 INGEST_KEYS')

  const logLevel = oneOf(env, 'LOG_LEVEL', logLevels, 'info')
  const accessLog = oneOf(env, 'ACCESS_LOG', ['0', '1'] as const, '0') === '1'

  const trustProxy = proxyList(env)

  return {
    port,
    host,
    dataDir,
    database,
    adminPassword,
    source,
    nexusphp: { databaseUrl: nexusUrl, timezone },
    payout,
    syncIntervalSec,
    demoSize,
    demoMemberPassword,
    ingestKeys,
    logLevel,
    accessLog,
    trustProxy,
  }
}

/** proxy-addr's names for address ranges, accepted beside single addresses and CIDR blocks. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal']

function proxyList(env: Env): string[] {
  const list = commaList(env, 'TRUST_PROXY')
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/')
    const family = isIP(address)
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))
    if (!(proxyRangeNames.includes(entry) || (family !== 0 && validBits && extra === undefined))) {
      throw new ConfigError(`TRUST_PROXY 只能是以逗号分隔的 IP 地址、CIDR 网段或 loopback/linklocal/uniquelocal，"${entry}" 不是`)
    }
  }
  return list
}
