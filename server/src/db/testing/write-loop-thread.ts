/**
 * A test thread (db/sqlite-routing.test.ts) that writes as the sync thread does on a large sync: short
 * transactions back to back on its own connection (threadDatabase), each holding SQLite's write lock
 * for a few milliseconds. It reports each commit, and answers with how many it made.
 */
import { sql } from 'kysely'
import { closeThreadDatabases, threadDatabase } from '../thread-database'
import { serveJobs, type ThreadFile } from '../../util/job-thread'

export interface WriteLoopJob extends ThreadFile {
  transactions: number
}

serveJobs<WriteLoopJob>(async (job, emit) => {
  const { db } = await threadDatabase(job.file, job.turns)
  for (let i = 1; i <= job.transactions; i++) {
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (n) values (${-i})`.execute(trx)
      // A few milliseconds of work with the lock held, like a derivation batch's statements.
      await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 20000) select count(*) from c`.execute(trx)
    })
    emit(i)
  }
  return { value: job.transactions }
}, closeThreadDatabases)
