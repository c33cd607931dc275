/**
 * NexusPHP's own monthly claim settlement, as a site runs it, and the month it closes. Its cron
 * (app/Console/Kernel.php `claim:settle`, hourly on the 1st; ClaimRepository::settleUser) pays every
 * claimant for the seed time since each claim's `seed_time_begin`, then sets `seed_time_begin` /
 * `uploaded_begin` to the snatch's counters of that moment, `last_settle_at` and `updated_at` to now —
 * the claims made during the month included. The console's next sync copies those values; the month
 * is computed after it (always: its end counters are the 1st's), so a claim made in the month must
 * still count from what the claim noted when it was made.
 *
 * Rows are written the way the site writes them (announce.php's snatched, Laravel's claims, the cron's
 * UPDATE through Laravel's connection) and synced by the real sync at instants of the site's clock.
 * Runs on the MariaDB/MySQL of NEXUSPHP_TEST_DATABASE_URL (skipped without it); the console on SQLite,
 * and on PostgreSQL too when DATABASE_URL is set.
 */
import type { FastifyInstance } from 'fastify'
import { beforeEach, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import { previewInProcess } from '../../wages/engine'
import { settleUser, type NexusClaim } from '../../wages/testing/nexusphp-settle'
import type { FixtureShape, NexusFixture } from './testing/fixture'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations } from './testing/scenarios'

const H = 3600
/** The site's wall clock (+08:00: NexusPHP's shipped PRC, the fixture's zone and NEXUSPHP_TIMEZONE unset) → epoch ms. */
const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)

const kit = scenarioKit()
let siteShape: FixtureShape = 'innodb'

describe.skipIf(!serverUrl).each(siteCombinations)("NexusPHP's own claim settlement on $name", ({ backend, shape }) => {
  beforeEach(() => void (siteShape = shape))

  async function sync(app: FastifyInstance, wall: string): Promise<void> {
    const result = await app.services.sync.runOnce(local(wall))
    if (!result.ran) throw new Error('the sync did not run')
  }

  /** announce.php's counters of a seeding client at `wall`. */
  async function seeded(nx: NexusFixture, torrent: number, hours: number, gib: number, wall: string): Promise<void> {
    await nx.exec('UPDATE snatched SET seedtime = ?, uploaded = ?, last_action = FROM_UNIXTIME(?) WHERE userid = 1001 AND torrentid = ?', [
      hours * H,
      gib * GIB,
      local(wall) / 1000,
      torrent,
    ])
    await nx.exec('UPDATE peers SET prev_action = last_action, last_action = FROM_UNIXTIME(?) WHERE userid = 1001 AND torrent = ?', [
      local(wall) / 1000,
      torrent,
    ])
  }

  /** settleUser's UPDATE for the claims it keeps, run through Laravel's connection at `at` (its `$now`). */
  async function nexusphpCron(nx: NexusFixture, at: number): Promise<void> {
    const wall = await nx.wallClock(at)
    await nx.laravel(() =>
      nx.exec(
        'UPDATE claims c JOIN snatched s ON s.id = c.snatched_id SET c.seed_time_begin = s.seedtime, c.uploaded_begin = s.uploaded, c.last_settle_at = ?, c.updated_at = ?',
        [wall, wall],
      ),
    )
  }

  it('a claim made during the month is paid from the counters it noted, after the cron on the 1st has reset them', async () => {
    const nx = await kit.site(siteShape)
    await nx.user({ id: 1001, username: 'alice' })
    await nx.team(1, 'CMCT')
    await nx.torrent({ id: 1, team: 1, size: 20 * GIB, added: local('2025-06-01 12:00'), seeders: 1 })
    // Seeding since before the month: 80 h on the 1st of March.
    await nx.snatch({
      userid: 1001,
      torrent: 1,
      finished: true,
      lastAction: local('2026-02-28 23:00'),
      startdat: local('2025-12-01 10:00'),
      seedtime: 80 * H,
    })
    await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: local('2026-02-28 23:00') })
    const { db, app } = await kit.console_(backend, { NEXUSPHP_DATABASE_URL: nx.url })
    await saveRules(
      db.database.db,
      { ...defaultRuleBody, ...nexusphpClaimsPreset, officialTeams: ['CMCT'] },
      local('2026-01-01 00:00'),
      null,
    )
    const alice = await addMember(db.database, 'alice', 1001)
    await sync(app, '2026-03-01 00:20') // March's start snapshot

    // March 10th: she claims it with 100 h on the snatch (Laravel notes seed_time_begin = 360,000).
    await seeded(nx, 1, 100, 2, '2026-03-10 11:50')
    await nx.claim({ uid: 1001, torrent: 1, createdAt: local('2026-03-10 12:00') })
    await sync(app, '2026-03-10 12:10')
    await seeded(nx, 1, 500, 6, '2026-03-31 23:40')
    await sync(app, '2026-03-31 23:50')

    // What NexusPHP pays for March at its cron: 400 h since the claim's seed_time_begin.
    const [row] = await nx.rows<{ id: number; seed_time_begin: string; uploaded_begin: string; seedtime: string; uploaded: string }>(
      'SELECT c.id, c.seed_time_begin, c.uploaded_begin, s.seedtime, s.uploaded FROM claims c JOIN snatched s ON s.id = c.snatched_id',
    )
    const cronAt = local('2026-04-01 00:00') + 5_000
    const claim: NexusClaim = {
      id: Number(row!.id),
      torrentId: 1,
      seedTimeBegin: Number(row!.seed_time_begin),
      uploadedBegin: Number(row!.uploaded_begin),
      createdMonth: 2026 * 12 + 2,
      lastSettleAt: null,
      snatch: { seedtime: Number(row!.seedtime), uploaded: Number(row!.uploaded) },
    }
    const torrents = new Map([[1, { id: 1, added: local('2025-06-01 12:00') / 1000, size: 20 * GIB, seeders: 1 }]])
    const nexusphp = settleUser([claim], torrents, cronAt / 1000, { month: 2026 * 12 + 3, at: local('2026-04-01 00:00') / 1000 })
    expect(nexusphp).toMatchObject({ reached: [1], hoursAvg: 400 })

    // April 1st, 00:00: the cron settles and begins the claim again; the console syncs at 00:20.
    await nexusphpCron(nx, cronAt)
    await sync(app, '2026-04-01 00:20')
    const mirrored = await db.database.db.selectFrom('site_claims').select(['seed_time_begin', 'last_settle_at']).executeTakeFirstOrThrow()
    expect(Number(mirrored.seed_time_begin)).toBe(500 * H)
    expect(Number(mirrored.last_settle_at)).toBe(Math.floor(cronAt / 1000) * 1000)

    const answer = await previewInProcess(db.database.db, '2026-03', local('2026-04-01 00:30'), alice)
    expect(answer.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seedHours: 400, qualified: true, partial: false })])
    expect(
      Math.abs(answer.list[0]!.amount - nexusphp.bonusFinal),
      `console ${answer.list[0]!.amount}, NexusPHP ${nexusphp.bonusFinal}`,
    ).toBeLessThanOrEqual(0.1)

    // April counts from the begins the cron wrote — the 1st's counters, the start snapshot.
    await seeded(nx, 1, 520, 6, '2026-04-02 11:50')
    await sync(app, '2026-04-02 12:00')
    const april = await previewInProcess(db.database.db, '2026-04', local('2026-04-02 12:10'), alice)
    expect(april.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seedHours: 20, qualified: false })])
  })
})
