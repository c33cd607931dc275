/**
 * Found by an outside tester (fixed since; the test keeps it so): a password with an unencoded '/' whose part before it is all digits (e.g. `2024/Xk2+Zr`, what
 * `openssl rand -base64` can hand out) is not refused. `mysql://console:2024/Xk2+Zr@db.example.org:3306/nexusphp`
 * parses as host `console`, port 2024, no account, database `Xk2+Zr@db.example.org:3306/nexusphp`: the server starts,
 * and every sync fails with 「无法连接 NexusPHP 数据库：getaddrinfo ENOTFOUND console」 — nothing tells the admin that the
 * password needs %2F. (Any other such password is refused at start with the hint; this one is not.)
 * A database name never holds '/' or '@': readSiteUrl should refuse it with its "写成 %2F" message.
 */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { readSiteUrl } from './site-url'

describe('a site URL whose password holds an unencoded /', () => {
  const url = 'mysql://console:2024/Xk2+Zr@db.example.org:3306/nexusphp'

  it('is refused with the hint to write %2F, not read as host "console" and database "Xk2+Zr@db…"', () => {
    expect(() => readSiteUrl(url, 'NEXUSPHP_DATABASE_URL')).toThrow(/%2F/)
  })

  it('stops the server at start, naming the setting', () => {
    expect(() => loadConfig({ SOURCE: 'nexusphp', NEXUSPHP_DATABASE_URL: url })).toThrow(/NEXUSPHP_DATABASE_URL.*%2F/)
    expect(() =>
      loadConfig({ SOURCE: 'nexusphp', NEXUSPHP_DATABASE_URL: 'mysql://console:ok@db:3306/nexusphp', NEXUSPHP_WRITE_DATABASE_URL: url }),
    ).toThrow(/NEXUSPHP_WRITE_DATABASE_URL.*%2F/)
  })
})
