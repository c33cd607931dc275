import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, serverRoot } from './config'

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: resolve(serverRoot, 'data'),
      database: { kind: 'sqlite', file: resolve(serverRoot, 'data', 'seeding.db') },
      adminPassword: undefined,
      source: 'demo',
      syncIntervalSec: 600,
      ingestKeys: [],
      logLevel: 'info',
    })
  })

  it('resolves DATA_DIR against the server folder and puts the SQLite file in it', () => {
    expect(loadConfig({ DATA_DIR: 'var/db' }).dataDir).toBe(resolve(serverRoot, 'var/db'))
    expect(loadConfig({ DATA_DIR: '/tmp/x' }).database).toEqual({ kind: 'sqlite', file: '/tmp/x/seeding.db' })
  })

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', ADMIN_PASSWORD: '' })).toMatchObject({
      port: 8080,
      database: { kind: 'sqlite' },
      adminPassword: undefined,
    })
  })

  it.each(['abc', '-1', '65536', '80.5', '1e3'])('refuses PORT=%s naming the variable', (PORT) => {
    expect(() => loadConfig({ PORT })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT })).toThrow(/PORT/)
  })

  it('detects PostgreSQL URLs and refuses other databases', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' })
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database.kind).toBe('postgres')
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u@h/db' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig({ DATABASE_URL: './seeding.db' })).toThrow(/DATABASE_URL/)
    // A socket address (no host) is pg's; an unencoded # or a broken escape in the password is named, in Chinese, without the password.
    expect(loadConfig({ DATABASE_URL: 'postgres:///db?host=/var/run/postgresql' }).database.kind).toBe('postgres')
    for (const url of ['postgres://u:pa#ss@h/db', 'postgres://u:p%zz@h/db', 'postgres://u:secret@h:99999/db'])
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/^DATABASE_URL 不是有效的地址（postgres:\/\/用户:密码@主机/)
  })

  it('validates SOURCE and what each source needs', () => {
    expect(loadConfig({ SOURCE: 'INGEST', INGEST_KEYS: ' k1-aaaaaaaaaaaaaaaa , k2-bbbbbbbbbbbbbbbb ,' })).toMatchObject({
      source: 'ingest',
      ingestKeys: ['k1-aaaaaaaaaaaaaaaa', 'k2-bbbbbbbbbbbbbbbb'],
    })
    expect(() => loadConfig({ SOURCE: 'mysql' })).toThrow(/SOURCE/)
    expect(() => loadConfig({ SOURCE: 'ingest' })).toThrow(/INGEST_KEYS/)
    expect(() => loadConfig({ INGEST_KEYS: 'short' })).toThrow(/INGEST_KEYS/)
    expect(() => loadConfig({ SOURCE: 'nexusphp' })).toThrow(/NEXUSPHP_DATABASE_URL/)
    expect(loadConfig({ SOURCE: 'nexusphp', NEXUSPHP_DATABASE_URL: 'mysql://ro@site/nexus' }).nexusphp.databaseUrl).toBe(
      'mysql://ro@site/nexus',
    )
    expect(() => loadConfig({ NEXUSPHP_DATABASE_URL: 'postgres://x' })).toThrow(/NEXUSPHP_DATABASE_URL/)
  })

  it('validates the time zone, sync interval and log level', () => {
    expect(loadConfig({ NEXUSPHP_TIMEZONE: 'Asia/Shanghai' }).nexusphp.timezone).toBe('Asia/Shanghai')
    expect(loadConfig({ NEXUSPHP_TIMEZONE: '+08:00' }).nexusphp.timezone).toBe('+08:00')
    // Unset: NexusPHP's shipped zone (PRC), never "whatever the database server uses".
    expect(loadConfig({}).nexusphp.timezone).toBe('Asia/Shanghai')
    expect(loadConfig({ NEXUSPHP_TIMEZONE: '' }).nexusphp.timezone).toBe('Asia/Shanghai')
    expect(() => loadConfig({ NEXUSPHP_TIMEZONE: 'Mars/Olympus' })).toThrow(/NEXUSPHP_TIMEZONE/)
    expect(loadConfig({ SYNC_INTERVAL: '60' }).syncIntervalSec).toBe(60)
    expect(() => loadConfig({ SYNC_INTERVAL: '0' })).toThrow(/SYNC_INTERVAL/)
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })

  it('keeps ADMIN_PASSWORD exactly as given', () => {
    expect(loadConfig({ ADMIN_PASSWORD: ' spaced pass ' }).adminPassword).toBe(' spaced pass ')
    expect(() => loadConfig({ ADMIN_PASSWORD: 'x'.repeat(129) })).toThrow(/ADMIN_PASSWORD/)
    expect(() => loadConfig({ ADMIN_PASSWORD: '        ' })).toThrow('ADMIN_PASSWORD 不能只包含空格')
  })

  it('reads TRUST_PROXY as a list of balancer addresses and refuses anything else, naming it', () => {
    expect(loadConfig({}).trustProxy).toEqual([])
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'loopback',
    ])
    for (const TRUST_PROXY of ['true', '*', '10.0.0.0/33', 'nginx', '10.0.0.1/8/9', '1']) {
      expect(() => loadConfig({ TRUST_PROXY })).toThrow(/TRUST_PROXY/)
    }
  })
})
