/**
 * Found by an outside tester (fixed since; the test keeps it so). 工资排行: members tied on an amount are listed "by username, byte order: the same on both databases and in JS"
 * (wages/queries.ts byName; the 首页 top 10 was fixed to list a tie "in byte order, as 工资排行"). The JS comparison
 * `a < b` is UTF-16 code-unit order, not byte (UTF-8 / collate "C" / SQLite BINARY) order: they disagree as soon as a
 * name holds a character outside the BMP (CJK Extension B, e.g. 𠮷 U+20BB7, a real surname character) and the other a
 * character from U+E000–U+FFFF (full-width letters, CJK compatibility ideographs). Usernames allow any \p{L}.
 *
 * Figures: 'ｆｅｎｇ' (U+FF46…) and '𠮷田' are both paid 100.00 in 2026-01 (rank 1, shared). In byte order ｆｅｎｇ
 * (EF BD 86…) comes before 𠮷田 (F0 A0 AE B7…) — that is how the database sorts them (工资计算 sorted by 保种员, the
 * 首页 top 10); 工资排行 (and the export, which ranks the same way) listed 𠮷田 first (D842 < FF46 in UTF-16). byName now
 * compares the UTF-8 bytes.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { WageRankEntry, WageRecord } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { GIB } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { wageDb } from '../wages/tables'

const NOW = Date.UTC(2026, 1, 10, 4, 0, 0)

describe.each(openTestDatabases())('工资排行 tie order ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    const ids = [await w.member('ｆｅｎｇ', 1001), await w.member('𠮷田', 1002), await w.member('zed', 1003)]
    const amounts = [100, 100, 50]
    await wageDb(db)
      .insertInto('wage_records')
      .values(
        ids.map((userId, i) => ({
          user_id: userId,
          period: '2026-01',
          amount: amounts[i],
          torrent_count: 1,
          total_size: 10 * GIB,
          seed_hours: 400,
          sum_value: 1,
          below_minimum: 0,
          paid_at: null,
          paid_by_id: null,
          paid_by_name: null,
          computed_at: NOW,
          rule_version: 1,
        })),
      )
      .execute()
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  it('(control) the database’s byte order of the names: ｆｅｎｇ before 𠮷田', async () => {
    expect(Buffer.compare(Buffer.from('ｆｅｎｇ'), Buffer.from('𠮷田'))).toBe(-1)
    const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01', orderBy: 'username ASC' },
    })
    expect(page.body.data.list.map((r) => r.username)).toEqual(['zed', 'ｆｅｎｇ', '𠮷田'])
  })

  it('工资排行 lists the tie in the same byte order', async () => {
    const rank = await t.call<{ list: WageRankEntry[] }>('POST', '/wages/rank', {
      token,
      body: { page: 1, pageSize: 10, period: '2026-01' },
    })
    expect(rank.body.data.list.map((r) => [r.rank, r.username])).toEqual([
      [1, 'ｆｅｎｇ'],
      [1, '𠮷田'],
      [3, 'zed'],
    ])
  })
})
