/**
 * Parity with NexusPHP's monthly claim settlement: under the
 * preset 「NexusPHP 认领结算」 the console's wage of every member equals, to 0.1 point, what NexusPHP
 * would credit for the same month — computed here by a reference transcribed line by line from NexusPHP's
 * code (xiaomlove/nexusphp: app/Repositories/ClaimRepository.php `settleUser`, include/functions.php
 * `calculate_seed_bonus`), not from our engine.
 *
 * The month: seven members, claims made before the month (already settled on the 1st, so their
 * seed_time_begin / uploaded_begin are the counters then) and during it (the counters when claimed),
 * official torrents and others, sizes from 0.5 to 80 GiB, ages from 5 days to 3 years, seeders 0 to 40,
 * members reaching the standard by time, by upload, not at all, one past the 7-torrent cap, and one
 * whose client is offline for a reached torrent when the settlement runs.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { nexusphpClaimsPreset, type WagePreviewEntry } from '@shared/entities'
import { defaultRuleBody, GIB, saveRules } from '../rules/rules'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { calculateSeedBonus as calculateNexusSeedBonus, settleUser, type NexusClaim, type NexusTorrent } from './testing/nexusphp-settle'
import { syncAt } from './testing/sync'

const ADMIN_PASSWORD = 'Admin-pass-1'
const H = 3600
const DAY = 86_400_000
const ZONE = 'Asia/Shanghai'
const MAR_START = Date.UTC(2026, 1, 28, 16, 0) // 2026-03-01 00:00 Asia/Shanghai
const APR_START = Date.UTC(2026, 2, 31, 16, 0) // 2026-04-01 00:00: NexusPHP's settlement runs now

interface TorrentSpec {
  id: number
  sizeGiB: number
  ageDays: number
  seeders: number
  official: boolean
}

const torrents: TorrentSpec[] = [
  { id: 1, sizeGiB: 40, ageDays: 400, seeders: 2, official: true },
  { id: 2, sizeGiB: 8, ageDays: 90, seeders: 12, official: true },
  { id: 3, sizeGiB: 0.5, ageDays: 1100, seeders: 0, official: false },
  { id: 4, sizeGiB: 80, ageDays: 20, seeders: 0, official: true },
  { id: 5, sizeGiB: 3, ageDays: 5, seeders: 40, official: false },
  { id: 6, sizeGiB: 15, ageDays: 200, seeders: 1, official: true },
  { id: 7, sizeGiB: 2, ageDays: 700, seeders: 5, official: false },
  { id: 8, sizeGiB: 25, ageDays: 60, seeders: 3, official: true },
  { id: 9, sizeGiB: 1, ageDays: 30, seeders: 7, official: true },
  { id: 10, sizeGiB: 60, ageDays: 1000, seeders: 0, official: false },
  { id: 11, sizeGiB: 4.5, ageDays: 14, seeders: 9, official: true },
  { id: 12, sizeGiB: 12, ageDays: 365, seeders: 4, official: false },
]

/**
 * One claim over the month. Counters in hours and GiB: `start` at the 1st (or, for a claim made in
 * the month, at the moment it was claimed — what NexusPHP writes into the claim), `end` at settlement.
 */
interface ClaimSpec {
  uid: number
  torrent: number
  /** Days into the month the claim was made; null = before the month. */
  claimedOnDay: number | null
  start: { hours: number; gib: number }
  end: { hours: number; gib: number }
  /** False: the member has no peer on the torrent when the settlement runs (client offline). */
  seedingAtSettlement?: false
}

