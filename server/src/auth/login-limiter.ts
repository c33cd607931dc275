/**
 * Limits password guessing. An attempt is counted before its password is judged (a reservation)
 * and refunded when the password was right, so attempts sent in parallel are judged at most as
 * often as the limit allows. Two scopes:
 * - the guessed account from one IP: `perUser` attempts per window, then locked for that IP only
 *   (a stranger guessing from elsewhere does not lock the owner out);
 * - the IP across accounts: `ipFree` attempts per window, beyond that each next attempt waits
 *   twice as long after the last one, up to `ipMaxDelayMs` — slowed down, never shut out.
 * The counts live in the database (table login_attempts), so every server process on one database
 * shares them and a restart forgives nothing.
 */
import { sql, type Kysely } from 'kysely'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { clientGroup } from '../http/client-address'
import type { Clock } from '../db/time'
import { systemClock } from '../db/time'

export interface LoginLimits {
  windowMs: number
  /** Attempts (not refunded) allowed per (username, IP) within the window. */
  perUser: number
  /** Attempts per IP within the window before the IP is slowed down. */
  ipFree: number
  /** The IP's first enforced gap between attempts; it doubles with every further attempt. */
  ipBaseDelayMs: number
  ipMaxDelayMs: number
}

export const defaultLoginLimits: LoginLimits = {
  windowMs: 15 * 60_000,
  perUser: 5,
  ipFree: 20,
  ipBaseDelayMs: 1_000,
  ipMaxDelayMs: 60_000,
}

export type Reservation = { allowed: true; ticket: AttemptTicket } | { allowed: false; retryAfterSec: number }

/** A counted attempt: refunded when the password was right, kept when it was wrong. */
export interface AttemptTicket {
  ids: number[]
  userScope: string
}

/** PostgreSQL advisory lock class of the limiter (second key: the IP's hash). */
const PG_LOCK_CLASS = 4_040_100

export class LoginLimiter {
  constructor(
    private readonly database: AppDatabase,
    private readonly limits: LoginLimits = defaultLoginLimits,
    private readonly now: Clock = systemClock,
  ) {}

  /**
   * Counts an attempt of `usernameKey` from `ip`, or refuses it (a refused attempt is not counted).
   * Runs as one transaction per IP at a time, so parallel attempts see each other's reservations.
   */
  async reserve(usernameKey: string, clientIp: string): Promise<Reservation> {
    const now = this.now()
    const ip = clientGroup(clientIp) // an IPv6 host counts with its /64
    const userScope = pairScope(usernameKey, ip)
    const ipScopeKey = ipScope(ip)
    const { windowMs, perUser } = this.limits
    return this.database.db.transaction().execute(async (trx) => {
      if (this.database.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}::int4, hashtext(${ip}))`.execute(trx)
      await trx
        .deleteFrom('login_attempts')
        .where('at', '<=', now - windowMs)
        .execute()

      const pair = await recentTimes(trx, userScope, now - windowMs)
      const ipTimes = await recentTimes(trx, ipScopeKey, now - windowMs)
      const waits: number[] = []
      // The pair is allowed again when enough of its oldest attempts have left the window.
      if (pair.length >= perUser) waits.push(pair[pair.length - perUser] + windowMs - now)
      const ipGap = this.ipGap(ipTimes.length)
      if (ipGap > 0 && ipTimes.length > 0 && now < ipTimes[ipTimes.length - 1] + ipGap)
        waits.push(ipTimes[ipTimes.length - 1] + ipGap - now)
      if (waits.length > 0) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) }

      const rows = await trx
        .insertInto('login_attempts')
        .values([
          { scope: userScope, at: now },
          { scope: ipScopeKey, at: now },
        ])
        .returning('id')
        .execute()
      return { allowed: true, ticket: { ids: rows.map((row) => Number(row.id)), userScope } }
    })
  }

  /** The attempt was not a wrong guess (e.g. the server failed before judging it): it does not count. */
  async refund(ticket: AttemptTicket): Promise<void> {
    await this.database.db.deleteFrom('login_attempts').where('id', 'in', ticket.ids).execute()
  }

  /** The password was right: the attempt does not count, and that username's failures from that IP are forgiven (not the IP's). */
  async forgive(ticket: AttemptTicket): Promise<void> {
    await this.database.db
      .deleteFrom('login_attempts')
      .where((eb) => eb.or([eb('id', 'in', ticket.ids), eb('scope', '=', ticket.userScope)]))
      .execute()
  }

  /** The enforced gap after the IP's last attempt, given its attempts in the window. */
  private ipGap(attempts: number): number {
    const { ipFree, ipBaseDelayMs, ipMaxDelayMs } = this.limits
    if (attempts < ipFree) return 0
    const doublings = Math.min(attempts - ipFree, 30)
    return Math.min(ipMaxDelayMs, ipBaseDelayMs * 2 ** doublings)
  }
}

async function recentTimes(trx: Kysely<DB>, scope: string, after: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('login_attempts')
    .select('at')
    .where('scope', '=', scope)
    .where('at', '>', after)
    .orderBy('at')
    .execute()
  return rows.map((row) => Number(row.at))
}

// JSON: usernames and IPs may hold any character, and PostgreSQL text cannot hold NUL.
const pairScope = (usernameKey: string, ip: string) => JSON.stringify(['u', ip, usernameKey])
const ipScope = (ip: string) => JSON.stringify(['i', ip])
