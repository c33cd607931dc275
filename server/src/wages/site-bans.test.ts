/**
 * Site bans in the wages: a member whose site account is disabled (`users.enabled = 'no'`,
 * mirrored as site_users.enabled = 0) or deleted by the site (no site_users row, on a source that
 * mirrors the whole users table) and a torrent the site banned (`torrents.banned = 'yes'`) earn
 * nothing, each with its reason — on SQLite and PostgreSQL, through the API.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WagePreviewEntry } from '@shared/entities'
import { derive } from '../derive'
import { queueMembers, queueTorrents } from '../derive/queue'
import { deleteMirror } from '../sources/mirror/delete'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { copyRecordCounters } from '../snapshots/write'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
const FEB_START = Date.UTC(2026, 0, 31, 16, 0)

describe.each(openTestDatabases())('site bans in wages on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(FEB_START + 86_400_000) })
  const ids = { alice: 0, bob: 0, carol: 0 }
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, JAN_START - 86_400_000, null)
    ids.alice = await w.member('alice', 1001)
    ids.bob = await w.member('bob', 1002)
    ids.carol = await w.member('carol', 1003)
    for (const id of [1, 2, 3, 4]) await w.torrent(id, { team: 1, size: 10 * GIB, added: Date.UTC(2025, 0, 1), seeders: 2 })
    for (const [uid, torrent] of [
      [1001, 1],
      [1001, 2],
      [1002, 3],
      [1003, 4],
    ] as const) {
      await w.snatch(uid, torrent, { finished: true, seedtime: 100 * H, lastAction: JAN_START - 86_400_000 })
      await w.claim(uid, torrent, Date.UTC(2025, 6, 1))
    }
    await derive(t.db.database, { now: JAN_START + 60_000 })
    await copyRecordCounters(db, 20260101)
    for (const [uid, torrent] of [
      [1001, 1],
      [1001, 2],
      [1002, 3],
      [1003, 4],
    ] as const)
      await w.updateSnatch(uid, torrent, { seedtime: 500 * H })
    // The site bans torrent 2 and disables bob's account during the month (as its admin pages write them).
    await db.updateTable('site_torrents').set({ banned: 1 }).where('id', '=', 2).execute()
    await db.updateTable('site_users').set({ enabled: 0 }).where('id', '=', 1002).execute()
    // And deletes carol's account (its cleanup): the sync's refresh of the users removes the row.
    await deleteMirror(db, 'site_users', [1003])
    await queueTorrents(db, [2])
    await queueMembers(db, [ids.bob])
    await derive(t.db.database, { now: FEB_START + 60_000 })
    await copyRecordCounters(db, 20260201)
    token = await t.login('admin', ADMIN_PASSWORD)
  })

  const preview = async (userId: number) =>
    (await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-01', userId } })).body.data
      .list[0]!

  it('a banned torrent does not qualify: 种子已被站点禁止', async () => {
    const alice = await preview(ids.alice)
    expect(alice.torrentCount).toBe(1)
    expect(alice.amount).toBeGreaterThan(0)
    expect(alice.items!.find((i) => i.torrentId === 2)).toMatchObject({ qualified: false, reason: '种子已被站点禁止', value: 0 })
    expect(alice.items!.find((i) => i.torrentId === 1)).toMatchObject({ qualified: true })
  })

  it('a member whose site account is disabled is not paid: 站点账号已禁用', async () => {
    const bob = await preview(ids.bob)
    expect(bob).toMatchObject({ amount: 0, torrentCount: 0 })
    expect(bob.items).toEqual([expect.objectContaining({ torrentId: 3, qualified: false, reason: '站点账号已禁用' })])
  })

  it('a member whose site account the site deleted is not paid: 站点账号已删除', async () => {
    const carol = await preview(ids.carol)
    expect(carol).toMatchObject({ amount: 0, torrentCount: 0 })
    expect(carol.items).toEqual([expect.objectContaining({ torrentId: 4, qualified: false, reason: '站点账号已删除' })])
  })

  it('SOURCE=ingest (pushes cannot say a user was deleted): a member without a site_users row is paid as before', async () => {
    const { db } = t.db.database
    const source = (await db.selectFrom('sync_state').select('source').executeTakeFirstOrThrow()).source
    try {
      await db.updateTable('sync_state').set({ source: 'ingest' }).where('id', '=', 1).execute()
      const carol = await preview(ids.carol)
      expect(carol.torrentCount).toBe(1)
      expect(carol.amount).toBeGreaterThan(0)
      expect(carol.items).toEqual([expect.objectContaining({ torrentId: 4, qualified: true, reason: null })])
    } finally {
      await db.updateTable('sync_state').set({ source }).where('id', '=', 1).execute()
    }
  })
})
