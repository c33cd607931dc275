/**
 * Found by an outside tester (fixed since; the test keeps it so). What a user saw (PostgreSQL): an admin assigns a torrent to a member (任务分配, or 自动分配 of a few thousand
 * pairs) while a sync is running. The assignment is saved, but the member's seed record never appears —
 * 保种记录 has no 未下载 (1) row for it, the member's assignedCount stays 0, and the torrent keeps the
 * assignment label 2 (未分配) in the torrent views — not after that sync, not after any later incremental
 * one; only a full pass (a rules change) repairs it.
 *
 * What docs/domain.md says: §1 — a seed record exists for every (member × torrent) the member is tied to,
 * an assignment included, and its status is derived after every sync; §2/§3 — assignment label 1 when an
 * assignment exists. The code promises that a change made while a sync holds the lease is applied by
 * "that sync or the next one" (derive/relabel.ts), and that queue rows added during a pass "wait for the
 * next one" (derive/index.ts).
 *
 * The fault: derive() takes `maxQueueId = max(id)` of derive_queue at its start, reads the queue later
 * (scopeQueued), and at its end deletes `where id <= maxQueueId`. On PostgreSQL the queue's ids come from
 * an identity sequence, and transactions commit out of id order: the admin's transaction drew its queue
 * id before the sync's last source write drew a higher one and committed, and the admin's commit landed
 * after the pass had read the queue. Its row is below maxQueueId, was never judged, and the pass's last
 * statement deletes it. (The admin's own relabel found the sync holding the lease and relied on the queue.)
 * Fixed in derive/index.ts: the pass takes its mark under a table lock, which waits for every transaction that has
 * queued rows — so the admin's assignment is judged by this very pass.
 *
 * The interleaving: the admin's transaction is open when the pass starts, and commits once the pass waits for it.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openTestDatabases } from '../test/harness'
import { useSeedingDb } from '../test/seeding-db'
import { queuePairs } from './queue'
import { derive } from './index'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)
const MIN = 60_000

describe.each(openTestDatabases().filter((b) => b.name === 'postgres'))('a queue row committed during a pass ($name)', (backend) => {
  const t = useSeedingDb(backend)

  it('an assignment committed while a sync derives gets its record and label (no queue row is dropped unjudged)', async () => {
    const db = t.db.database.db
    const w = t.world
    const alice = await w.member('alice', 1001)
    await w.torrent(1)
    await derive(t.db.database, { now: NOW })
    expect(await w.record(alice, 1)).toBeUndefined()

    // The admin's assign transaction (assignments/pairs.ts insertPairs: the assignment and its queue row), still open.
    let commit!: () => void
    const gate = new Promise<void>((resolve) => (commit = resolve))
    let inserted!: () => void
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve))
    const admin = db.transaction().execute(async (trx) => {
      await trx.insertInto('assignments').values({ torrent_id: 1, user_id: alice, assigned_at: NOW, assigned_by: null }).execute()
      await queuePairs(trx, [{ userId: alice, torrentId: 1 }])
      inserted()
      await gate
    })
    await insertedNow

    // Meanwhile the sync's source writes its last rows (a new torrent: a queue row with a higher id) and commits.
    await w.torrent(2)

    // The sync's derivation starts while the admin's transaction is open; it commits once the pass waits for it.
    const pass = derive(t.db.database, { now: NOW + 10 * MIN, wholeShare: Infinity })
    await expect
      .poll(
        async () =>
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
              where c.relname = 'derive_queue' and not l.granted`.execute(db)
          ).rows[0]!.n,
        { timeout: 20_000 },
      )
      .toBe(1)
    commit()
    await admin
    await pass
    // This very pass judged the assignment.
    expect((await w.record(alice, 1))?.assigned).toBe(1)

    // The next sync: an ordinary incremental pass.
    await derive(t.db.database, { now: NOW + 20 * MIN, wholeShare: Infinity })

    const queued = await db.selectFrom('derive_queue').select('id').execute()
    const record = await w.record(alice, 1)
    const label = await w.label(1)
    expect({
      record: record && { status: record.status, assigned: record.assigned },
      torrentAssigned: label.assigned,
      queued: queued.length,
    }).toEqual({
      record: { status: 1, assigned: 1 },
      torrentAssigned: 1,
      queued: 0,
    })
  })
})
