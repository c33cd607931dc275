/**
 * Limits password guessing. An attempt is counted before its password is judged (a reservation)
 * and refunded when the password was right, so attempts sent in parallel are judged at most as
 * often as the limit allows. A client is an IPv4 address or an IPv6 /64 (http/client-address.ts).
 * Four scopes:
 * - the guessed account from one client: `perUser` attempts per window, then locked for that client
 *   only (a stranger guessing from elsewhere does not lock the owner out);
 * - the guessed account from everywhere: `perAccount` attempts per window. Without it a guesser with
 *   many clients guesses without bound — an IPv6 /48 holds 65,536 /64s, each with its own `perUser`.
 *   Beyond it the account is locked for every client except "known" ones: a client the account logged
 *   in from within `knownMs`, or one that sends a live device key of the account (auth/device-keys.ts:
 *   the desktop app keeps one, so a new home address each day does not lock its owner out). So a
 *   guesser cannot lock the owner out of where they usually log in — only a keyless client out of new
 *   places, and only while the guessing goes on — and the owner needs nothing from an admin. A guesser
 *   inside a known client still has only that client's `perUser`, and one holding a stolen key only
 *   the key's: after `perUser` wrong passwords with it within the window, the key exempts nothing;
 * - the client across accounts: `ipFree` attempts per window, beyond that each next attempt waits
 *   twice as long after the last one, up to `ipMaxDelayMs` — slowed down, never shut out;
 * - an IPv6 client's /48 across accounts: `netFree` attempts (a larger allowance: many subscribers
 *   may share it), then slowed down the same way.
 * The counts live in the database (table login_attempts), so every server process on one database
 * shares them and a restart forgives nothing.
 */
import { sql, type Kysely } from 'kysely'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { clientGroup, clientNetwork } from '../http/client-address'
import { findDeviceKey } from './device-keys'
import type { Clock } from '../db/time'
import { systemClock } from '../db/time'

export interface LoginLimits {
  windowMs: number
  /** Attempts (not refunded) allowed per (username, client) within the window. */
  perUser: number
  /** Attempts allowed per username from all clients together within the window, except from known clients. */
  perAccount: number
  /** How long a right password makes its client known to that username (exempt from `perAccount`; device keys: DEVICE_KEY_IDLE_MS). */
  knownMs: number
  /** Attempts per client within the window before the client is slowed down. */
  ipFree: number
  /** Attempts per IPv6 /48 within the window before the /48 is slowed down. */
  netFree: number
  /** The first enforced gap between attempts of a slowed client or /48; it doubles with every further attempt. */
  ipBaseDelayMs: number
  ipMaxDelayMs: number
}

export const defaultLoginLimits: LoginLimits = {
  windowMs: 15 * 60_000,
  perUser: 5,
  perAccount: 20,
  knownMs: 30 * 24 * 3600_000,
  ipFree: 20,
  netFree: 100,
  ipBaseDelayMs: 1_000,
  ipMaxDelayMs: 60_000,
}

/** 429 texts for an attempt refused by the account-wide limit (the per-client ones are in @shared/messages). */
export const accountLimitMessages = {
  login: '该账号近期密码错误次数过多，暂时只能从最近成功登录过的网络或设备登录，请稍后再试',
  changePassword: '该账号近期密码错误次数过多，暂时只能从最近成功登录过的网络修改密码，请稍后再试',
}

export type Reservation =
  | { allowed: true; ticket: AttemptTicket }
  /** `accountLocked`: the account-wide limit is (one of) the reasons — another text for the user. */
  | { allowed: false; retryAfterSec: number; accountLocked?: true }

/** A counted attempt: refunded when the password was right, kept when it was wrong. */
export interface AttemptTicket {
  ids: number[]
  userScope: string
  knownScope: string
  /** The live device key the attempt came with (auth/device-keys.ts), or null. */
  deviceKeyId: number | null
}

/** PostgreSQL advisory lock classes of the limiter (second key: the hash of the username, of the IP or /48). */
const PG_ACCOUNT_LOCK_CLASS = 4_040_101
const PG_LOCK_CLASS = 4_040_100

export class LoginLimiter {
  private readonly limits: LoginLimits

  constructor(
    private readonly database: AppDatabase,
    limits: Partial<LoginLimits> = defaultLoginLimits,
    private readonly now: Clock = systemClock,
  ) {
    this.limits = { ...defaultLoginLimits, ...limits }
  }

