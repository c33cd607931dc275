/**
 * The incremental derivation a sync runs and a full pass must leave the same records, labels and
 * counts (a record's status and a torrent's labels do not depend on which path computed them). The demo community lives on between syncs
 * — counters grow, peers stop and age out of the window, leechers finish, claims and releases appear.
 */
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../db/migrate'
import { prepareSeedingState } from '../jobs/sync-state'
import { currentRules } from '../rules/rules'
import { bootstrapDemo, demoSource } from '../sources/demo'
import type { DemoScale } from '../sources/demo/scale'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { derive } from './index'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)
const MIN = 60_000
const scale: DemoScale = { members: 24, extraAdmins: 2, siteUsers: 400, torrents: 1_000, recordsPerMember: 120, historyDays: 2 }

describe.each(openTestDatabases())('derivation paths on $name', (backend) => {
  const opened: TestDatabase[] = []
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.cleanup()
  })

  /** Everything the derivation writes, in a stable order. */
  async function derived(db: TestDatabase) {
    const q = async (query: ReturnType<typeof sql>) => (await query.execute(db.database.db)).rows.map((row) => JSON.stringify(row))
    return {
      records: await q(sql`select user_id, torrent_id, status, seed_type, claim_state, assigned, seeding, size, uploaded, downloaded,
        seed_time_sec, last_action, assigned_at, claimed_at from seed_records order by user_id, torrent_id`),
      labels: await q(
        sql`select torrent_id, seed_type, owner, banned, size, keepers, records, assigned, completion from torrent_labels order by torrent_id`,
      ),
      counts: await q(sql`select user_id, status, seed_type, claim_state, assigned, records, seeding, seeding_size, uploaded
        from seed_record_counts order by user_id, status, seed_type, claim_state, assigned`),
      members: await q(
        sql`select user_id, records, seeding_count, seeding_size, assigned_count, uploaded from member_seed_stats order by user_id`,
      ),
    }
  }

  /** The rows of `after` that are not in `before` (and the other way round), to say what differs. */
  function difference(before: Awaited<ReturnType<typeof derived>>, after: Awaited<ReturnType<typeof derived>>) {
    const out: Record<string, { incremental: string[]; full: string[] }> = {}
    for (const key of Object.keys(before) as (keyof typeof before)[]) {
      const a = new Set(before[key])
      const b = new Set(after[key])
      const incremental = before[key].filter((row) => !b.has(row))
      const full = after[key].filter((row) => !a.has(row))
      if (incremental.length || full.length) out[key] = { incremental, full }
    }
    return out
  }

  it('an incremental derivation agrees with a full pass after demo syncs', async () => {
    const db = await backend.open()
    opened.push(db)
    await migrateToLatest(db.database)
    await prepareSeedingState(db.database.db, { source: 'demo', now: NOW })
    await bootstrapDemo(db.database, { size: scale, seed: 'paths', now: NOW, memberPasswordHash: 'x', adminPasswordHashes: ['a', 'b'] })

    // Syncs as the SyncRunner runs them: the source, then the incremental derivation at the same time.
    // Uneven gaps, so peers that stop announcing cross the 80-minute window between two syncs.
    const source = demoSource()
    let now = NOW
    for (const gap of [10, 35, 50, 25, 70, 15, 90, 40]) {
      now += gap * MIN
      const rules = await currentRules(db.database.db)
      await source.sync({ database: db.database, now, rules, progress: () => {} })
      // PostgreSQL judges a sync's big queue with the full pass's own whole-table form: ask for the
      // ranged form, the one that relies on the queue and on the window's aging.
      const incremental = await derive(db.database, { now, wholeShare: Infinity })
      expect(incremental).toMatchObject({ full: false, whole: false })

      const before = await derived(db)
      const full = await derive(db.database, { now, full: true })
      expect(difference(before, await derived(db)), `after the sync at +${(now - NOW) / MIN} min`).toEqual({})
      expect(full.changed).toBe(0)
    }
  })
})
