/**
 * Found by an outside tester (fixed since; the test keeps it so): a month paid after a later one (settleClaims) never
 * got its claim settlement.
 *
 * What the site/member sees: December 2025 is paid into the site after January 2026 (the admin paid January first,
 * or December's run failed and was retried later). The member's claim, made in July and unreached in December
 * (50 h of 300), is never removed and the 600 deduction is never taken: January's payout judged it over December
 * AND January together (450 h: "reached"), restarted it with last_settle_at = 2026-02-01, and December's payout
 * then finds no claim "not yet settled for December" (last_settle_at < 2026-01-01) and does nothing to it. The
 * member keeps a claim NexusPHP would have cancelled, and 600 points.
 *
 * What NexusPHP does for the same months: its cron (ClaimRepository::settleCronjob → settleUser, run on each month's
 * 1st) settles every month in order. On 2026-01-01, settleUser (app/Repositories/ClaimRepository.php, the loop over
 * the member's claims: `bcsub($row->snatch->seedtime, $row->seed_time_begin) >= $seedTimeRequiredHours * 3600 || …`
 * else `$startOfThisMonth->diffInMonths($targetStartOfMonth) > 1` → $unReachedIdArr) finds 50 h since the begins
 * set on 2025-12-01, removes the claim (`Claim::query()->whereIn('id', $unReachedIdArr)->delete()`) and
 * `decrement('seedbonus', $totalDeduct)` with claim_remove_deduct_user_bonus (600, Claim::REMOVE_DEDUCT).
 *
 * Fixed: with settleClaims, a month waits while an earlier month of the member is still to be paid into the site
 * (month-over.ts earlierMonthsUnpaid): the payout names it, the dry run shows it blocked.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { wageDb } from '../wages/tables'
import { CLAIM_REMOVE_DEDUCT_TYPE } from './nexusphp-claims'
import { useSiteMonth } from './testing/site-month'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'

// December's wage: an amount, or 0 — a record taken only to settle the member's claims, which waits the same.
describe.skipIf(!serverUrl).each([12.3, 0])('claims settled when months are paid out of order (December: %s)', (decemberAmount) => {
  let december = 0
  let claimId = 0
  const { t, service, wage, credit, settleClaims } = useSiteMonth(serverUrl, 'InnoDB', { count: 1, bonus: () => START, operator })

  beforeAll(async () => {
    // Member 1001: torrent 1 at 1,000 h in our snapshot of 2026-01-01, 1,400 h in that of 2026-02-01 (wage-month.ts).
    await settleClaims(true)
    // The site's cron settled November on 2025-12-01 (begins 950 h), then the console took the settlement over.
    // December: 50 h (unreached); January: 400 h.
    claimId = await t.site.claim(1001, 1, {
      size: 10 * GIB,
      seedtime: 1400 * H,
      uploaded: 5 * GIB,
      seedBegin: 950 * H,
      uploadedBegin: 5 * GIB,
      createdAt: '2025-07-01 10:00:00',
      lastSettleAt: '2025-12-01 00:00:05',
    })
    // December's wage record of the same member (computed, not yet paid into the site).
    const jan = await wageDb(t.db.database.db).selectFrom('wage_records').selectAll().where('id', '=', wage(1001)).executeTakeFirstOrThrow()
    const { id: _id, payment: _p, paid_at: _a, paid_by_id: _b, paid_by_name: _n, ...copy } = jan
    const inserted = await wageDb(t.db.database.db)
      .insertInto('wage_records')
      .values({ ...copy, period: '2025-12', amount: decemberAmount })
      .returning('id')
      .executeTakeFirstOrThrow()
    december = Number(inserted.id)
  }, 120_000)

  it('January paid before December: December’s unreached claim is still removed with its deduction, as the site’s cron does', async () => {
    const [jan] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    const [dec] = await service().run({ ids: [december] }, operator, '127.0.0.1')
    // A fix may refuse January until December is settled: January is paid once more after December.
    const [janAgain] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(dec!.status).toBe('paid')
    expect(['paid', 'already']).toContain(janAgain!.status)
    // January waited for December, and said so.
    expect(jan).toMatchObject({ status: 'failed' })
    expect(jan!.reason).toContain('请先将 2025-12 的工资发放到站点')

    // NexusPHP: removed on 2026-01-01 (50 h < 300 h, claimed in July), 600 deducted, once.
    expect((await t.site.claims(1001)).map((c) => Number(c.id))).not.toContain(claimId)
    const deductions = (await t.site.logs(1001)).filter((l) => Number(l.business_type) === CLAIM_REMOVE_DEDUCT_TYPE)
    expect(deductions.map((l) => Number(l.value))).toEqual([600])
    expect(await t.site.bonus(1001)).toBe(formatTenths(parseTenths(START) + credit(1001) + creditTenths(decemberAmount) - 6000n))
  })
})
