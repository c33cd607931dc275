/**
 * Device keys (OWASP's "device cookie"): what makes a client "known" to an account when its address is
 * not. A right password gets a new random key in the `Device-Key` header of the login's answer; a login
 * of that user that sends it back (same header) is exempt from the login limiter's account-wide lock
 * (auth/login-limiter.ts). So a guesser who keeps an account locked from many addresses does not lock
 * its owner's app out when their home address changes (PPPoE: daily) — the address rule
 * ("logged in from this client within 30 days") still serves clients without a key (browsers, scripts).
 *
 * A key is 32 random bytes (base64url, 43 characters), like a session token, and likewise only its
 * sha256 is stored (table device_keys), with its user and its last use. A key:
 * - is replaced at every right password it comes with (the answer carries the new one; the old one is
 *   dead), so a copy dies at the owner's next login;
 * - expires DEVICE_KEY_IDLE_MS after its last right password;
 * - ends, with all of its user's keys, when the password is changed or reset and when the account is
 *   banned or deleted (revokeUserSessions in sessions.ts);
 * - never buys more guesses than one address: the limiter counts the wrong passwords sent with it, and
 *   after `perUser` of them within the window it no longer exempts anything.
 * At most MAX_DEVICE_KEYS per user: a login beyond that ends the least recently used one.
 */
import { deviceKeyPattern } from '@shared/endpoints'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { hashToken, newToken } from './sessions'

/** How long a key stays valid without a right password: as long as an address stays known. */
export const DEVICE_KEY_IDLE_MS = 30 * 24 * 3600_000

/** Keys one user may hold: as many devices as live sessions (sessions.ts MAX_LIVE_SESSIONS). */
export const MAX_DEVICE_KEYS = 20

/**
 * The id of the live key `key` of the user named `usernameKey` (username_lower), or null: no key, one
 * that cannot be ours (refused without a database round trip), unknown, another user's or expired.
 */
export async function findDeviceKey(db: Kysely<DB>, usernameKey: string, key: string | undefined, now: number): Promise<number | null> {
  if (!key || !deviceKeyPattern.test(key)) return null
  const row = await db
    .selectFrom('device_keys as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select('d.id')
    .where('d.key_hash', '=', hashToken(key))
    .where('u.username_lower', '=', usernameKey)
    .where('d.last_used_at', '>', now - DEVICE_KEY_IDLE_MS)
    .executeTakeFirst()
  return row ? Number(row.id) : null
}

/**
 * A new key for `userId` after a right password (the only time it exists in clear). It replaces the key
 * `replacing` (the one the login came with, from findDeviceKey) when that is still the user's, else it is
 * added; the user's expired keys and those beyond MAX_DEVICE_KEYS go. Call it in the login's transaction
 * that locks the users row: a password reset committed meanwhile made the login fail, one that comes
 * after ends this key too.
 */
export async function issueDeviceKey(db: Kysely<DB>, userId: number, replacing: number | null, now: number): Promise<string> {
  const key = newToken()
  const values = { key_hash: hashToken(key), last_used_at: now }
  let replaced = false
  if (replacing !== null) {
    const updated = await db
      .updateTable('device_keys')
      .set(values)
      .where('id', '=', replacing)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    replaced = Number(updated.numUpdatedRows) === 1
  }
  if (!replaced)
    await db
      .insertInto('device_keys')
      .values({ user_id: userId, ...values })
      .execute()

  await db
    .deleteFrom('device_keys')
    .where('user_id', '=', userId)
    .where('last_used_at', '<=', now - DEVICE_KEY_IDLE_MS)
    .execute()
  const kept = await db
    .selectFrom('device_keys')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_DEVICE_KEYS)
    .execute()
  if (kept.length === MAX_DEVICE_KEYS) {
    const keptIds = kept.map((row) => row.id)
    await db.deleteFrom('device_keys').where('user_id', '=', userId).where('id', 'not in', keptIds).execute()
  }
  return key
}