const claims: ClaimSpec[] = [
  // m1: by time, by upload, and a claim made on the 10th that reaches by time since then.
  { uid: 2001, torrent: 1, claimedOnDay: null, start: { hours: 900, gib: 50 }, end: { hours: 1320, gib: 60 } },
  { uid: 2001, torrent: 2, claimedOnDay: null, start: { hours: 300, gib: 4 }, end: { hours: 450, gib: 4 + 17 } },
  { uid: 2001, torrent: 3, claimedOnDay: 9, start: { hours: 2000, gib: 1 }, end: { hours: 2310, gib: 1 } },
  // m2: a second claimer of torrent 1, and torrent 4 reported with 0 seeders.
  { uid: 2002, torrent: 1, claimedOnDay: null, start: { hours: 100, gib: 0 }, end: { hours: 450, gib: 3 } },
  { uid: 2002, torrent: 4, claimedOnDay: null, start: { hours: 10, gib: 0 }, end: { hours: 510, gib: 20 } },
  // m3: reaches nothing (200 h; a claim of the 20th with 250 h since) — NexusPHP credits 0.
  { uid: 2003, torrent: 5, claimedOnDay: null, start: { hours: 50, gib: 0 }, end: { hours: 250, gib: 1 } },
  { uid: 2003, torrent: 6, claimedOnDay: 19, start: { hours: 400, gib: 5 }, end: { hours: 650, gib: 5 } },
  // m4: eight reached claims — past the 7-torrent cap of the per-torrent bonus.
  ...[5, 6, 7, 8, 9, 10, 11, 12].map((torrent, i) => ({
    uid: 2004,
    torrent,
    claimedOnDay: null,
    start: { hours: 1000 + i, gib: 0 },
    end: { hours: 1000 + i + 300 + 50 * i, gib: 0.5 * i },
  })),
  // m5: a claim made on the 3rd (counters then: 5 h), seeded 320 h more; one unreached claim beside it.
  { uid: 2005, torrent: 12, claimedOnDay: 2, start: { hours: 5, gib: 0.2 }, end: { hours: 325, gib: 2 } },
  { uid: 2005, torrent: 2, claimedOnDay: null, start: { hours: 20, gib: 0 }, end: { hours: 120, gib: 1 } },
  // m6: reaches by upload only, on a torrent with 0 seeders and one with 40.
  { uid: 2006, torrent: 3, claimedOnDay: null, start: { hours: 0, gib: 0 }, end: { hours: 90, gib: 1.5 } },
  { uid: 2006, torrent: 5, claimedOnDay: null, start: { hours: 0, gib: 0 }, end: { hours: 40, gib: 7 } },
  // m7: two reached claims, the client offline for the 80 GiB one at settlement — NexusPHP still counts it
  // (calculate_seed_bonus reads the reached torrents from `torrents` alone, not from `peers`).
  { uid: 2007, torrent: 4, claimedOnDay: null, start: { hours: 0, gib: 0 }, end: { hours: 400, gib: 1 }, seedingAtSettlement: false },
  { uid: 2007, torrent: 10, claimedOnDay: null, start: { hours: 50, gib: 0 }, end: { hours: 380, gib: 0 } },
]

const members = [2001, 2002, 2003, 2004, 2005, 2006, 2007]

/** NexusPHP's settlement runs at the start of the next month (its `time()` / `Carbon::now()`). */
const SETTLED_AT = APR_START

/** What NexusPHP's settleUser credits the user for the month (testing/nexusphp-settle.ts: transcribed from its code, not from ours). */
function nexusphpCredit(uid: number): number {
  const rows: NexusClaim[] = claims
    .filter((c) => c.uid === uid)
    .map((row, i) => ({
      id: i + 1,
      torrentId: row.torrent,
      seedTimeBegin: row.start.hours * H,
      uploadedBegin: bytes(row.start.gib),
      // Made before March (in February, say) or in March (2026 × 12 + month − 1).
      createdMonth: row.claimedOnDay === null ? 2026 * 12 + 1 : 2026 * 12 + 2,
      lastSettleAt: null,
      snatch: { seedtime: row.end.hours * H, uploaded: bytes(row.end.gib) },
    }))
  return settleUser(rows, nexusTorrents, SETTLED_AT / 1000, { month: 2026 * 12 + 3, at: APR_START / 1000 }).bonusFinal
}

/** include/functions.php `calculate_seed_bonus` over these torrents at the settlement. */
const calculateSeedBonus = (ids: number[]) =>
  calculateNexusSeedBonus(
    ids.map((id) => nexusTorrents.get(id)!),
    SETTLED_AT / 1000,
  )

const bytes = (gib: number) => Math.round(gib * GIB)
const nexusTorrents = new Map<number, NexusTorrent>(
  torrents.map((t) => [t.id, { id: t.id, added: (APR_START - t.ageDays * DAY) / 1000, size: t.sizeGiB * GIB, seeders: t.seeders }]),
)

