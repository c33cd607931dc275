/**
 * Found by an outside tester (fixed since; the test keeps it so): a whole month's payout (settleClaims) wrote a 0-point "wage" into the site for a member whose claims
 * there is nothing to settle for.
 *
 * What the site/member sees: member 1003 earned 0 in January, and its claims were already settled for January by the
 * site's own cron (last_settle_at = 2026-02-01 00:00:07 — README keeps the cron on where other site users claim
 * too, and the cron, `claim:settle` hourly on the 1st, always runs before the month is payable). The whole-month
 * payout still takes its 0 record (wages.ts selectWages: any claim made before the month's end in our mirror), and
 * writes into the site a bonus_logs row of 0 and a message 「你 2026-01 的保种工资 0 魔力已发放到你的账户」 with
 * nothing about claims — for a member who, without claims, would get nothing. The 0 record is taken only "because
 * paying settles the claims" (MonthOptions), and here it settles none.
 *
 * What NexusPHP does: ClaimRepository::settleCronjob (app/Repositories/ClaimRepository.php) selects only users with a
 * claim made before the month whose `last_settle_at` is before the month's start or NULL; settleUser returns false
 * without writing anything (no bonus change, no Message::add) when a claim was settled this month already
 * (`$row->last_settle_at->gte($startOfThisMonth)` → "No force, return"). Nothing is written for member 1003.
 *
 * Fixed in nexusphp-pay.ts: a fresh attempt of a 0 credit whose claims plan is empty writes nothing and is done.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { PERIOD } from './testing/wage-month'
import { useSiteMonth } from './testing/site-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'

describe.skipIf(!serverUrl)('a 0 record whose claims the site has settled already', () => {
  const { t, service, wage, settleClaims } = useSiteMonth(serverUrl, 'InnoDB', { count: 3, idle: 1, bonus: () => START, operator })

  beforeAll(async () => {
    // 1003 seeds 10 hours only: a wage of 0 (wage-month.ts); it claimed torrents 5 and 6 in July 2025.
    await settleClaims(true)
    // The site's cron settled everyone's January on 2026-02-01 at 00:00.
    const settled = { size: 10 * GIB, uploaded: 0, uploadedBegin: 0, createdAt: '2025-07-01 10:00:00', lastSettleAt: '2026-02-01 00:00:07' }
    for (const [uid, torrents] of [
      [1001, [1, 2]],
      [1002, [3, 4]],
      [1003, [5, 6]],
    ] as const)
      for (const torrent of torrents) await t.site.claim(uid, torrent, { ...settled, seedtime: 1400 * H, seedBegin: 1400 * H })
  }, 120_000)

  it('writes nothing into the site for the 0 record of a member with no claim left to settle', async () => {
    expect(t.month.amounts.get(1003)).toBe(0)
    const results = await service().run({ period: PERIOD }, operator, '127.0.0.1')
    for (const uid of [1001, 1002]) expect(results.find((r) => r.wageId === wage(uid))?.status).toBe('paid')
    // NexusPHP: nothing for 1003 (settleCronjob does not select it; settleUser would return false).
    expect(await t.site.messages(1003)).toEqual([])
    expect(await t.site.logs(1003)).toEqual([])
    expect(await t.site.bonus(1003)).toBe(START)
    // Its claims as the site's cron left them.
    expect((await t.site.claims(1003)).map((c) => c.last_settle_at)).toEqual(['2026-02-01 00:00:07', '2026-02-01 00:00:07'])
  })
})
