/** What both forms of a pass share: its transactions, its scratch tables, and how it reports. */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema'
import type { PassContext } from './context'
import type { DeriveStep } from '.'

/** A pass as its steps see it. */
export interface PassRun {
  ctx: PassContext
  /** The pass's last statements (in `trx`): counts rebuilt when `rebuild`, its queue rows gone, the state stamped. */
  finish(trx: Kysely<DB>, rebuild: boolean): Promise<void>
  /** Ends the timing of a step (milliseconds per step in the outcome). */
  lap(name: string): void
  progress(step: DeriveStep, done: number, total: number): void
}

export async function clearScratch({ db, dialect }: PassContext): Promise<void> {
  // Leftovers of a pass that died half-way: its queue rows are still queued, so nothing is lost.
  // (PostgreSQL: truncate, which also drops the dead rows the previous pass's deletes left.)
  if (dialect === 'postgres') await sql`truncate derive_work, derive_batch, derive_torrents`.execute(db)
  else for (const table of ['derive_work', 'derive_batch', 'derive_torrents']) await sql`delete from ${sql.table(table)}`.execute(db)
}

/**
 * One batch's transaction. PostgreSQL: hash joins of whole tables get memory instead of spilling
 * to disk, and commits do not wait for the WAL flush — derived rows can always be derived again,
 * and the queue rows a lost commit covered are only deleted by the pass's last transaction.
 */
export function inTransaction<T>(ctx: PassContext, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    if (ctx.dialect === 'postgres') {
      await sql`set local work_mem = '128MB'`.execute(trx)
      await sql`set local synchronous_commit = off`.execute(trx)
    }
    return work(trx)
  })
}

export async function bumpDataVersion({ db }: PassContext): Promise<void> {
  await sql`update sync_state set data_version = data_version + 1 where id = 1`.execute(db)
}
