/**
 * Found by an outside tester (fixed since; the test keeps it so): on PostgreSQL the 种子列表 team filter and the
 * site-user picker folded case with JavaScript's toLowerCase() on one side and PostgreSQL's lower() on the other, and
 * the two disagree on a Greek final capital sigma (JS: ΟΔΟΣ → οδος, PostgreSQL: οδοσ) and on a Turkish dotted İ (JS:
 * i̇, two code points; PostgreSQL: i). A team picked by its exact name from GET /site/options listed no torrent, and
 * the site user `ΟΔΟΣ` was not found by their own exact name. Both sides are now folded by the database.
 * (On SQLite, unicode_lower is toLowerCase: both worked.)
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Torrent } from '@shared/entities'
import { derive } from '../derive'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)

describe.each(openTestDatabases())('case folding of team and site-user filters on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(NOW) })
  let admin = ''

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    await w.team(1, 'ΟΔΟΣ-HD')
    await w.team(2, 'İSTANBUL')
    await w.torrent(1, { team: 1, name: 'Show.S01.1080p-ΟΔΟΣ-HD' })
    await w.torrent(2, { team: 2, name: 'Doc.2024.1080p-İSTANBUL' })
    await t.db.database.db
      .insertInto('site_users')
      .values([{ id: 601, username: 'ΟΔΟΣ', added: Date.UTC(2024, 0, 1) }])
      .execute()
    await derive(t.db.database, { now: NOW })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('a team picked by its exact name from /site/options lists its torrents', async () => {
    const options = await t.call<{ teams: string[] }>('GET', '/site/options', { token: admin })
    expect(options.status, options.body.msg).toBe(200)
    const found: Record<string, number> = {}
    for (const team of options.body.data.teams) {
      const res = await t.call<{ list: Torrent[]; total: number }>('POST', '/torrent/page', {
        token: admin,
        body: { page: 1, pageSize: 20, team },
      })
      expect(res.status, res.body.msg).toBe(200)
      found[team] = res.body.data.total
    }
    // PostgreSQL today: { 'ΟΔΟΣ-HD': 0, İSTANBUL: 0 }
    expect(found).toEqual({ 'ΟΔΟΣ-HD': 1, İSTANBUL: 1 })
  })

  it('the site-user picker finds a site user by their exact name', async () => {
    const res = await t.call<{ uid: number; username: string }[]>('GET', '/site/users', { token: admin, query: { keyword: 'ΟΔΟΣ' } })
    expect(res.status, res.body.msg).toBe(200)
    // PostgreSQL today: []
    expect(res.body.data.map((u) => u.uid)).toEqual([601])
  })
})
