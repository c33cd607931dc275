/**
 * TLS to the site's database (ssl-mode / ssl-ca in NEXUSPHP_DATABASE_URL and NEXUSPHP_WRITE_DATABASE_URL).
 * The parameters are checked at start; the connections run against a MariaDB server of its own with a
 * test CA's certificate, where NEXUSPHP_TEST_DATABASE_URL is set and the machine has the MariaDB server
 * and openssl. The write account there is created REQUIRE SSL, so a payout lands only over TLS.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../config'
import { migrateToLatest } from '../../db/migrate'
import type { PayoutService } from '../../payout/service'
import { nexusphpPayoutService } from '../../payout/testing/nexusphp-service'
import { NexusSite } from '../../payout/testing/nexus-site'
import { AFTER_MONTH, buildWageMonth } from '../../payout/testing/wage-month'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { openNexusphpConnection } from './connection'
import { siteServerBinaries, startSiteServer, type SiteServer } from './testing/site-server'
import { hasOpenssl, makeTestCertificates, type TestCertificates } from './testing/tls-certificates'
import { sslOptions } from './tls'

const url = (query: string) => new URL(`mysql://console:pw@db.example.org:3306/nexusphp${query}`)

describe('ssl-mode and ssl-ca in a site database URL', () => {
  it('maps the MySQL client modes to what the pool checks', () => {
    expect(sslOptions(url(''), 'X')).toBeUndefined()
    expect(sslOptions(url('?ssl-mode=disabled'), 'X')).toBeUndefined()
    expect(sslOptions(url('?ssl-mode=REQUIRED'), 'X')).toEqual({ rejectUnauthorized: false })
    expect(sslOptions(url('?ssl-mode=VERIFY_CA'), 'X')).toEqual({ rejectUnauthorized: true, verifyIdentity: false })
    expect(sslOptions(url('?ssl-mode=VERIFY_IDENTITY'), 'X')).toEqual({ rejectUnauthorized: true, verifyIdentity: true })
  })

  it('refuses what it does not know rather than connect without TLS', () => {
    expect(() => sslOptions(url('?ssl_mode=VERIFY_IDENTITY'), 'NEXUSPHP_DATABASE_URL')).toThrow(
      'NEXUSPHP_DATABASE_URL 中的参数 ssl_mode 无法识别',
    )
    expect(() => sslOptions(url('?ssl-mode=PREFERRED'), 'X')).toThrow('ssl-mode=PREFERRED 无法识别')
    expect(() => sslOptions(url('?ssl-ca=/etc/ca.pem'), 'X')).toThrow('设置了 ssl-ca 但没有开启 TLS')
    expect(() => sslOptions(url('?ssl-mode=VERIFY_CA&ssl-ca=/nowhere/ca.pem'), 'X')).toThrow(
      'ssl-ca 文件无法读取：/nowhere/ca.pem（ENOENT）',
    )
    const address = new URL('mysql://console:pw@10.0.0.7:3306/nexusphp?ssl-mode=VERIFY_IDENTITY')
    expect(() => sslOptions(address, 'X')).toThrow('用 IP 地址连接时无法核对证书上的主机名')
    expect(sslOptions(new URL('mysql://c:p@[::1]:3306/n?ssl-mode=VERIFY_CA'), 'X')).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: false,
    })
  })

  it('a CA given with REQUIRED (which checks no certificate) is refused rather than ignored', () => {
    expect(() => sslOptions(url('?ssl-mode=REQUIRED&ssl-ca=/etc/ca.pem'), 'X')).toThrow('ssl-mode=REQUIRED 不核对证书')
  })

  it('a URL its connection could not read stops the server at start too, naming the setting', () => {
    const start = (value: string) => () => loadConfig({ NEXUSPHP_WRITE_DATABASE_URL: value })
    // A raw % in the password, no database, a '#' that would cut off the rest (here the TLS parameters).
    expect(start('mysql://payout:50%off@db:3306/site')).toThrow('NEXUSPHP_WRITE_DATABASE_URL 不是有效的地址')
    expect(start('mysql://payout:pw@db:3306')).toThrow('NEXUSPHP_WRITE_DATABASE_URL 缺少数据库名')
    expect(start('mysql://payout:pw@db:3306/site#?ssl-mode=VERIFY_IDENTITY')).toThrow('NEXUSPHP_WRITE_DATABASE_URL 不是有效的地址')
    expect(start('mysql://payout:50%25off@db:3306/site')).not.toThrow()
  })

  it('a wrong parameter stops the server at start, naming the setting', () => {
    const env = { SOURCE: 'nexusphp', NEXUSPHP_DATABASE_URL: 'mysql://c:p@db:3306/site?sslmode=require' }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow('NEXUSPHP_DATABASE_URL 中的参数 sslmode 无法识别')
    expect(() => loadConfig({ NEXUSPHP_WRITE_DATABASE_URL: 'mysql://c:p@db:3306/site?ssl-mode=VERIFY_CA&ssl-ca=/nowhere.pem' })).toThrow(
      'NEXUSPHP_WRITE_DATABASE_URL 的 ssl-ca 文件无法读取',
    )
  })
})

const runs = Boolean(process.env.NEXUSPHP_TEST_DATABASE_URL) && siteServerBinaries() !== null && hasOpenssl()

describe.skipIf(!runs)('connections to a site database with a certificate', () => {
  let certs: TestCertificates
  let server: SiteServer
  /** The test server's URL with `query`; `host` replaces 127.0.0.1 (the certificate names both). */
  const siteUrl = (query: string, host = '127.0.0.1') => server.url.replace('127.0.0.1', host).replace(/\/mysql$/, `/mysql${query}`)

  beforeAll(async () => {
    certs = makeTestCertificates()
    server = await startSiteServer([`--ssl-ca=${certs.ca}`, `--ssl-cert=${certs.serverCert}`, `--ssl-key=${certs.serverKey}`])
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    if (certs) rmSync(certs.dir, { recursive: true, force: true })
  })

  async function cipher(query: string, host?: string): Promise<string> {
    const connection = openNexusphpConnection({ databaseUrl: siteUrl(query, host), connectTimeoutMs: 5_000 })
    try {
      const rows = await connection.query<{ Value: string }>("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
      return rows[0]!.Value
    } finally {
      await connection.close()
    }
  }

  it('the sync reads over TLS when asked, the certificate checked against ssl-ca and the host', async () => {
    expect(await cipher('')).toBe('')
    expect(await cipher(`?ssl-mode=VERIFY_IDENTITY&ssl-ca=${encodeURIComponent(certs.ca)}`, 'localhost')).not.toBe('')
    expect(await cipher(`?ssl-mode=VERIFY_CA&ssl-ca=${encodeURIComponent(certs.ca)}`)).not.toBe('')
    expect(await cipher('?ssl-mode=REQUIRED')).not.toBe('')
  })

  it('a certificate that does not chain to ssl-ca is refused with a clear message', async () => {
    for (const mode of ['VERIFY_CA', 'VERIFY_IDENTITY']) {
      await expect(cipher(`?ssl-mode=${mode}&ssl-ca=${encodeURIComponent(certs.otherCa)}`, 'localhost')).rejects.toThrow(
        /^无法连接 NexusPHP 数据库：服务器证书未通过校验/,
      )
    }
  })

  describe('paying', () => {
    let site: NexusSite
    let db: TestDatabase
    let payout: PayoutService | undefined
    const operator = { id: 1, username: 'admin' }

    beforeAll(async () => {
      site = await NexusSite.create(server.url, 'InnoDB')
      db = await openTestDatabases()[0]!.open()
      await migrateToLatest(db.database)
    })
    afterAll(async () => {
      await payout?.close()
      await db?.cleanup()
      await site?.drop()
    })

    it('pays over TLS to a write account the site allows only over TLS', async () => {
      const month = await buildWageMonth(db.database, { count: 1, operator })
      await site.user(1001, '10.0')
      const writer = new URL(await site.writer())
      for (const host of ['%', 'localhost']) await site.conn.query(`ALTER USER '${writer.username}'@'${host}' REQUIRE SSL`)

      const plain = nexusphpPayoutService(db, writer.toString(), { clock: () => AFTER_MONTH })
      const [refused] = await plain.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
      await plain.close()
      expect(refused!.status).toBe('failed')
      expect(refused!.reason).toContain('Access denied')
      expect(await site.logs(1001)).toHaveLength(0)

      writer.hostname = 'localhost'
      writer.search = `?ssl-mode=VERIFY_IDENTITY&ssl-ca=${encodeURIComponent(certs.ca)}`
      payout = nexusphpPayoutService(db, writer.toString(), { clock: () => AFTER_MONTH })
      const [result] = await payout.run({ ids: [month.wages.get(1001)!] }, operator, '127.0.0.1')
      expect(result!.status).toBe('paid')
      expect(await site.logs(1001)).toHaveLength(1)
    })
  })
})
