/**
 * Found by an outside tester (fixed since; the test keeps it so): a sync whose lease was taken over kept going —
 * derivation, snapshot, statistics — and reported success, while the process that took the lease over runs its own sync on the same tables.
 *
 * db/lease.ts notices the loss (the heartbeat's compare-and-set updates no row: `held` turns false and
 * `onLost` is called), but jobs/sync.ts only logged it (`onLost: () => log.error(…)`) and never looks at
 * `lease.held`: after a stall longer than STALE_AFTER_MS (GC pause, a VM frozen for a snapshot, a long
 * synchronous statement), the stalled process wakes up and runs the rest of its sync — the derivation
 * and its scratch tables (shared with the other sync, see lease.ts header), the day's snapshot, the
 * statistics refresh — concurrently with the new holder's sync, and resolves `{ ran: true }`.
 *
 * Now the runner stops at its next step or batch once it knows its lease is gone (jobs/sync-steps.ts `held`),
 * instead of writing derived data as if it still held the lease.
 */
import { describe, expect, it } from 'vitest'
import { HEARTBEAT_MS, STALE_AFTER_MS } from '../db/lease'
import { migrateToLatest } from '../db/migrate'
import { openTestDatabases, testClock } from '../test/harness'
import { pendingWageEstimates } from '../wages/estimates'
import { SyncRunner } from './sync'
import { prepareSeedingState } from './sync-state'

const NOW = Date.UTC(2026, 2, 10, 6, 0, 0)

describe.each(openTestDatabases())('a sync that lost its lease on $name', (backend) => {
  it('does not go on to derive, snapshot and report success after another process took its lease over', async () => {
    const opened = await backend.open()
    try {
      await migrateToLatest(opened.database)
      await prepareSeedingState(opened.database.db, { source: 'demo', now: NOW })
      const clock = testClock(NOW)

      let releaseA!: () => void
      const gateA = new Promise<void>((resolve) => (releaseA = resolve))
      let enteredA!: () => void
      const insideA = new Promise<void>((resolve) => (enteredA = resolve))
      const a = new SyncRunner({
        database: opened.database,
        source: { kind: 'demo', sync: async () => (enteredA(), await gateA, {}) },
        wages: pendingWageEstimates,
        clock,
      })
      let releaseB!: () => void
      const gateB = new Promise<void>((resolve) => (releaseB = resolve))
      let enteredB!: () => void
      const insideB = new Promise<void>((resolve) => (enteredB = resolve))
      const b = new SyncRunner({
        database: opened.database,
        source: { kind: 'demo', sync: async () => (enteredB(), await gateB, {}) },
        wages: pendingWageEstimates,
        clock,
      })

      const runA = a.runOnce(NOW + 60_000)
      await insideA
      // A stalls past STALE_AFTER_MS (its renewals do not land): the other process takes the lease over, as designed.
      clock.advance(STALE_AFTER_MS + 1)
      const runB = b.runOnce(NOW + 120_000)
      await insideB
      // A's next heartbeat finds the lease gone (lease.held = false, onLost called).
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS + 500))
      const state = await opened.database.db.selectFrom('sync_state').select('lock_owner').executeTakeFirstOrThrow()
      expect(state.lock_owner).toContain('|sync|')

      // A wakes up while B's sync is still in its source step.
      releaseA()
      const outcomeA = await runA.then(
        (result) => (result.ran ? 'finished as a sync' : 'stopped'),
        () => 'stopped',
      )
      releaseB()
      await runB
      // It was 'finished as a sync': A derived, snapshotted and refreshed the statistics beside B's sync.
      // A runner that knows it lost the lease does not run its next steps.
      expect(outcomeA).toBe('stopped')
    } finally {
      await opened.cleanup()
    }
  }, 30_000)
})
