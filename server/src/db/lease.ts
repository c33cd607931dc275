/**
 * The sync lease: the `sync_state` row's lock_owner / lock_expires_at, held by whoever runs a sync
 * or a derivation pass (they share scratch tables), across every process on the database.
 *
 * A holder renews its lease every HEARTBEAT_MS; the expiry is STALE_AFTER_MS past the last renewal,
 * so a holder that died is taken over within seconds — at once when it ran on this machine: the
 * owner names its host, boot and process id, and a process that no longer exists holds nothing.
 * Times are the app clock's (the lease is about processes, not about the source's clock).
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import type { DB } from './schema'

export const HEARTBEAT_MS = 2_000
/** A lease not renewed for this long belongs to a process that stopped (died, or hangs). */
export const STALE_AFTER_MS = 10_000

const PREFIX = 'lease1'

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return 'unknown-boot'
  }
}

const machine = { host: hostname().replace(/\|/g, '_'), boot: bootId() }

/** Leases this process holds now: a lease naming our pid but not listed here is a predecessor's (pid reused). */
const heldHere = new Set<string>()

interface Holder {
  host: string
  boot: string
  pid: number
}

/** `lease1|host|boot|pid|what|random`; anything else (older versions, tests) is judged by its expiry alone. */
function parseOwner(owner: string): Holder | null {
  const parts = owner.split('|')
  if (parts.length !== 6 || parts[0] !== PREFIX) return null
  const pid = Number(parts[3])
  return Number.isSafeInteger(pid) && pid > 0 ? { host: parts[1], boot: parts[2], pid } : null
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether a lease row names a holder that is still working (false: free, expired or its process is gone). */
export function leaseIsLive(owner: string | null | undefined, expiresAt: number | string | null | undefined, now: number): boolean {
  if (!owner || expiresAt === null || expiresAt === undefined || Number(expiresAt) <= now) return false
  const holder = parseOwner(owner)
  if (!holder || holder.host !== machine.host || holder.boot !== machine.boot) return true
  if (holder.pid === process.pid) return heldHere.has(owner)
  return processExists(holder.pid)
}

/** What a holder records as it lets go. */
export interface LeaseEnd {
  last_finished_at?: number
  last_error?: string | null
  rows?: string
}

export interface Lease {
  readonly owner: string
  /** False once another process took the lease over (this one stalled past STALE_AFTER_MS). */
  readonly held: boolean
  /** Stops the heartbeat and frees the lease (if still ours), setting `extra` columns in the same update. */
  release(extra?: LeaseEnd): Promise<void>
}

export interface AcquireOptions {
  /** Who asks, for the log and the status (sync, relabel). */
  what: string
  clock: () => number
  /** Columns set together with the claim (e.g. last_started_at). */
  claimSet?: { last_started_at?: number }
  onLost?: () => void
}

/**
 * Takes the lease when it is free or its holder is dead (compare-and-set on the owner read, so two
 * processes that both saw a dead holder cannot both win). Null when a live holder has it.
 */
export async function acquireLease(db: Kysely<DB>, options: AcquireOptions): Promise<Lease | null> {
  const { clock } = options
  const now = clock()
  const state = await db.selectFrom('sync_state').select(['lock_owner', 'lock_expires_at']).where('id', '=', 1).executeTakeFirst()
  if (!state || leaseIsLive(state.lock_owner, state.lock_expires_at, now)) return null
  const owner = [PREFIX, machine.host, machine.boot, process.pid, options.what, randomBytes(6).toString('hex')].join('|')
  let claim = db
    .updateTable('sync_state')
    .set({ ...options.claimSet, lock_owner: owner, lock_expires_at: now + STALE_AFTER_MS })
    .where('id', '=', 1)
  claim = state.lock_owner === null ? claim.where('lock_owner', 'is', null) : claim.where('lock_owner', '=', state.lock_owner)
  const claimed = await claim.executeTakeFirst()
  if (Number(claimed.numUpdatedRows) !== 1) return null
  heldHere.add(owner)

  let held = true
  let renewing: Promise<unknown> = Promise.resolve()
  const timer = setInterval(() => {
    renewing = db
      .updateTable('sync_state')
      .set({ lock_expires_at: clock() + STALE_AFTER_MS })
      .where('id', '=', 1)
      .where('lock_owner', '=', owner)
      .executeTakeFirst()
      .then(
        (result) => {
          if (Number(result.numUpdatedRows) === 1 || !held) return
          held = false
          options.onLost?.()
        },
        () => {}, // a failed renewal is retried by the next beat; the lease lasts STALE_AFTER_MS
      )
  }, HEARTBEAT_MS)
  timer.unref()

  return {
    owner,
    get held() {
      return held
    },
    async release(extra = {}) {
      clearInterval(timer)
      await renewing
      try {
        await db
          .updateTable('sync_state')
          .set({ ...extra, lock_owner: null, lock_expires_at: null })
          .where('id', '=', 1)
          .where('lock_owner', '=', owner)
          .execute()
      } finally {
        heldHere.delete(owner)
      }
    },
  }
}

/**
 * Clears the lease of a holder that died (the last sync or pass was cut short by its process dying)
 * and says whether there was one: the caller then runs a sync at once instead of waiting for the
 * schedule. Compare-and-set, so a live holder that took it over meanwhile keeps it.
 */
export async function clearDeadLease(db: Kysely<DB>, now: number): Promise<boolean> {
  const state = await db.selectFrom('sync_state').select(['lock_owner', 'lock_expires_at']).where('id', '=', 1).executeTakeFirst()
  if (!state?.lock_owner || leaseIsLive(state.lock_owner, state.lock_expires_at, now)) return false
  await db
    .updateTable('sync_state')
    .set({ lock_owner: null, lock_expires_at: null })
    .where('id', '=', 1)
    .where('lock_owner', '=', state.lock_owner)
    .execute()
  return true
}
