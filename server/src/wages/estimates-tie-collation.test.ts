/**
 * Found by an outside tester (fixed since; the test keeps it so): the dashboard's 本月工资排行 top 10 (AllSeedingStats.topWages, wages/estimates.ts `top`) orders a tie by
 * `ORDER BY u.username` in the database's own collation (now in byte order). The rank itself is computed in byte order (byName, as
 * 工资排行 lists a tie: wages/queries.ts periodRank), and everywhere else the server sorts names with
 * `collate "C"` (db/sql-fragments.ts binaryOrder) because a PostgreSQL database is usually created with a
 * language collation (the official postgres image: en_US.utf8). On such a database the top 10 lists a tie in
 * another order than 工资排行 — and, when the tie crosses the 10th place, shows other members than the rank's first 10.
 *
 * Runs only on PostgreSQL: a database created with an ICU en-US default collation (as initdb on an en_US system).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AllSeedingStats } from '@shared/entities'
import { isPostgresUrl, loadConfig } from '../config'
import { openDatabase } from '../db/database'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { testClock, useTestApp, type TestBackend } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { byName } from './queries'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const ZONE = 'Asia/Shanghai'
const DAY = 86_400_000
const FEB_START = Date.UTC(2026, 0, 31, 16, 0) // 2026-02-01 00:00 Asia/Shanghai
const NOW = FEB_START + 19 * DAY // 2026-02-20 00:00

const url = process.env.DATABASE_URL
const backends: TestBackend[] =
  url && isPostgresUrl(url)
    ? [
        {
          name: 'postgres',
          async open() {
            const name = `t_${randomBytes(6).toString('hex')}`
            const admin = new pg.Client({ connectionString: url })
            await admin.connect()
            try {
              await admin.query(`create database ${name} template template0 locale_provider icu icu_locale 'en-US' locale 'C.UTF-8'`)
            } finally {
              await admin.end()
            }
            const dbUrl = new URL(url)
            dbUrl.pathname = `/${name}`
            const dataDir = mkdtempSync(join(tmpdir(), 'seeding-test-'))
            const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString() })
            const database = await openDatabase(config.database)
            return {
              database,
              dataDir,
              config,
              async cleanup() {
                await database.close()
                const client = new pg.Client({ connectionString: url })
                await client.connect()
                try {
                  await client.query(`drop database if exists ${name} with (force)`)
                } finally {
                  await client.end()
                }
                rmSync(dataDir, { recursive: true, force: true })
              },
            }
          },
        } as TestBackend,
      ]
    : []

// Eleven members with the same estimate: 'Zed' and ten lower-case names.
const NAMES = ['Zed', ...Array.from({ length: 10 }, (_, i) => `member${String(i + 1).padStart(2, '0')}`)]

describe.skipIf(backends.length === 0).each(backends)('the dashboard’s top 10 with a tie, on $name (en-US collation)', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, FEB_START - 40 * DAY, null)
    for (const [i, name] of NAMES.entries()) {
      const uid = 1001 + i
      await w.member(name, uid)
      await w.torrent(i + 1, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
      await w.snatch(uid, i + 1, { finished: true, seedtime: 1000 * H, lastAction: FEB_START - DAY })
      await w.claim(uid, i + 1, Date.UTC(2025, 6, 1))
    }
    await syncAt(t.db.database, FEB_START + 30 * 60_000, ZONE) // February's start snapshot
    for (const i of NAMES.keys()) await w.updateSnatch(1001 + i, i + 1, { seedtime: 1400 * H })
    await syncAt(t.db.database, NOW - H, ZONE)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  it('lists the tie as 工资排行 does (byte order of names), so the top 10 is the rank’s first 10', async () => {
    const res = await t.call<AllSeedingStats>('GET', '/statistics/refresh-index-statistics-cache', { token })
    expect(res.status, res.body.msg).toBe(200)
    const top = res.body.data.topWages
    expect(new Set(top.map((e) => e.amount)).size).toBe(1) // one tie
    expect(top.every((e) => e.rank === 1)).toBe(true)
    expect(top.map((e) => e.username)).toEqual([...NAMES].sort(byName).slice(0, 10))
  })
})
