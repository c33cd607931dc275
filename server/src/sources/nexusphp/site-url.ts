/**
 * A site database URL (NEXUSPHP_DATABASE_URL, NEXUSPHP_WRITE_DATABASE_URL) read once, the same way at
 * start (config.ts refuses a bad one) and when the pool opens: host, port, account, database and TLS.
 * Kept apart from connection.ts so that reading the configuration does not load the MySQL driver.
 */
import type { SslOptions } from 'mysql2'
import { sslOptions } from './tls'

export interface SiteUrl {
  host: string
  port: number
  user: string
  password: string
  database: string
  ssl?: SslOptions
}

/** Throws an Error whose Chinese message names `variable`. */
export function readSiteUrl(databaseUrl: string, variable: string): SiteUrl {
  const invalid = `${variable} 不是有效的地址（mysql://用户:密码@主机:3306/数据库；密码中的 % @ : / # ? 写成 %25 %40 %3A %2F %23 %3F）`
  let url: URL
  let account: Pick<SiteUrl, 'database' | 'user' | 'password'>
  try {
    url = new URL(databaseUrl)
    account = {
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    }
  } catch {
    throw new Error(invalid)
  }
  // A '#' cuts the URL: what follows it (the rest of a password, ?ssl-mode=…) would be dropped without a word.
  if (databaseUrl.includes('#')) throw new Error(invalid)
  if (!account.database) throw new Error(`${variable} 缺少数据库名（mysql://用户:密码@主机:3306/数据库）`)
  // A '/' in a password whose text before it is all digits reads as host:port/…: the rest became the "database".
  if (/[/@]/.test(account.database)) throw new Error(invalid)
  const ssl = sslOptions(url, variable)
  return {
    ...(ssl ? { ssl } : {}),
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 3306,
    ...account,
  }
}
