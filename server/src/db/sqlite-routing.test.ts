/**
 * SQLite's writer and reader (sqlite-routing.ts): a request that reads is not held up by a long
 * transaction, and nothing about transactions changes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql, type Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { jobThread, workerFile } from '../util/job-thread'
import { openDatabase, type AppDatabase } from './database'
import type { WriteLoopJob } from './testing/write-loop-thread'
import { requestTurnsOf } from './write-turns'

interface T {
  t: { id: number; n: number }
}

describe('SQLite writer and reader', () => {
  let dir: string
  let database: AppDatabase
  let db: Kysely<T>

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seeding-routing-'))
    database = await openDatabase({ kind: 'sqlite', file: join(dir, 'seeding.db') })
    db = database.db as unknown as Kysely<T>
    await sql`create table t (id integer primary key, n integer not null)`.execute(db)
    await db.insertInto('t').values({ id: 1, n: 1 }).execute()
  })
  afterEach(async () => {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** A transaction that writes, then waits until `open()` is called. */
  function heldTransaction() {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    let written!: () => void
    const wrote = new Promise<void>((resolve) => (written = resolve))
    const done = db.transaction().execute(async (trx) => {
      await trx.updateTable('t').set({ n: 2 }).where('id', '=', 1).execute()
      written()
      await gate
    })
    return { open, wrote, done }
  }

  it('a read answers while a transaction holds the writer, and sees the last committed state', async () => {
    const held = heldTransaction()
    await held.wrote
    // Before the reader, this waited for the transaction's end (here: forever).
    expect(await db.selectFrom('t').select('n').where('id', '=', 1).executeTakeFirstOrThrow()).toEqual({ n: 1 })
    expect(await sql<{ n: number }>`select n from t where id = 1`.execute(db)).toMatchObject({ rows: [{ n: 1 }] })
    held.open()
    await held.done
    expect(await db.selectFrom('t').select('n').where('id', '=', 1).executeTakeFirstOrThrow()).toEqual({ n: 2 })
  })

  it('a write waits for the transaction and lands after it', async () => {
    const held = heldTransaction()
    await held.wrote
    let landed = false
    const write = db
      .updateTable('t')
      .set((eb) => ({ n: eb('n', '*', 10) }))
      .where('id', '=', 1)
      .execute()
      .then(() => (landed = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(landed).toBe(false)
    held.open()
    await Promise.all([held.done, write])
    expect(await db.selectFrom('t').select('n').executeTakeFirstOrThrow()).toEqual({ n: 20 })
  })

  it('inside a transaction reads see its own writes; a failed transaction leaves nothing', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 2, n: 5 }).execute()
        expect(await trx.selectFrom('t').select('n').where('id', '=', 2).executeTakeFirst()).toEqual({ n: 5 })
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(await db.selectFrom('t').select('id').execute()).toEqual([{ id: 1 }])
  })

  it('a connection that made a temp table reads it back (the reader does not have it)', async () => {
    const rows = await db.connection().execute(async (conn) => {
      await sql`create temp table scratch (v integer)`.execute(conn)
      await sql`insert into scratch values (7)`.execute(conn)
      return (await sql<{ v: number }>`select v from scratch`.execute(conn)).rows
    })
    expect(rows).toEqual([{ v: 7 }])
  })

  it('withWriter keeps transactions out while raw-handle work runs', async () => {
    const order: string[] = []
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const raw = database.withWriter(async () => {
      order.push('raw start')
      await gate
      database.sqlite!.prepare('update t set n = 3 where id = 1').run()
      order.push('raw end')
    })
    const trx = db.transaction().execute(async (t) => {
      order.push('transaction')
      await t
        .updateTable('t')
        .set((eb) => ({ n: eb('n', '+', 1) }))
        .execute()
    })
    await new Promise((resolve) => setImmediate(resolve))
    open()
    await Promise.all([raw, trx])
    expect(order).toEqual(['raw start', 'raw end', 'transaction'])
    expect(await db.selectFrom('t').select('n').executeTakeFirstOrThrow()).toEqual({ n: 4 })
  })
})