describe.each(openTestDatabases())('「NexusPHP 认领结算」 parity on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(APR_START + DAY) })
  const userIds = new Map<number, number>()
  let token = ''

  const sync = (now: number) => syncAt(t.db.database, now, ZONE)

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    await w.team(1, 'CedarHD')
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], ...nexusphpClaimsPreset }, MAR_START - 30 * DAY, null)
    for (const uid of members) userIds.set(uid, await w.member(`m${uid}`, uid))
    for (const spec of torrents) {
      await w.torrent(spec.id, {
        size: spec.sizeGiB * GIB,
        team: spec.official ? 1 : null,
        added: APR_START - spec.ageDays * DAY,
        seeders: spec.seeders,
      })
    }
    const snatchAt = MAR_START - 40 * DAY
    // Before the month: every snatch, and the claims made earlier (settled on the 1st: their begins are the counters then).
    for (const c of claims) {
      const counters = c.claimedOnDay === null ? c.start : { hours: Math.max(0, c.start.hours - 1), gib: c.start.gib }
      await w.snatch(c.uid, c.torrent, {
        finished: true,
        seedtime: counters.hours * H,
        uploaded: bytes(counters.gib),
        lastAction: snatchAt,
      })
      if (c.claimedOnDay === null) {
        await w.claim(c.uid, c.torrent, MAR_START - 60 * DAY)
        await setClaimBegins(c, MAR_START)
      }
    }
    await sync(MAR_START + 20 * 60_000)

    // During the month: the new claims, each noting the snatch's counters when made.
    for (const c of claims.filter((x) => x.claimedOnDay !== null).sort((a, b) => a.claimedOnDay! - b.claimedOnDay!)) {
      await w.updateSnatch(c.uid, c.torrent, { seedtime: c.start.hours * H, uploaded: bytes(c.start.gib) })
      await w.claim(c.uid, c.torrent, MAR_START + c.claimedOnDay! * DAY)
      await setClaimBegins(c, null)
      await sync(MAR_START + c.claimedOnDay! * DAY + 600_000)
    }

    // The settlement moment: the counters at month end, every claimed torrent seeding but m7's offline one.
    for (const c of claims) {
      await w.updateSnatch(c.uid, c.torrent, { seedtime: c.end.hours * H, uploaded: bytes(c.end.gib) })
      if (c.seedingAtSettlement !== false) await w.peer(c.uid, c.torrent, { seeder: true, lastAction: APR_START - 60_000 })
    }
    await sync(APR_START + 20 * 60_000)
    token = await t.login('admin', ADMIN_PASSWORD)

    async function setClaimBegins(c: ClaimSpec, settledAt: number | null) {
      await db
        .updateTable('site_claims')
        .set({ seed_time_begin: c.start.hours * H, uploaded_begin: bytes(c.start.gib), last_settle_at: settledAt })
        .where('uid', '=', c.uid)
        .where('torrent_id', '=', c.torrent)
        .execute()
    }
  })

  it("every member's wage equals NexusPHP's settlement to 0.1 point", async () => {
    const res = await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-03' } })
    expect(res.status).toBe(200)
    const got = new Map(res.body.data.list.map((e) => [e.userId, e.amount]))
    const expected = members.map((uid) => nexusphpCredit(uid))
    // The scenario exercises what it says: some pay, one pays nothing, m4 is past the cap, and m7's
    // offline torrent weighs: out of A and the count (as if NexusPHP required a seeding peer), m7 gets far less.
    expect(expected.filter((x) => x > 0)).toHaveLength(6)
    expect(claims.filter((c) => c.uid === 2004)).toHaveLength(8)
    const m7WithoutOffline = calculateSeedBonus([10]).seed_bonus * ((400 + 330) / 2)
    expect(expected[members.indexOf(2007)]! - m7WithoutOffline).toBeGreaterThan(1000)
    for (const [i, uid] of members.entries()) {
      const amount = got.get(userIds.get(uid)!)
      expect(amount, `m${uid}: console ${amount}, NexusPHP ${expected[i]}`).toBeDefined()
      expect(Math.abs(amount! - expected[i]!), `m${uid}: console ${amount}, NexusPHP ${expected[i]}`).toBeLessThanOrEqual(0.1)
    }
  })

  it('unofficial claimed torrents count under the preset; the items show why the others do not', async () => {
    const m1 = userIds.get(2001)!
    const res = await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-03', userId: m1 } })
    const items = res.body.data.list[0]!.items!
    // Torrent 3 has no official team; m6 claimed it first, and NexusPHP pays every claimer alike (factor 1 for rank 2).
    expect(items.map((i) => [i.torrentId, i.qualified, i.keeperRank]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [1, true, 1],
      [2, true, 1],
      [3, true, 2],
    ])
    const m3 = userIds.get(2003)!
    const none = (await t.call<{ list: WagePreviewEntry[] }>('POST', '/wages/preview', { token, body: { period: '2026-03', userId: m3 } }))
      .body.data.list[0]!
    expect(none.amount).toBe(0)
    expect(none.items!.every((i) => !i.qualified && i.reason!.startsWith('做种时长不足'))).toBe(true)
  })
})