  /**
   * Counts an attempt of `usernameKey` from `ip`, with the device key the client sent if any, or
   * refuses it (a refused attempt is not counted). Runs as one transaction per username and per IP
   * (or /48) at a time, so parallel attempts see each other's reservations.
   */
  async reserve(usernameKey: string, clientIp: string, deviceKey?: string): Promise<Reservation> {
    const now = this.now()
    const client = clientGroup(clientIp) // an IPv6 host counts with its /64
    const network = clientNetwork(clientIp) // … and with its /48 (null for IPv4)
    const userScope = pairScope(usernameKey, client)
    const { windowMs, perUser, perAccount, ipFree, netFree } = this.limits
    return this.database.db.transaction().execute(async (trx) => {
      if (this.database.dialect === 'postgres') {
        // Always the account first, then the network: two attempts never wait for each other crosswise.
        await sql`select pg_advisory_xact_lock(${PG_ACCOUNT_LOCK_CLASS}::int4, hashtext(${usernameKey}))`.execute(trx)
        await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}::int4, hashtext(${network ?? client}))`.execute(trx)
      }
      await this.forgetOld(trx, now)

      const since = now - windowMs
      const pair = await recentTimes(trx, userScope, since)
      const account = await recentTimes(trx, accountScope(usernameKey), since)
      const deviceKeyId = await findDeviceKey(trx, usernameKey, deviceKey, now)
      const keyScope = deviceKeyId === null ? null : deviceScope(deviceKeyId)
      const waits: number[] = []
      // A scope is allowed again when enough of its oldest attempts have left the window.
      if (pair.length >= perUser) waits.push(pair[pair.length - perUser] + windowMs - now)
      const accountLocked =
        account.length >= perAccount &&
        !(keyScope !== null && (await recentTimes(trx, keyScope, since)).length < perUser) &&
        !(await isKnown(trx, knownScope(usernameKey, client)))
      if (accountLocked) waits.push(account[account.length - perAccount] + windowMs - now)
      waits.push(this.slowDown(await recentTimes(trx, ipScope(client), since), ipFree, now))
      if (network !== null) waits.push(this.slowDown(await recentTimes(trx, networkScope(network), since), netFree, now))
      const wait = Math.max(...waits)
      if (wait > 0) {
        const retryAfterSec = Math.max(1, Math.ceil(wait / 1000))
        return accountLocked ? { allowed: false, retryAfterSec, accountLocked: true } : { allowed: false, retryAfterSec }
      }

      const scopes = [userScope, ipScope(client), accountScope(usernameKey)]
      if (network !== null) scopes.push(networkScope(network))
      if (keyScope !== null) scopes.push(keyScope)
      const rows = await trx
        .insertInto('login_attempts')
        .values(scopes.map((scope) => ({ scope, at: now })))
        .returning('id')
        .execute()
      const ids = rows.map((row) => Number(row.id))
      return { allowed: true, ticket: { ids, userScope, knownScope: knownScope(usernameKey, client), deviceKeyId } }
    })
  }

  /** The attempt was not a wrong guess (e.g. the server failed before judging it): it does not count. */
  async refund(ticket: AttemptTicket): Promise<void> {
    await this.database.db.deleteFrom('login_attempts').where('id', 'in', ticket.ids).execute()
  }

  /**
   * The password was right: the attempt does not count, that username's failures from that client
   * (and with that device key) are forgiven (not the client's, nor the account's), and the client
   * becomes known to the username.
   */
  async forgive(ticket: AttemptTicket): Promise<void> {
    const now = this.now()
    const forgiven = [ticket.userScope, ticket.knownScope]
    if (ticket.deviceKeyId !== null) forgiven.push(deviceScope(ticket.deviceKeyId))
    await this.database.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('login_attempts')
        .where((eb) => eb.or([eb('id', 'in', ticket.ids), eb('scope', 'in', forgiven)]))
        .execute()
      await trx.insertInto('login_attempts').values({ scope: ticket.knownScope, at: now }).execute()
    })
  }

  /** Deletes attempts that left the window, and known clients older than `knownMs`. */
  private async forgetOld(trx: Kysely<DB>, now: number): Promise<void> {
    const { windowMs, knownMs } = this.limits
    await trx
      .deleteFrom('login_attempts')
      .where((eb) =>
        eb.or([
          eb('at', '<=', now - Math.max(knownMs, windowMs)),
          eb.and([eb('at', '<=', now - windowMs), eb('scope', 'not like', `${KNOWN_PREFIX}%`)]),
        ]),
      )
      .execute()
  }

  /** How long a client or /48 with these attempts in the window must still wait (≤ 0: not at all). */
  private slowDown(times: number[], free: number, now: number): number {
    const { ipBaseDelayMs, ipMaxDelayMs } = this.limits
    if (times.length === 0 || times.length < free) return 0
    const doublings = Math.min(times.length - free, 30)
    const gap = Math.min(ipMaxDelayMs, ipBaseDelayMs * 2 ** doublings)
    return times[times.length - 1] + gap - now
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

async function isKnown(trx: Kysely<DB>, scope: string): Promise<boolean> {
  return (await trx.selectFrom('login_attempts').select('id').where('scope', '=', scope).limit(1).executeTakeFirst()) !== undefined
}

// JSON: usernames and IPs may hold any character, and PostgreSQL text cannot hold NUL.
const pairScope = (usernameKey: string, client: string) => JSON.stringify(['u', client, usernameKey])
const accountScope = (usernameKey: string) => JSON.stringify(['a', usernameKey])
const ipScope = (client: string) => JSON.stringify(['i', client])
const networkScope = (network: string) => JSON.stringify(['n', network])
/** Wrong passwords sent with a device key (its id in device_keys; a replaced key keeps its id). */
const deviceScope = (deviceKeyId: number) => JSON.stringify(['d', deviceKeyId])
/** Not an attempt: the client logged in as the username at `at` (kept `knownMs`, not the window). */
const knownScope = (usernameKey: string, client: string) => JSON.stringify(['k', client, usernameKey])
const KNOWN_PREFIX = '["k",'
