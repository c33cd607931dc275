/**
 * Found by an outside tester (fixed since; the test keeps it so): the dry run of a whole month (settleClaims) showed,
 * for a member whose wage is 0 and whose claims the site's own cron had settled for the month, a ready payout — a log
 * comment and a 「…0 魔力…」 message about to be written — while the payout writes nothing for that member
 * (claims-zero-settled.test.ts). Spec: the dry run shows exactly what will be written.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { PERIOD } from './testing/wage-month'
import { useSiteMonth } from './testing/site-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'

describe.skipIf(!serverUrl)('the dry run of a 0 record whose claims the site has settled already', () => {
  const { t, service, wage, settleClaims } = useSiteMonth(serverUrl, 'InnoDB', { count: 3, idle: 1, bonus: () => START, operator })

  beforeAll(async () => {
    await settleClaims(true)
    const settled = { size: 10 * GIB, uploaded: 0, uploadedBegin: 0, createdAt: '2025-07-01 10:00:00', lastSettleAt: '2026-02-01 00:00:07' }
    for (const [uid, torrents] of [
      [1001, [1, 2]],
      [1002, [3, 4]],
      [1003, [5, 6]],
    ] as const)
      for (const torrent of torrents) await t.site.claim(uid, torrent, { ...settled, seedtime: 1400 * H, seedBegin: 1400 * H })
  }, 120_000)

  it('does not show a payout the run will not write', async () => {
    expect(t.month.amounts.get(1003)).toBe(0)
    const { list } = await service().preview({ period: PERIOD })
    const shown = list.filter((e) => e.wageId === wage(1003))
    const results = await service().run({ period: PERIOD }, operator, '127.0.0.1')
    // What the run wrote for 1003: nothing (the behaviour claims-zero-settled.test.ts keeps).
    expect(results.find((r) => r.wageId === wage(1003))).toBeDefined()
    expect(await t.site.messages(1003)).toEqual([])
    expect(await t.site.logs(1003)).toEqual([])
    // The dry run must not have announced a log row and a message for it as 'ready'.
    expect(shown.filter((e) => e.status === 'ready').map((e) => ({ status: e.status, subject: e.subject, note: e.note }))).toEqual([])
    expect(shown.map((e) => e.note)).toEqual(['工资为 0，站点已结算过本月的认领：发放时不写入任何东西（记为已发放）'])
  })
})
