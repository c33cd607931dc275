/**
 * The fault suite: a real server process is SIGKILLed in the middle of its work, then started again
 * on the same data. After each restart the data is wholly before or wholly after, paid wage records
 * are untouched, and the next sync or compute completes. Kill points are found by watching state
 * (rows, the lease, the server's log lines), never by sleeping.
 */
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DialectName } from '../db/database'
import { shiftPeriod, periodOf } from '../wages/period'
import { openStore, pollUntil, startChild, type ChildServer, type Store } from './child-server'

const dialects: DialectName[] = process.env.DATABASE_URL?.startsWith('postgres') ? ['sqlite', 'postgres'] : ['sqlite']
/** Tries to land a kill inside a short step before the suite gives up (each try is one ~100 ms sync). */
const KILL_TRIES = 20

interface SyncRow {
  lock_owner: string | null
  lock_expires_at: number | null
  last_started_at: number | null
  last_finished_at: number | null
  last_error: string | null
}

describe.each(dialects)('SIGKILL and restart on %s', { timeout: 120_000 }, (dialect) => {
  let store: Store
  let server: ChildServer | undefined

  beforeAll(async () => {
    store = await openStore(dialect)
  })
  afterAll(async () => {
    await server?.kill()
    await store?.cleanup()
  })
  // Each case starts from a running server, whatever the case before it left.
  beforeEach(async () => {
    if (!server || server.exited) server = await startServer()
  }, 120_000)

  // Every start holds a pay open for 400 ms inside its transaction (faults/pause.ts): a kill can land there.
  const startServer = () => startChild(store, { env: { FAULT_PAUSE: 'wages.pay=400' } })
  const db = async () => (await store.open()).db
  const syncRow = async () =>
    (await (
      await db()
    )
      .selectFrom('sync_state')
      .select(['lock_owner', 'lock_expires_at', 'last_started_at', 'last_finished_at', 'last_error'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()) as SyncRow
  const queued = async () => Number((await sql<{ n: number }>`select count(*) as n from derive_queue`.execute(await db())).rows[0].n)
  const lastQueued = async () =>
    Number((await sql<{ m: number | null }>`select max(id) as m from derive_queue`.execute(await db())).rows[0].m ?? 0)
  /** Queue rows up to `id` still waiting (a sync's end may queue new ones for the next: wage-estimate flips). */
  const waitingUpTo = async (id: number) =>
    Number((await sql<{ n: number }>`select count(*) as n from derive_queue where id <= ${id}`.execute(await db())).rows[0].n)
  const restart = async () => {
    await server?.kill()
    server = await startServer()
    return server
  }

  /** Whether a write transaction of the server is open right now (the work under way has begun, not committed). */
  const writerActive = async (): Promise<boolean> => {
    if (store.dialect === 'postgres') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null`.execute(await db())
      return Number(rows[0].n) > 0
    }
    const probe = new Database(join(store.dataDir, 'seeding.db'), { timeout: 0 })
    try {
      probe.prepare('begin immediate').run()
      probe.prepare('rollback').run()
      return false
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return true
      throw error
    } finally {
      probe.close()
    }
  }

  /**
   * Sends a request and SIGKILLs the server as soon as `inside` sees its work under way, then
   * starts it again. `cut`: the kill came before the answer (the work was cut short, or committed
   * and not yet answered). Without a kill (the work was too quick to see) the server runs on.
   */
  const killDuring = async (send: () => Promise<unknown>, inside: () => Promise<boolean>): Promise<{ cut: boolean }> => {
    let answered = false
    const request = send().then(
      () => void (answered = true),
      () => {}, // the kill resets the connection
    )
    const caught = await pollUntil(inside, () => answered)
    if (caught) await server!.kill()
    await request
    if (caught) await restart()
    return { cut: caught && !answered }
  }

  interface WageRow {
    id: number
    user_id: number
    amount: number
    torrent_count: number
    total_size: number
    payment: number
    paid_at: number | null
    paid_by_id: number | null
  }
  const wageRows = async (period: string): Promise<WageRow[]> =>
    (
      await sql<
        Record<keyof WageRow, number | string | null>
      >`select id, user_id, amount, torrent_count, total_size, payment, paid_at, paid_by_id
        from wage_records where period = ${period} order by user_id`.execute(await db())
    ).rows.map((r) => {
      const num = (v: number | string | null) => (v === null ? null : Number(v))
      return {
        id: Number(r.id),
        user_id: Number(r.user_id),
        amount: Number(r.amount),
        torrent_count: Number(r.torrent_count),
        total_size: Number(r.total_size),
        payment: Number(r.payment),
        paid_at: num(r.paid_at),
        paid_by_id: num(r.paid_by_id),
      }
    })
  const wageItemCount = async (period: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from wage_item_sets where period = ${period}`.execute(await db())).rows[0].n)
  const figures = (rows: WageRow[]) =>
    rows.map(({ user_id, amount, torrent_count, total_size, payment }) => ({ user_id, amount, torrent_count, total_size, payment }))
  const period = shiftPeriod(periodOf(Date.now(), 'Asia/Shanghai'), 1)

  const waitForSyncEnd = async (after: number) => {
    const token = await server!.login()
    await pollUntil(
      async () => {
        const row = await syncRow()
        return row.lock_owner === null && (Number(row.last_finished_at) > after || row.last_error !== null)
      },
      async () => (await server!.call<{ running: boolean }>('GET', '/sync/status', { token })).status !== 200,
    )
  }

  it('first start: the demo community is generated', async () => {
    await server!.waitForOutput(/demo community generated/)
  })

  it('a sync killed after writing the mirror, before its derivation ended: a restart takes the lease at once and finishes it', async () => {
    let killedInside = false
    for (let attempt = 0; attempt < KILL_TRIES && !killedInside; attempt++) {
      const token = await server!.login()
      const before = await syncRow()
      expect((await server!.call('POST', '/sync/run', { token })).status).toBe(200)
      // The moment: this process holds the lease and the source has queued pairs for the derivation.
      const caught = await pollUntil(
        async () => {
          const row = await syncRow()
          return row.lock_owner?.includes(`|${server!.pid}|`) === true && (await queued()) > 0
        },
        async () => (await syncRow()).last_finished_at !== before.last_finished_at,
      )
      const pid = server!.pid
      if (caught) await server!.kill()
      const after = await syncRow()
      killedInside = caught && after.lock_owner?.includes(`|${pid}|`) === true && (await queued()) > 0
      if (caught && !killedInside) await restart()
    }
    expect(killedInside, `no kill landed inside a sync in ${KILL_TRIES} tries`).toBe(true)

    // As if the dead process had renewed its lease a moment ago: only "its process is gone" lets the
    // restart take it over now (not the heartbeat running out).
    const lease = await syncRow()
    const interruptedWork = await lastQueued()
    await (
      await db()
    )
      .updateTable('sync_state')
      .set({ lock_expires_at: Date.now() + 3600_000 })
      .where('id', '=', 1)
      .execute()

    server = await startServer()
    await server.waitForOutput(/the last sync was interrupted/, 30_000)
    await waitForSyncEnd(Number(lease.last_finished_at ?? 0))
    const resumed = await syncRow()
    expect(resumed).toMatchObject({ lock_owner: null, last_error: null })
    expect(await waitingUpTo(interruptedWork)).toBe(0)

    const token = await server.login()
    const status = await server.call<{ running: boolean; progress: unknown; lastError: string | null }>('GET', '/sync/status', { token })
    expect(status.body.data).toMatchObject({ running: false, progress: null, lastError: null })

    // 立即同步 works and completes, the queue drained.
    expect((await server.call<{ running: boolean }>('POST', '/sync/run', { token })).body.data.running).toBe(true)
    const queuedBefore = await lastQueued()
    await waitForSyncEnd(Number(resumed.last_finished_at))
    expect(await syncRow()).toMatchObject({ lock_owner: null, last_error: null })
    expect(await waitingUpTo(queuedBefore)).toBe(0)
  })

  it('a wage compute killed half-way: the month is wholly the old or the new computation, paid records untouched, the next compute completes', async () => {
    let token = await server!.login()
    const first = await server!.call('POST', '/wages/compute', { token, body: { period } })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const computed = await wageRows(period)
    expect(computed.length).toBeGreaterThan(2)
    const paidIds = computed.slice(0, 2).map((r) => r.id)
    expect((await server!.call('POST', '/wages/pay', { token, body: { ids: paidIds } })).status).toBe(200)
    const before = await wageRows(period)
    const itemsBefore = await wageItemCount(period)

    let cut = false
    for (let attempt = 0; attempt < KILL_TRIES && !cut; attempt++) {
      token = await server!.login()
      const t = token
      ;({ cut } = await killDuring(() => server!.call('POST', '/wages/compute', { token: t, body: { period } }), writerActive))
      // Wholly before or wholly after (the data did not change in between, so both are `before`'s figures).
      const now = await wageRows(period)
      expect(figures(now)).toEqual(figures(before))
      expect(now.filter((r) => r.payment === 1)).toEqual(before.filter((r) => r.payment === 1))
      expect(await wageItemCount(period)).toBe(itemsBefore)
    }
    expect(cut, `no kill landed inside a compute in ${KILL_TRIES} tries`).toBe(true)
    token = await server!.login()
    expect((await server!.call('POST', '/wages/compute', { token, body: { period } })).status).toBe(200)
    expect((await wageRows(period)).filter((r) => r.payment === 1)).toEqual(before.filter((r) => r.payment === 1))
  })

  it('a pay killed half-way: all of its records paid or none, earlier payments untouched, paying again completes', async () => {
    let cut = false
    // Unpaid records to pay: the months before `period`, computed as they are needed.
    let month = period
    for (let attempt = 0; attempt < KILL_TRIES && !cut; attempt++) {
      let before = await wageRows(month)
      while (before.filter((r) => r.payment === 0).length < 2) {
        month = shiftPeriod(month, 1)
        expect((await server!.call('POST', '/wages/compute', { token: await server!.login(), body: { period: month } })).status).toBe(200)
        before = await wageRows(month)
        expect(before.length, `no wage records for ${month}`).toBeGreaterThan(1)
      }
      const batch = before
        .filter((r) => r.payment === 0)
        .slice(0, 3)
        .map((r) => r.id)
      const token = await server!.login()
      // A pay of a few rows is over in well under a millisecond on SQLite: the server holds it open
      // (FAULT_PAUSE, after its UPDATE, before its commit) so that the kill lands inside it.
      ;({ cut } = await killDuring(() => server!.call('POST', '/wages/pay', { token, body: { ids: batch } }), writerActive))
      const after = await wageRows(month)
      expect([0, batch.length]).toContain(after.filter((r) => batch.includes(r.id) && r.payment === 1).length)
      expect(after.filter((r) => !batch.includes(r.id))).toEqual(before.filter((r) => !batch.includes(r.id)))
      const again = await server!.call<{ paid: number; alreadyPaid: number }>('POST', '/wages/pay', {
        token: await server!.login(),
        body: { ids: batch },
      })
      expect(again.status).toBe(200)
      expect(again.body.data.paid + again.body.data.alreadyPaid).toBe(batch.length)
      expect((await wageRows(month)).filter((r) => batch.includes(r.id)).every((r) => r.payment === 1)).toBe(true)
    }
    expect(cut, `no kill landed inside a pay in ${KILL_TRIES} tries`).toBe(true)
  })

  it('a derivation pass (new rule version) killed half-way: a restart takes the lease at once and completes it', async () => {
    const currentVersion = async () =>
      Number(
        (
          await (
            await db()
          )
            .selectFrom('rule_versions')
            .select((eb) => eb.fn.max('version').as('v'))
            .executeTakeFirstOrThrow()
        ).v,
      )
    let killedInside = false
    for (let attempt = 0; attempt < KILL_TRIES && !killedInside; attempt++) {
      const token = await server!.login()
      const rules = await server!.call<Record<string, unknown> & { activeWindowMinutes: number }>('GET', '/config/rules', { token })
      const { version: _version, ...body } = rules.body.data
      const pid = server!.pid
      let caught = false
      let answered = false
      const request = server!
        .call('POST', '/config/rules', { token, body: { ...body, activeWindowMinutes: rules.body.data.activeWindowMinutes + 1 } })
        .then(
          () => void (answered = true),
          () => {},
        )
      caught = await pollUntil(
        async () => (await syncRow()).lock_owner?.includes(`|${pid}|relabel|`) === true && (await writerActive()),
        () => answered,
      )
      if (caught) await server!.kill()
      await request
      killedInside = caught && (await syncRow()).lock_owner?.includes(`|${pid}|`) === true
      if (caught && !killedInside) await restart()
    }
    expect(killedInside, `no kill landed inside a derivation pass in ${KILL_TRIES} tries`).toBe(true)
    const lease = await syncRow()
    await (
      await db()
    )
      .updateTable('sync_state')
      .set({ lock_expires_at: Date.now() + 3600_000 })
      .where('id', '=', 1)
      .execute()
    server = await startServer()
    await server.waitForOutput(/the last sync was interrupted/, 30_000)
    await waitForSyncEnd(Number(lease.last_finished_at ?? 0))
    const state = await (
      await db()
    )
      .selectFrom('sync_state')
      .select(['lock_owner', 'last_error', 'derived_rules_version'])
      .executeTakeFirstOrThrow()
    expect(state).toMatchObject({ lock_owner: null, last_error: null })
    expect(Number(state.derived_rules_version)).toBe(await currentVersion())
  })
})

describe.each(dialects)('SIGKILL during the first start’s bulk import (demo generation) on %s', { timeout: 120_000 }, (dialect) => {
  // The generation commits the mirror, then derives and synthesises the history: a kill between the
  // two must not leave a half-imported community (the first start marks itself and starts over).
  it('killed after the mirror is written: the restart generates the whole community, nothing half-imported stays', async () => {
    const counts = async (s: Store) => {
      const d = (await s.open()).db
      const n = async (table: 'site_torrents' | 'site_users' | 'users' | 'seed_records' | 'site_snatched') =>
        Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(d)).rows[0].n)
      return {
        torrents: await n('site_torrents'),
        siteUsers: await n('site_users'),
        users: await n('users'),
        records: await n('seed_records'),
        snatched: await n('site_snatched'),
      }
    }
    // Reference: an uninterrupted first start (the demo is generated from a fixed seed).
    const reference = await openStore(dialect)
    const killed = await openStore(dialect)
    try {
      const clean = await startChild(reference)
      await clean.stop()
      const expected = await counts(reference)
      expect(expected.torrents).toBeGreaterThan(0)

      let server = await startChild(killed, { env: { LOG_LEVEL: 'debug' }, dontWaitForHealth: true })
      await server.waitForOutput(/"step":"[^"]+".*"msg":"demo data step"/)
      await server.kill()
      server = await startChild(killed)
      await server.stop()
      expect(await counts(killed)).toEqual(expected)
    } finally {
      await reference.cleanup()
      await killed.cleanup()
    }
  })
})
