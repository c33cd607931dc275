/**
 * One sync of the demo source: the community lives on. Peers announce at NexusPHP's intervals (30–60
 * minutes by the torrent's age: a 10-minute sync sees a sixth to a third of them) and their counters grow
 * with the time since their last announce, a few stop (they age out of the active window, and the
 * tracker's cleanup drops them two hours later), some stopped snatches start seeding again, members
 * start new downloads and finish running ones, claims appear, new torrents are released, seeder
 * counts drift. Set-based SQL for what touches many rows (in id ranges: each statement is synchronous on
 * SQLite), a seeded PRNG for the few new rows.
 * Every change queues its keys for the derivation in the same transaction; each range or step is a
 * transaction of its own (a 2 M-record sync's one transaction held SQLite's write lock for seconds, and
 * a request's write failed after waiting 15 s). A crash in the middle leaves some ranges announced and
 * their keys queued; the next sync announces the others from their own last announce (each peer's
 * growth is counted from its `last_action`, so nothing grows twice).
 */
import type { AppDatabase } from '../../../db/database'
import { Prng } from '../prng'
import { newDownloads, newTorrents } from './new-rows'
import { announce, dropStalePeers, driftTorrentCounts, newClaims, restartSeeding, type SetStep } from './set-steps'
import { hashSeed, idRanges } from './sql'

/** A peer's growth is simulated for at most this long, however long the server was down. */
const MAX_GROW_MS = 2 * 24 * 3600_000

export interface DemoState {
  seed: string
  size: string
  syncs: number
  lastAdvanceAt: number
}

export interface AdvanceOptions {
  now: number
  activeWindowMinutes: number
  /** Rows written so far per table, as each step ends (the sync's progress on /data-sync). */
  progress?: (table: string, rows: number) => void
}

export async function advanceDemo(
  database: AppDatabase,
  state: DemoState,
  options: AdvanceOptions,
): Promise<{ state: DemoState; rows: Record<string, number> }> {
  const { now } = options
  const window = options.activeWindowMinutes * 60_000
  const prevSince = state.lastAdvanceAt - window
  const since = now - window
  const sync = state.syncs + 1
  const salt = (sync * 7_654_321 + hashSeed(state.seed)) % 1_000_000
  const rng = new Prng(`${state.seed}/sync/${sync}`)
  const rows: Record<string, number> = {}
  const count = (table: string, n: bigint | number | undefined) => {
    rows[table] = (rows[table] ?? 0) + Number(n ?? 0)
    options.progress?.(table, rows[table])
  }

  const { db } = database
  const step: SetStep = {
    write: (work) => db.transaction().execute(work),
    dialect: database.dialect,
    now,
    since,
    prevSince,
    maxGrowMs: MAX_GROW_MS,
    salt,
    peerRanges: await idRanges(db, 'site_peers'),
    count,
  }
  await announce(step)
  await dropStalePeers(step)
  await restartSeeding(step)
  await newClaims(step)
  await driftTorrentCounts(step)
  // New downloads and new releases: few rows, from the PRNG.
  await step.write((trx) => newDownloads(trx, rng, now, count))
  await step.write((trx) => newTorrents(trx, rng, now, count))

  return { state: { ...state, syncs: sync, lastAdvanceAt: now }, rows }
}
