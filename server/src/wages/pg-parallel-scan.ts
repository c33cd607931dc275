/**
 * A wage job's record scan on two PostgreSQL connections: the job's own transaction reads every
 * other id range and a second connection the others, both from one snapshot — the job's, exported
 * (`pg_export_snapshot`) and imported by the second (`SET TRANSACTION SNAPSHOT`), so both read the
 * same commit by construction (SQLite cannot do this; see parallel-scan.ts for its helper thread).
 * At 2 M records the range statements are most of a preview (BENCHMARKS.md「Wages」); the two
 * connections' statements run on two server processes at once while this process parses and adds
 * up whichever answer came first.
 *
 * The job's transaction must be REPEATABLE READ (runWages opens one): in READ COMMITTED each of its
 * statements would read a newer snapshot than the one exported.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import { scanRanges, type RangeScan } from './reader'

/** `root`: the pool the second connection is taken from; `job`: the job's REPEATABLE READ transaction. */
export function postgresParallelScan(root: Kysely<DB>, job: Kysely<DB>): RangeScan {
  return async (plan) => {
    const { rows } = await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(job)
    const snapshot = rows[0]!.snapshot
    const other = root
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        // First statement of the transaction, as PostgreSQL requires.
        await sql`set transaction snapshot ${sql.lit(snapshot)}`.execute(trx)
        await sql`set local jit = off`.execute(trx) // see runWages
        return scanRanges(trx, plan, 1, 2)
      })
    // Both settle before the job goes on (a failed half must not leave the other running on its connection).
    const [own, helped] = await Promise.allSettled([scanRanges(job, plan, 0, 2), other])
    if (own.status === 'rejected') throw own.reason
    if (helped.status === 'rejected') throw helped.reason
    return [own.value, helped.value]
  }
}
