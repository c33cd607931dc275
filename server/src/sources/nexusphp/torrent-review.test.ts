/**
 * Torrent review (NexusPHP 1.7+, `torrents.approval_status`: 0 not reviewed, 1 allowed, 2 denied). A site that
 * hides the torrents its review has not approved (setting `torrent.approval_status_none_visible` = 'no') has
 * announce refuse them ("torrent review not approved", announce.php / TrackerRepository::checkTorrent):
 * nobody can seed one, exactly as nobody can seed a banned torrent — so the console takes it as banned: not
 * 官种 by rule, not assignable, left out by the automatic assignment, marked on the torrent pages. Rows are
 * written as the site writes them (an upload: approval_status 0; TorrentRepository::approval: 1 with banned
 * 'no' and visible 'yes', or 2 with banned 'yes' and visible 'no', last_action untouched), on both site shapes
 * (a v1.6 site upgraded in place has the column on its MyISAM torrents) and every console database.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { torrentSchema } from '@shared/entities'
import { CompletionLabel, SeedType } from '@shared/enums'
import { createSession } from '../../auth/sessions'
import type { AppDatabase } from '../../db/database'
import { SyncRunner } from '../../jobs/sync'
import { defaultRuleBody, saveRules } from '../../rules/rules'
import { buildTestApp } from '../../test/harness'
import { createWageEstimates } from '../../wages/estimates'
import { nexusphpSource } from './index'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations } from './testing/scenarios'

const MIN = 60_000
const NotReviewed = 0
const Allowed = 1
const Denied = 2
const HIDE_UNAPPROVED = 'torrent.approval_status_none_visible'

const kit = scenarioKit()

/** torrent → [seed type, banned, completion]. */
async function labels(db: AppDatabase): Promise<Record<number, [number, number, number]>> {
  const { rows } = await sql<{
    torrent_id: number
    seed_type: number
    banned: number
    completion: number
  }>`select torrent_id, seed_type, banned, completion from torrent_labels order by torrent_id`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [Number(r.torrent_id), [Number(r.seed_type), Number(r.banned), Number(r.completion)]]))
}

async function sync(app: FastifyInstance): Promise<void> {
  const result = await app.services.sync.runOnce()
  if (!result.ran) throw new Error('the sync did not run')
}

const Official = SeedType.Official
const Unofficial = SeedType.Unofficial
const { OfficialIncomplete, UnofficialIncomplete } = CompletionLabel

