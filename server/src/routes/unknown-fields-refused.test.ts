/**
 * The write calls refuse a field they do not know, by name, as the paged calls do (shared/paging.ts: a misspelt
 * filter refused rather than dropped). Found by an outside tester: the same slip in a write was silently dropped —
 *
 * - `POST /task/unassign { torrentIds: [1], userId: [alice] }` (userId singular, as every paged call and
 *   /user/page-seed spell it) drops `userId`, and an absent `userIds` means 全部用户: every member's
 *   assignment of the torrent is removed, not alice's only — a destructive batch widened by a typo.
 * - `POST /user/update { id, siteUID: 7 }` answers 200 「ok」 and changes nothing: the caller is told the
 *   edit was saved.
 * - `POST /wages/payout { period, id: [5] }` drops `id` and is read as the whole month.
 *
 * Now: 400 naming the unknown field (docs/api.md: 400 invalid input, msg names the field and the rule, in Chinese),
 * nothing written, no operation-log row.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { derive } from '../derive'
import { GIB } from '../rules/rules'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('unknown fields of write calls ($name)', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { alice: 0, bob: 0 }
  let token = ''

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    ids.alice = await w.member('alice', 1001)
    ids.bob = await w.member('bob', 1002)
    await w.team(1, 'CedarHD')
    await w.torrent(1, { team: 1, size: 4 * GIB })
    await derive(t.db.database, { now: NOW })
    token = await t.login('admin', ADMIN_PASSWORD)
    const assigned = await t.call('POST', '/task/assign', { token, body: { torrentIds: [1], userIds: [ids.alice, ids.bob] } })
    expect(assigned.status).toBe(200)
  })

  it('task.unassign with a misspelt userIds is refused, and does not remove every member’s assignment', async () => {
    const before = await snapshot(t)
    expect(before.assignments).toHaveLength(2)
    const res = await t.call('POST', '/task/unassign', { token, body: { torrentIds: [1], userId: [ids.alice] } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/userId/)
    // bob's assignment (and alice's) untouched, no log row
    expect(await snapshot(t)).toEqual(before)
  })

  it('user.update with a misspelt field is refused, not answered 「ok」 with nothing saved', async () => {
    const before = await snapshot(t)
    const res = await t.call('POST', '/user/update', { token, body: { id: ids.alice, siteUID: 7 } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/siteUID/)
    expect(await snapshot(t)).toEqual(before)
  })

  it('wages.payout with a misspelt ids is refused, not taken as 「the whole month」', async () => {
    // `id` (singular) is dropped, so the call is read as { period } — every record of the month. The dry run
    // shows it without writing; the same body to POST /wages/payout would pay the whole month.
    const res = await t.call('POST', '/wages/payout/preview', { token, body: { period: '2025-12', id: [1] } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/\bid\b/)
  })
})
