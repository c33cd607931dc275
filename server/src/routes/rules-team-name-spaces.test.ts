/**
 * Found by an outside tester (fixed since; the test keeps it so): a release group or tag whose site name has a space at its end (or start) — the
 * site's staff typed `CedarHD ` — is offered by GET /site/options exactly as the site spells it, and the admin
 * picks it for 官种规则. POST /config/rules answers 200 and a new version, but its schema trims every name
 * (`label = z.string().trim()`), so the rules name `CedarHD`, which matches no site team (derive/context.ts looks
 * names up exactly). The group's torrents silently stay 非官种: no official torrents, no assignments, no wages —
 * while the form reads back a name that looks identical to the one picked.
 *
 * Now names are matched trimmed on both sides (derive/context.ts officialSiteIds, seeding/torrents.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Rules, Torrent } from '@shared/entities'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)

describe.each(openTestDatabases())('official team or tag with a space in its site name ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(NOW) })
  let admin = ''

  beforeAll(async () => {
    const w = new SeedingWorld(t.db.database.db)
    await w.team(1, 'CedarHD ')
    await w.team(2, 'OtherHD')
    await w.torrent(1, { team: 1, size: 10 * GIB, name: 'Movie.1.2024.1080p-CedarHD' })
    await w.torrent(2, { team: 2, size: 10 * GIB, name: 'Movie.2.2024.1080p-OtherHD' })
    await derive(t.db.database, { now: NOW })
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  it('a team picked from /site/options and saved as official makes its torrents 官种', async () => {
    const options = await t.call<{ teams: string[] }>('GET', '/site/options', { token: admin })
    expect(options.status, options.body.msg).toBe(200)
    // The console offers the name as the site spells it.
    const picked = options.body.data.teams.find((name) => name.startsWith('CedarHD'))
    expect(picked).toBe('CedarHD ')

    const { version: _version, ...current } = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    const saved = await t.call<Rules>('POST', '/config/rules', { token: admin, body: { ...current, officialTeams: [picked] } })
    // The save is accepted: the admin is told the rules now hold this team.
    expect(saved.status, saved.body.msg).toBe(200)

    await derive(t.db.database, { now: NOW + 60_000 })
    const page = await t.call<{ list: Torrent[]; total: number }>('POST', '/torrent/page', {
      token: admin,
      body: { page: 1, pageSize: 20 },
    })
    expect(page.status, page.body.msg).toBe(200)
    const byId = Object.fromEntries(page.body.data.list.map((x) => [x.id, x.seedType]))
    // Torrent 1 belongs to the team just made official (10 GiB, not banned): it must be 官种 (1).
    // It was 2 (非官种): the saved rules named 'CedarHD', which no site team is called.
    expect(byId).toEqual({ 1: 1, 2: 2 })
  })

  it("种子列表 filtered by a team picked from /site/options lists that team's torrents", async () => {
    // Same cause in the torrent list: the `team` filter is trimmed too, so the exact name the console offered finds nothing.
    const res = await t.call<{ list: Torrent[]; total: number }>('POST', '/torrent/page', {
      token: admin,
      body: { page: 1, pageSize: 20, team: 'CedarHD ' },
    })
    expect(res.status, res.body.msg).toBe(200)
    // It was an empty list, said as if the team had no torrents.
    expect(res.body.data.list.map((x) => x.id)).toEqual([1])
  })
})
