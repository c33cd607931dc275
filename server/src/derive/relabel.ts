/**
 * Re-labelling after an admin change. The change itself queued what it affects in `derive_queue`
 * (same transaction); this runs the derivation pass that applies it, the way the sync job does.
 *
 * - One pass at a time: the pass uses shared scratch tables, so it takes the sync lease (the
 *   `sync_state` row the sync job takes). When a sync holds it, that sync or the next one applies
 *   the queue — nothing is lost; the answer then shows the labels of the last pass.
 * - In this process the calls are chained, so two admin actions at once derive one after the other.
 * - The pass runs at the last sync time (`derived_at`), not the request's: "active" is judged against
 *   the mirror's time (a peer is active when its last_action is within the active window of the
 *   sync time), and an admin action must not age peers out of the window.
 * - A new rule version makes the pass full (derive() compares the version it last used).
 * - The pass runs where the sync job runs its steps (`derivePass`: on SQLite the sync thread, not the
 *   server's event loop).
 *
 * - After a pass that ran, the dashboard's figures are refreshed in the background, as a sync refreshes them after its
 *   pass: 首页 must not contradict 任务分配 after the admin's own change until the next sync. The answer does not
 *   wait for them (with the month's wage estimates they take seconds at 2 M records), and changes made meanwhile are
 *   taken by one more refresh, not one each.
 * - A refresh starts once the changes have paused for STATS_REFRESH_QUIET_MS (at most STATS_REFRESH_MAX_WAIT_MS after
 *   the first): a burst of changes (an admin working down a list, a script) is one refresh. Each refresh reads the
 *   estimates in the wage thread, which ends the idle sync thread (util/job-thread.ts), so one per change also
 *   restarted the sync thread for the next change's pass: two thread starts per change.
 *
 * Failures are logged and swallowed: the admin change has committed, and its queue rows stay for
 * the next sync.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { AppDatabase } from '../db/database'
import type { DeriveOptions, DeriveOutcome } from './index'
import { acquireLease } from '../db/lease'
import { refreshAllStats } from '../stats/cache'
import type { WageEstimates } from '../wages/estimates'

export interface RelabelOutcome {
  /** Whether this call ran a pass (false: a sync held the lease; it or the next applies the queue). */
  ran: boolean
}

/** What a relabel needs of the app's services (AppServices). */
export interface RelabelServices {
  database: AppDatabase
  sync: { derivePass(options: Pick<DeriveOptions, 'now'>): Promise<DeriveOutcome> }
  /** Without: the figures wait for the next sync or 刷新统计. */
  wages?: WageEstimates
}

const chains = new WeakMap<AppDatabase, Promise<unknown>>()

/** How long the changes must pause before the figures are refreshed (see the header). */
export const STATS_REFRESH_QUIET_MS = 1_000
/** A steady stream of changes holds the refresh back at most this long after its first change. */
export const STATS_REFRESH_MAX_WAIT_MS = 10_000

/**
 * A background refresh of the figures per database: the time of the newest change not yet taken (null: none), when
 * (wall clock) the first and the last of those came, whether it must start at once (closing), its wake-up and its end.
 */
interface StatsRefresh {
  again: number | null
  firstAt: number
  lastAt: number
  flush: boolean
  wake: () => void
  done: Promise<void>
}
const refreshes = new WeakMap<AppDatabase, StatsRefresh>()

/** Resolves once the changes have paused (or waited long enough, or a close asks for the refresh now). */
async function quiet(state: StatsRefresh): Promise<void> {
  for (;;) {
    const now = Date.now()
    const due = Math.min(state.lastAt + STATS_REFRESH_QUIET_MS, state.firstAt + STATS_REFRESH_MAX_WAIT_MS)
    if (state.flush || now >= due) return
    await new Promise<void>((resolve) => {
      // unref: a pending refresh alone does not keep the process up (closing the app runs it at once).
      const timer = setTimeout(resolve, due - now).unref()
      state.wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }
}

function refreshStatsAfter(database: AppDatabase, wages: WageEstimates, now: number, log?: FastifyBaseLogger): void {
  const wall = Date.now()
  const running = refreshes.get(database)
  if (running) {
    if (running.again === null) running.firstAt = wall
    running.again = now
    running.lastAt = wall
    return
  }
  const state: StatsRefresh = { again: now, firstAt: wall, lastAt: wall, flush: false, wake: () => {}, done: Promise.resolve() }
  refreshes.set(database, state)
  state.done = (async () => {
    try {
      while (state.again !== null) {
        await quiet(state)
        const at = state.again
        state.again = null
        await refreshAllStats(database.db, { now: at, wages })
      }
    } catch (error) {
      log?.error({ err: error }, 'statistics refresh after an admin change failed; the next sync refreshes them')
    } finally {
      refreshes.delete(database)
    }
  })()
}

/**
 * An admin change that moves no label but a figure of 首页 (its members are counted by role and status: a member made an
 * admin, one created without a site account): the figures are refreshed as after a pass, in the background.
 */
export function figuresChanged(services: RelabelServices, now: number, log?: FastifyBaseLogger): void {
  if (services.wages) refreshStatsAfter(services.database, services.wages, now, log)
}

/**
 * Resolves once no background refresh of the figures runs for this database (the app waits for it before closing it);
 * one still waiting for the changes to pause starts at once.
 */
export async function statsRefreshSettled(database: AppDatabase): Promise<void> {
  for (let state = refreshes.get(database); state; state = refreshes.get(database)) {
    state.flush = true
    state.wake()
    await state.done
  }
}

export function relabel(services: RelabelServices, now: number, log?: FastifyBaseLogger): Promise<RelabelOutcome> {
  const { database } = services
  const previous = chains.get(database) ?? Promise.resolve()
  const run = previous
    .catch(() => {})
    .then(async () => {
      const outcome = await relabelOnce(services, now, log)
      if (outcome.ran && services.wages) refreshStatsAfter(database, services.wages, now, log)
      return outcome
    })
    .catch((error: unknown) => {
      log?.error({ err: error }, 'relabel after an admin change failed; the next sync applies it')
      return { ran: false }
    })
  chains.set(database, run)
  return run
}

async function relabelOnce({ database, sync }: RelabelServices, now: number, log?: FastifyBaseLogger): Promise<RelabelOutcome> {
  const { db } = database
  // The lease's clock: the request's time, moving on in real time while the pass runs.
  const wallStart = Date.now()
  const lease = await acquireLease(db, {
    what: 'relabel',
    clock: () => now + (Date.now() - wallStart),
    onLost: () => log?.error('sync lease taken over by another process while a relabel pass ran (it stalled)'),
  })
  if (!lease) return { ran: false }
  try {
    const state = await db.selectFrom('sync_state').select('derived_at').where('id', '=', 1).executeTakeFirst()
    await sync.derivePass({ now: state?.derived_at ?? now })
    return { ran: true }
  } finally {
    await lease.release()
  }
}