describe.skipIf(!serverUrl).each(siteCombinations)('torrent review on $name', ({ backend, shape }) => {
  it('a torrent awaiting review is refused by announce: not 官种, cannot be assigned, not in the keeper targets — until the staff approve it', async () => {
    const nx = await kit.site(shape)
    const now = await nx.now()
    await nx.setting(HIDE_UNAPPROVED, 'no')
    await nx.user({ id: 1001, username: 'alice' })
    await nx.user({ id: 1002, username: 'bob' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1, approvalStatus: Allowed })
    // An upload by a class below `torrent-approval-allow-automatic`: not reviewed yet.
    await nx.torrent({ id: 2, team: 1, approvalStatus: NotReviewed })
    // Denied by the staff: TorrentRepository::approval bans and hides it too.
    await nx.torrent({ id: 3, team: 1, approvalStatus: Denied, banned: true, visible: false })
    await nx.peer({ userid: 1002, torrent: 1, seeder: true, lastAction: now - 2 * MIN })
    await nx.snatch({ userid: 1002, torrent: 1, finished: true, lastAction: now - 2 * MIN })
    const { db, app } = await kit.console_(backend, { NEXUSPHP_DATABASE_URL: nx.url })
    const alice = await addMember(db.database, 'alice', 1001)
    await addMember(db.database, 'bob', 1002)
    const admin = await db.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    const token = await createSession(db.database.db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, Date.now())
    const call = async <T>(path: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url: API_PREFIX + path, headers: { [TOKEN_HEADER]: token }, payload: body as object })
      return { status: res.statusCode, body: res.json<{ msg: string; data: T }>() }
    }
    const page = async () => {
      const res = await call<{ list: unknown[] }>('/torrent/page', { page: 1, pageSize: 20 })
      return Object.fromEntries(res.body.data.list.map((x) => torrentSchema.parse(x)).map((x) => [x.id, [x.seedType, x.banned]]))
    }
    const planned = async () => [
      ...new Set(
        (await call<{ plan: { torrentId: number }[] }>('/task/auto-assign', { preview: true })).body.data.plan.map((p) => p.torrentId),
      ),
    ]

    await sync(app)
    // Torrent 2 is unofficial by rule (no keeper target) and marked like the banned one.
    expect(await labels(db.database)).toEqual({
      1: [Official, 0, OfficialIncomplete],
      2: [Unofficial, 1, UnofficialIncomplete],
      3: [Unofficial, 1, UnofficialIncomplete],
    })
    expect(await page()).toEqual({ 1: [Official, false], 2: [Unofficial, true], 3: [Unofficial, true] })
    const refused = await call('/task/assign', { torrentIds: [2], userIds: [alice] })
    expect(refused.status).toBe(409)
    expect(refused.body.msg).toBe('种子已被站点禁止或未审核通过，无法保种，不能分配：2')
    expect(await db.database.db.selectFrom('assignments').select('torrent_id').execute()).toEqual([])
    expect(await planned()).toEqual([1])

    // The staff approve it (TorrentRepository::approval: last_action stays): the next sync's refresh brings it.
    await nx.exec("UPDATE torrents SET approval_status = 1, banned = 'no', visible = 'yes' WHERE id = 2")
    await sync(app)
    expect(await labels(db.database)).toEqual({
      1: [Official, 0, OfficialIncomplete],
      2: [Official, 0, OfficialIncomplete],
      3: [Unofficial, 1, UnofficialIncomplete],
    })
    expect(await page()).toEqual({ 1: [Official, false], 2: [Official, false], 3: [Unofficial, true] })
    expect(await planned()).toEqual([2, 1])
    expect((await call('/task/assign', { torrentIds: [2], userIds: [alice] })).status).toBe(200)
  })

  it('a change of the setting re-reads the mirrored torrents it concerns in the next sync; unreadable settings keep the last rule', async () => {
    const nx = await kit.site(shape)
    const now = Math.floor((await nx.now()) / 1000) * 1000
    await nx.team(1, 'CMCT')
    // The rolling refresh reads one torrent a sync (1, 2, 3, …): it never reaches 8 and 9 here.
    for (let id = 1; id <= 7; id++) await nx.torrent({ id, team: 1, approvalStatus: Allowed })
    // Banned by the site itself, and one awaiting review.
    await nx.torrent({ id: 8, team: 1, approvalStatus: Allowed, banned: true })
    await nx.torrent({ id: 9, team: 1, approvalStatus: NotReviewed })
    const db = await backend.open()
    kit.cleanups.push(() => db.cleanup())
    // The app migrates the database; the syncs are this test's own runner's (its tuning).
    const app = await buildTestApp({ database: db.database, config: db.config })
    kit.cleanups.push(() => app.close())
    await saveRules(db.database.db, { ...defaultRuleBody, officialTeams: ['CMCT'] }, now, null)
    const source = nexusphpSource({ databaseUrl: nx.url, timezone: undefined }, { tuning: { idChunk: 1, slowRefreshSyncs: 1000 } })
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => now })
    kit.cleanups.push(() => runner.stop())
    const banned = async () =>
      Object.fromEntries(
        (
          await db.database.db
            .selectFrom('torrent_labels')
            .select(['torrent_id', 'seed_type', 'banned'])
            .where('torrent_id', '>=', 7)
            .execute()
        ).map((r) => [r.torrent_id, [r.seed_type, r.banned]]),
      )

    // No setting row: NexusPHP shows unreviewed torrents (its install writes 'yes'), announce takes them.
    await runner.runOnce(now)
    expect(await banned()).toEqual({ 7: [Official, 0], 8: [Unofficial, 1], 9: [Official, 0] })

    await nx.setting(HIDE_UNAPPROVED, 'no')
    await runner.runOnce(now + MIN)
    expect(await banned()).toEqual({ 7: [Official, 0], 8: [Unofficial, 1], 9: [Unofficial, 1] })

    // The settings cannot be read (a table not granted): the rule stays as it was.
    await nx.exec('RENAME TABLE settings TO settings_away')
    await runner.runOnce(now + 2 * MIN)
    expect(await banned()).toEqual({ 7: [Official, 0], 8: [Unofficial, 1], 9: [Unofficial, 1] })
    await nx.exec('RENAME TABLE settings_away TO settings')

    // Shown again: the one awaiting review is free, the site's own ban stays.
    await nx.setting(HIDE_UNAPPROVED, 'yes')
    await runner.runOnce(now + 3 * MIN)
    expect(await banned()).toEqual({ 7: [Official, 0], 8: [Unofficial, 1], 9: [Official, 0] })
  })

  it('a site without torrents.approval_status (before 1.7) reads banned as before, whatever the setting says', async () => {
    const nx = await kit.site(shape)
    await nx.exec('ALTER TABLE torrents DROP COLUMN approval_status')
    await nx.setting(HIDE_UNAPPROVED, 'no')
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1 })
    await nx.torrent({ id: 2, team: 1, banned: true })
    const { db, app } = await kit.console_(backend, { NEXUSPHP_DATABASE_URL: nx.url })
    await sync(app)
    expect(await labels(db.database)).toEqual({
      1: [Official, 0, OfficialIncomplete],
      2: [Unofficial, 1, UnofficialIncomplete],
    })
  })
})
