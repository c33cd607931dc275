/**
 * A v1.6 site's `snatched` has no unique (torrentid, userid) key (`KEY torrentid_userid`, not UNIQUE, in
 * `_db/dbstructure_v1.6.sql` and in the 2021 Laravel create_snatched_table), and v1.6 announce.php inserts a snatch
 * after a `SELECT COUNT(*)` without a lock: two clients of one member starting together leave two rows. Every later
 * announce updates both (`UPDATE snatched SET … WHERE torrentid = $torrentid AND userid = $userid`). NexusPHP's claim
 * notes the FIRST row (ClaimRepository::store: `Snatch::where(…)->first()` → `snatched_id`, `seed_time_begin`) and
 * its settlement reads that row (`$row->snatch`).
 *
 * The mirror keeps one row per (userid, torrentid): the first, as the site's claim does (reader.ts firstRowKeepsKey).
 * Keeping the last one read paired the claim's begins (row 1's counters) with row 2's smaller counters: the month's
 * seed time came out 0 and the wage 0, where NexusPHP pays 400 hours' worth. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import { previewInProcess } from '../../wages/engine'
import { settleUser, type NexusClaim } from '../../wages/testing/nexusphp-settle'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations } from './testing/scenarios'

const H = 3600
const local = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+08:00`)
const kit = scenarioKit()

describe.skipIf(!serverUrl).each(siteCombinations.filter((c) => c.shape === 'v16'))(
  'v1.6 duplicate snatched rows on $name',
  ({ backend }) => {
    async function sync(app: FastifyInstance, wall: string): Promise<void> {
      const result = await app.services.sync.runOnce(local(wall))
      if (!result.ran) throw new Error('the sync did not run')
    }

    it("a claim on a member's torrent with two snatched rows is paid as NexusPHP pays it", async () => {
      const nx = await kit.site('v16')
      await nx.user({ id: 1001, username: 'alice' })
      await nx.team(1, 'CMCT')
      await nx.torrent({ id: 1, team: 1, size: 20 * GIB, added: local('2025-06-01 12:00'), seeders: 1 })
      // Row 1: her seedbox since December. Row 2: her home client's start in January, inserted by the same race.
      const first = await nx.snatch({
        userid: 1001,
        torrent: 1,
        finished: true,
        lastAction: local('2026-02-28 23:00'),
        startdat: local('2025-12-01 10:00'),
        seedtime: 1000 * H,
      })
      await nx.snatch({
        userid: 1001,
        torrent: 1,
        finished: true,
        lastAction: local('2026-02-28 23:00'),
        startdat: local('2026-01-15 10:00'),
        seedtime: 300 * H,
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
      await sync(app, '2026-03-01 00:20')

      // announce.php: every announce adds the same seconds to both rows.
      const seeded = async (addHours: number, wall: string) => {
        await nx.exec('UPDATE snatched SET seedtime = seedtime + ?, last_action = FROM_UNIXTIME(?) WHERE userid = 1001 AND torrentid = 1', [
          addHours * H,
          local(wall) / 1000,
        ])
        await nx.exec('UPDATE peers SET prev_action = last_action, last_action = FROM_UNIXTIME(?) WHERE userid = 1001 AND torrent = 1', [
          local(wall) / 1000,
        ])
      }
      await seeded(100, '2026-03-10 11:50')
      // ClaimRepository::store: snatched_id, seed_time_begin of the first row (1,100 h).
      await nx.claim({ uid: 1001, torrent: 1, snatchedId: first, createdAt: local('2026-03-10 12:00') })
      await sync(app, '2026-03-10 12:10')
      await seeded(400, '2026-03-31 23:40')
      await sync(app, '2026-03-31 23:50')

      const [row] = await nx.rows<{ id: number; seed_time_begin: string; uploaded_begin: string; seedtime: string; uploaded: string }>(
        'SELECT c.id, c.seed_time_begin, c.uploaded_begin, s.seedtime, s.uploaded FROM claims c JOIN snatched s ON s.id = c.snatched_id',
      )
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
      const nexusphp = settleUser([claim], torrents, local('2026-04-01 00:00') / 1000 + 5, {
        month: 2026 * 12 + 3,
        at: local('2026-04-01 00:00') / 1000,
      })
      expect(nexusphp).toMatchObject({ reached: [1], hoursAvg: 400 })

      const answer = await previewInProcess(db.database.db, '2026-03', local('2026-04-01 00:30'), alice)
      expect(answer.list[0]!.items).toEqual([expect.objectContaining({ torrentId: 1, seedHours: 400, qualified: true })])
      expect(
        Math.abs(answer.list[0]!.amount - nexusphp.bonusFinal),
        `console ${answer.list[0]!.amount}, NexusPHP ${nexusphp.bonusFinal}`,
      ).toBeLessThanOrEqual(0.1)
    })
  },
)
