/**
 * Found by an outside tester (fixed since; the test keeps it so). What a user saw: a sync brings a torrent's ban (or its team/tag change, so it stops being 官种) and its
 * derivation fails half-way — the disk fills up while the records are written (sync.ts says so on
 * /data-sync), the app is closed, the connection drops. The next syncs' incremental passes never bring the
 * torrent's seed records along: 任务分配 shows the torrent as 非官种 / 已禁止, but the member's record
 * stays 做种中 (3) and 官种 in 保种记录 (filters by 官种 and by 做种中 list it, the 首页 byStatus counts it),
 * and the torrent keeps counting the member as a keeper (completion label); a member's new upload never
 * gets its 发布者 (6) record — until some full pass (a rules change) happens to repair it.
 *
 * What docs/domain.md says: §2/§3 — a claimed seeder of a torrent banned on the site is 5 无工资, the
 * torrent is never 官种 by rule, keepers are only status 3/4 records; the derivation runs after every sync,
 * and an incremental pass must agree with a full one. The code itself promises that a pass that died
 * half-way loses nothing ("its queue rows are still queued", pass.ts clearScratch).
 *
 * The fault: the ranged pass commits the torrent labels (step 1, one transaction per torrent range)
 * before it judges the records (step 2). Which torrents' records must be re-judged is decided by comparing
 * the label with the mirror's torrent (torrent-labels.ts labelTorrents `flagAffected`). After an
 * interruption between the two steps, the retried pass finds the label already equal to the torrent and
 * flags nothing, so the queued torrent change never reaches its records, although its queue rows were kept
 * (the failure is simulated by a trigger that makes the first write of judged records fail, as a full disk does).
 * Fixed in derive/index.ts: a pass whose scratch rows are still there (only a pass's last transaction clears them)
 * follows one that did not finish, and is full.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SeedStatus, SeedType } from '@shared/enums'
import { defaultRuleBody, saveRules } from '../rules/rules'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { queueTorrents } from './queue'
import { derive } from './index'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases())('a derivation interrupted after the torrent labels ($name)', (backend) => {
  const t = useSeedingDb(backend)

  /**
   * An incremental pass in the ranged form (the only form on SQLite) whose record step fails: the first write
   * of judged records (derive_batch) raises, as a full disk would. Step 1 (torrent labels) has committed by then.
   */
  async function interruptedPass(now: number) {
    const db = t.db.database.db
    if (backend.name === 'sqlite') {
      await sql`create trigger finding_fail_batch before insert on derive_batch begin select raise(abort, 'database or disk is full'); end`.execute(
        db,
      )
    } else {
      await sql
        .raw(
          `create or replace function finding_fail_batch() returns trigger language plpgsql as $$
        begin raise exception 'database or disk is full'; end $$`,
        )
        .execute(db)
      await sql`create trigger finding_fail_batch before insert on derive_batch for each statement execute function finding_fail_batch()`.execute(
        db,
      )
    }
    try {
      await expect(derive(t.db.database, { now, wholeShare: Infinity })).rejects.toThrow('database or disk is full')
    } finally {
      if (backend.name === 'sqlite') await sql`drop trigger finding_fail_batch`.execute(db)
      else await sql`drop trigger finding_fail_batch on derive_batch`.execute(db)
    }
  }

  it('a torrent banned on the site: the retried pass makes the claimed seeder 无工资 (5) and drops it from the keepers', async () => {
    const db = t.db.database.db
    const w = t.world
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'], targetKeepers: 1 }, NOW, null)
    await w.team(1, 'CedarHD')
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { team: 1 })
    await w.claim(1001, 1)
    await w.peer(1001, 1, { seeder: true, lastAction: NOW - 5 * MIN })
    await derive(t.db.database, { now: NOW })
    expect(await w.record(alice, 1)).toMatchObject({ status: SeedStatus.Seeding, seed_type: SeedType.Official })
    expect(await w.label(1)).toMatchObject({ seed_type: SeedType.Official, keepers: 1, completion: 1 })

    // The next sync: the site banned the torrent (the mirror's row changes and the torrent is queued, as upsertMirror does).
    await db.updateTable('site_torrents').set({ banned: 1 }).where('id', '=', 1).execute()
    await queueTorrents(db, [1])
    await interruptedPass(NOW + 10 * MIN)

    // The sync after that, with the failed pass's queue rows still queued: a full pass, since the last one did not finish.
    const retried = await derive(t.db.database, { now: NOW + 20 * MIN, wholeShare: Infinity })
    expect(retried.full).toBe(true)

    expect(await w.label(1)).toMatchObject({ seed_type: SeedType.Unofficial, banned: 1 })
    expect(await w.record(alice, 1)).toMatchObject({ status: SeedStatus.NoWage, seed_type: SeedType.Unofficial })
    expect(await w.label(1)).toMatchObject({ keepers: 0, completion: 4 })
  })

  it('a torrent that leaves its official team: the retried pass makes its records 非官种', async () => {
    const db = t.db.database.db
    const w = t.world
    await saveRules(db, { ...defaultRuleBody, officialTeams: ['CedarHD'] }, NOW, null)
    await w.team(1, 'CedarHD')
    const alice = await w.member('alice', 1001)
    await w.torrent(1, { team: 1 })
    await w.snatch(1001, 1, { finished: true })
    await derive(t.db.database, { now: NOW })
    expect(await w.record(alice, 1)).toMatchObject({ status: SeedStatus.Stopped, seed_type: SeedType.Official })

    await w.updateTorrent(1, { team: null })
    await interruptedPass(NOW + 10 * MIN)
    await derive(t.db.database, { now: NOW + 20 * MIN, wholeShare: Infinity })

    expect(await w.label(1)).toMatchObject({ seed_type: SeedType.Unofficial })
    expect(await w.record(alice, 1)).toMatchObject({ seed_type: SeedType.Unofficial })
  })
  it('a member uploads a new torrent: the retried pass gives her the 发布者 (6) record', async () => {
    const w = t.world
    const alice = await w.member('alice', 1001)
    await w.torrent(1)
    await derive(t.db.database, { now: NOW })

    // The next sync brings alice's new upload (torrents.owner = her site uid); only the torrent is queued.
    await w.torrent(2, { owner: 1001 })
    await interruptedPass(NOW + 10 * MIN)
    await derive(t.db.database, { now: NOW + 20 * MIN, wholeShare: Infinity })

    expect(await w.label(2)).toMatchObject({ owner: 1001 })
    expect((await w.record(alice, 2))?.status).toBe(SeedStatus.Uploader)
  })
})
