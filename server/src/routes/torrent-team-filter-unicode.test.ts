/**
 * Found by an outside tester (fixed since; the test keeps it so): on SQLite, 种子列表 filtered by a release group whose
 * name has a capital letter beyond ASCII (`ÜberHD`, `ΣΙΝΕ`, `Ёлка-Рип`) listed nothing, even with the exact name:
 * SQLite's lower() folds ASCII only, JavaScript's toLowerCase() every script. The same in the site-user picker
 * (site.users, "case-insensitive"): `über` did not find `Über`. Both now fold with `unicode_lower` (database.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Torrent } from '@shared/entities'
import { derive } from '../derive'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)

describe.each(openTestDatabases())('torrent.page team filter on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(NOW) })
  let admin = ''
  const teams = ['CedarHD', 'ÜberHD', 'Ёлка-Рип', 'ΣΙΝΕ']

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    for (const [i, name] of teams.entries()) {
      await w.team(i + 1, name)
      await w.torrent(i + 1, { team: i + 1, name: `Movie.${i + 1}.2024.1080p-${name}` })
    }
    await t.db.database.db
      .insertInto('site_users')
      .values([
        { id: 501, username: 'Über', added: Date.UTC(2024, 0, 1) },
        { id: 502, username: 'Ёлка', added: Date.UTC(2024, 0, 1) },
      ])
      .execute()
    await derive(t.db.database, { now: NOW })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('finds the torrents of a team picked by its exact name, whatever its script', async () => {
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
    expect(found).toEqual({ CedarHD: 1, ÜberHD: 1, 'Ёлка-Рип': 1, ΣΙΝΕ: 1 })
  })

  it('site.users finds a site user by name case-insensitively, whatever the script', async () => {
    const names: Record<string, string[]> = {}
    for (const keyword of ['über', 'ÜBER', 'ёлка', 'ЁЛКА']) {
      const res = await t.call<{ uid: number; username: string }[]>('GET', '/site/users', { token: admin, query: { keyword } })
      expect(res.status, res.body.msg).toBe(200)
      names[keyword] = res.body.data.map((u) => u.username)
    }
    expect(names).toEqual({ über: ['Über'], ÜBER: ['Über'], ёлка: ['Ёлка'], ЁЛКА: ['Ёлка'] })
  })
})
