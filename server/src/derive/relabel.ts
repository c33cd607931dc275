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
/** A background refresh of the figures per database: the time of a change made while it ran (to refresh again), its end. */
const refreshes = new WeakMap<AppDatabase, { again: number | null; done: Promise<void> }>()

function refreshStatsAfter(database: AppDatabase, wages: WageEstimates, now: number, log?: FastifyBaseLogger): void {
  const running = refreshes.get(database)
  if (running) {
    running.again = now
    return
  }
  const state: { again: number | null; done: Promise<void> } = { again: now, done: Promise.resolve() }
  refreshes.set(database, state)
  state.done = (async () => {
    try {
      while (state.again !== null) {
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

/** Resolves once no background refresh of the figures runs for this database (the app waits for it before closing it). */
export async function statsRefreshSettled(database: AppDatabase): Promise<void> {
  for (let state = refreshes.get(database); state; state = refreshes.get(database)) await state.done
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
