/**
 * The January 2026 of the wage scenario tests (Asia/Shanghai): its bounds, rules naming CedarHD official, what the
 * formula pays for one qualified 20 GiB torrent (2 seeders, added 2025-01-01) — the torrent those scenarios keep —
 * and the steps they share (the scene, a site account, the admin's UID change, January as computed).
 */
import type { Kysely } from 'kysely'
import { expect } from 'vitest'
import type { WageDetail, WageRecord } from '@shared/entities'
import type { DB } from '../../db/schema'
import { defaultRuleBody, GIB, saveRules } from '../../rules/rules'
import type { TestAppHandle } from '../../test/harness'
import type { SeedingWorld } from '../../test/seeding-world'
import { memberAmount, torrentValue } from '../formula'

export const ZONE = 'Asia/Shanghai'
export const H = 3600
export const DAY = 86_400_000
/** 2026-01-01 00:00 Asia/Shanghai. */
export const JAN_START = Date.UTC(2025, 11, 31, 16, 0)
/** 2026-02-01 00:00 Asia/Shanghai. */
export const FEB_START = Date.UTC(2026, 0, 31, 16, 0)
export const januaryRules = { ...defaultRuleBody, officialTeams: ['CedarHD'] }
/** The torrent's `added`. */
export const TORRENT_ADDED = Date.UTC(2025, 0, 1)

/** January's wage of the one torrent at `hours` seed hours. */
export const januaryWageAt = (hours: number) =>
  memberAmount(
    {
      sumValue: torrentValue({ weeks: (FEB_START - TORRENT_ADDED) / (7 * DAY), sizeGiB: 20, seeders: 2, keeperRank: 1 }, januaryRules),
      qualifiedCount: 1,
      avgSeedHours: hours,
    },
    januaryRules,
  )

/** January's scene: CedarHD official from the day before, and `torrents` of 20 GiB (added 2025-01-01, 2 seeders). */
export async function januaryScene(db: Kysely<DB>, world: SeedingWorld, torrents: readonly number[] = [1]): Promise<void> {
  await world.team(1, 'CedarHD')
  await saveRules(db, januaryRules, JAN_START - DAY, null)
  for (const id of torrents) await world.torrent(id, { team: 1, size: 20 * GIB, added: TORRENT_ADDED, seeders: 2 })
}

/** A site account no member holds (say, a member's real account before the admin corrects the 站点 UID to it). */
export async function siteAccount(db: Kysely<DB>, id: number, username: string): Promise<void> {
  await db
    .insertInto('site_users')
    .values({ id, username, enabled: 1, added: Date.UTC(2020, 0, 1), last_access: null })
    .execute()
}

/** The admin's 站点 UID change of a member, as 保种员 → 编辑 sends it. */
export async function setSiteUid(t: TestAppHandle, token: string, userId: number, siteUid: number): Promise<void> {
  const res = await t.call('POST', '/user/update', { token, body: { id: userId, siteUid } })
  expect(res.status, res.body.msg).toBe(200)
}

/** January of `userId` as the admin sees it once 生成工资 ran: the record and its items. */
export async function computedJanuary(
  t: TestAppHandle,
  token: string,
  userId: number,
): Promise<{ record: WageRecord; detail: WageDetail }> {
  const res = await t.call('POST', '/wages/compute', { token, body: { period: '2026-01' } })
  expect(res.status, res.body.msg).toBe(200)
  const page = await t.call<{ list: WageRecord[] }>('POST', '/wages/page', {
    token,
    body: { page: 1, pageSize: 10, period: '2026-01', userId },
  })
  const record = page.body.data.list[0]!
  return { record, detail: (await t.call<WageDetail>('GET', `/wages/${record.id}`, { token })).body.data }
}

/**
 * alice, added with a wrong 站点 UID (1001: stopped at 100 h long ago) while her real account 1002 holds `realHours` of
 * torrent 1, which she is assigned; her id.
 */
export async function aliceOnWrongUid(db: Kysely<DB>, world: SeedingWorld, realHours: number): Promise<number> {
  const alice = await world.member('alice', 1001)
  await world.snatch(1001, 1, { finished: true, seedtime: 100 * H, lastAction: JAN_START - 30 * DAY })
  await siteAccount(db, 1002, 'alice_real')
  await world.snatch(1002, 1, { finished: true, seedtime: realHours * H, lastAction: JAN_START - DAY })
  await world.assign(alice, 1, Date.UTC(2025, 6, 1))
  return alice
}