describe('another connection writing the same file (a worker thread)', () => {
  let dir: string
  let database: AppDatabase
  let db: Kysely<T>
  let other: SQLite.Database

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seeding-other-'))
    const file = join(dir, 'seeding.db')
    database = await openDatabase({ kind: 'sqlite', file })
    db = database.db as unknown as Kysely<T>
    await sql`create table t (id integer primary key, n integer not null)`.execute(db)
    await db.insertInto('t').values({ id: 1, n: 1 }).execute()
    other = new SQLite(file)
  })
  afterEach(async () => {
    other.close()
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** Counts timer turns until stopped: a thread sleeping in SQLite's busy handler would give none. */
  function ticks() {
    let n = 0
    const timer = setInterval(() => n++, 1)
    return { count: () => n, stop: () => clearInterval(timer) }
  }

  it('a write and a transaction wait for its lock with the event loop free, and land after its commit', async () => {
    other.exec('begin immediate; update t set n = 2 where id = 1')
    const loop = ticks()
    let landed = 0
    const write = db
      .updateTable('t')
      .set((eb) => ({ n: eb('n', '*', 10) }))
      .where('id', '=', 1)
      .execute()
      .then(() => landed++)
    const transaction = db
      .transaction()
      .execute((trx) => trx.insertInto('t').values({ id: 2, n: 7 }).execute())
      .then(() => landed++)
    const waited = loop.count()
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(loop.count() - waited).toBeGreaterThan(20)
    expect(landed).toBe(0)
    other.exec('commit')
    await Promise.all([write, transaction])
    loop.stop()
    expect(await db.selectFrom('t').select(['id', 'n']).orderBy('id').execute()).toEqual([
      { id: 1, n: 20 },
      { id: 2, n: 7 },
    ])
  })

  it('a transaction that read before the other commit can still write (BEGIN IMMEDIATE)', async () => {
    const result = db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('t').select('n').executeTakeFirstOrThrow()
      await new Promise((resolve) => setTimeout(resolve, 50))
      await trx
        .updateTable('t')
        .set({ n: before.n + 1 })
        .execute()
    })
    // The other connection cannot slip a commit in between the read and the write: it waits for the transaction.
    other.pragma('busy_timeout = 100')
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(() => other.exec('begin immediate; rollback')).toThrow(/locked|busy/i)
    await result
    expect(await db.selectFrom('t').select('n').executeTakeFirstOrThrow()).toEqual({ n: 2 })
  })
})

/** A fresh database file with the table `t`, closed and removed after `work`. */
async function withTable(work: (database: AppDatabase, db: Kysely<T>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seeding-routing-'))
  const database = await openDatabase({ kind: 'sqlite', file: join(dir, 'seeding.db') })
  try {
    const db = database.db as unknown as Kysely<T>
    await sql`create table t (id integer primary key, n integer not null)`.execute(db)
    await work(database, db)
  } finally {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('a job thread writing transaction after transaction (write-turns.ts)', () => {
  it("lets the server's waiting write in before its next transaction, not after its last", () =>
    withTable(async (database, db) => {
      const target = (await workerFile(database.db))!
      const thread = jobThread<WriteLoopJob>({ bundle: 'none', source: new URL('./testing/write-loop-thread.ts', import.meta.url) })
      const transactions = 400
      let committed = 0
      let started!: () => void
      const loopStarted = new Promise<void>((resolve) => (started = resolve))
      const loop = thread.run({ ...target, transactions }, (n) => {
        committed = n as number
        if (committed === 5) started()
      })
      await loopStarted
      // Without turns this write polled for the lock on a timer and found it free only after the loop's last commit.
      await db.insertInto('t').values({ id: 1_000_000, n: 1 }).execute()
      const committedBeforeWrite = committed
      expect(await loop).toBe(transactions)
      expect(committedBeforeWrite).toBeLessThan(transactions / 2)
      expect(requestTurnsOf(target.file).waitingWrites).toBe(0)
      // The loop's rows written after ours take ids above it (rowid = max + 1): most of them came after.
      const { rows } = await sql<{ after: number }>`select count(*) as after from t where n < 0 and id > 1000000`.execute(db)
      expect(rows[0].after).toBeGreaterThan(transactions / 2)
      await thread.close()
    }))
})

describe('SQLite statements and the event loop', () => {
  it('a job of many statements lets a waiting timer (a request) run within a slice, not after the job', () =>
    withTable(async (_database, db) => {
      let fired = false
      setTimeout(() => (fired = true), 0)
      const start = performance.now()
      let statements = 0
      // Before: every statement resolved as a microtask, and the timer waited for the whole loop (here its 2 s bound).
      await db.transaction().execute(async (trx) => {
        while (!fired && performance.now() - start < 2_000) {
          await trx.insertInto('t').values({ id: ++statements, n: 0 }).execute()
        }
      })
      expect(fired).toBe(true)
      expect(performance.now() - start).toBeLessThan(1_000)
    }))
})
