/**
 * Found by an outside tester (fixed since; the test keeps it so): under the rule preset 「NexusPHP 认领结算」 a claimed torrent smaller than `minSizeGiB`
 * is paid by the wage engine (formula.ts: the preset skips the size check, as NexusPHP's ClaimRepository::settleUser
 * pays every reached claim whatever its size — calculate_seed_bonus has no size floor unless `bonus.min_size` is set,
 * and /data-sync itself says the preset has no such rule), yet the derivation marks the member's active claimed seeding
 * record 5 无工资 because `minSizeGiB` (left at its default 1 GiB by the preset) is applied regardless of the mode.
 *
 * What a site sees: a member seeding her claimed 0.5 GiB torrent is told 无工资 all month while the wage record at the
 * end of the month pays her for it. Status and wage must agree: 3 做种中.
 */
import { describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset } from '@shared/entities'
import { SeedStatus } from '@shared/enums'
import { derive } from './index'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { unqualifiedKind } from '../wages/formula'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases())('「NexusPHP 认领结算」: status of a claimed small torrent on $name', (backend) => {
  const t = useSeedingDb(backend)

  it('a claimed 0.5 GiB torrent the preset pays is 做种中 (3) while seeded, not 无工资 (5)', async () => {
    const rules = { ...defaultRuleBody, ...nexusphpClaimsPreset, officialTeams: ['CedarHD'] }
    await saveRules(t.db.database.db, rules, NOW - 30 * 86_400_000, null)
    const w = t.world
    await w.team(1, 'CedarHD')
    const alice = await w.member('alice', 1001)
    await w.torrent(2, { size: 0.5 * GIB, team: 1 })
    await w.snatch(1001, 2, { finished: true })
    await w.peer(1001, 2, { seeder: true, lastAction: NOW - 5 * MIN })
    await w.claim(1001, 2)

    // The wage engine under this preset pays such a record once it reaches the standard (no size check):
    const kind = unqualifiedKind(
      {
        userId: alice,
        torrentId: 2,
        torrentName: 't',
        size: 0.5 * GIB,
        official: true,
        addedAt: NOW - 100 * 86_400_000,
        seeders: 1,
        claimedAt: NOW - 40 * 86_400_000,
        seedTimeGainSec: 400 * 3600,
        uploadedGain: 0,
      },
      { userId: alice, status: 2 },
      rules,
    )
    expect(kind).toBeNull()

    await derive(t.db.database, { now: NOW, full: true })
    // It was 5 (无工资): the derivation applied minSizeGiB whatever the wage mode.
    expect((await w.record(alice, 2))?.status).toBe(SeedStatus.Seeding)
  })
})
