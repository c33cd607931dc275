/**
 * Login sessions. A token is 32 random bytes (base64url, 43 characters); the database keeps only
 * its sha256, so a leaked database or backup holds no usable token. Sessions expire after 7 days
 * without use and die on logout, and whenever their user is not in good standing (banned, deleted).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { AccountStatus, Role } from '@shared/enums'
import type { DB } from '../db/schema'

export const SESSION_IDLE_MS = 7 * 24 * 3600_000
/** last_seen_at is written at most this often, so an active client does not cause a write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000

const TOKEN_BYTES = 32
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** The user a request acts for, read from the users row on every call (role changes apply at once). */
export interface AuthUser {
  id: number
  username: string
  role: Role
  status: AccountStatus
  siteUid: number | null
  lastLoginAt: number | null
}

export interface Authenticated {
  sessionId: number
  user: AuthUser
}

export interface SessionMeta {
  ip: string
  userAgent: string
}

/** Creates a session for `userId` and returns its token (the only time the token exists in clear). */
export async function createSession(db: Kysely<DB>, userId: number, meta: SessionMeta, now: number): Promise<string> {
  const token = newToken()
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_IDLE_MS,
      ip: meta.ip,
      user_agent: meta.userAgent.slice(0, 512),
    })
    .execute()
  return token
}

/**
 * The live session and user behind `token`, or null for a missing, malformed, unknown, revoked or
 * idle-expired token, or a user who is not in good standing.
 */
export async function authenticate(db: Kysely<DB>, token: string | undefined, now: number): Promise<Authenticated | null> {
  // Anything that cannot be one of our tokens is refused without a database round trip.
  if (!token || !TOKEN_PATTERN.test(token)) return null
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as sessionId',
      's.last_seen_at',
      's.expires_at',
      's.revoked_at',
      'u.id',
      'u.username',
      'u.role',
      'u.status',
      'u.site_uid',
      'u.last_login_at',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst()
  if (!row || row.revoked_at !== null) return null
  // Both bounds: expires_at is the stored deadline, last_seen_at the idle clock it derives from.
  if (now >= row.expires_at || now - row.last_seen_at >= SESSION_IDLE_MS) return null
  if (row.status !== 2) return null

  if (now - row.last_seen_at >= SESSION_TOUCH_INTERVAL_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: now + SESSION_IDLE_MS })
      .where('id', '=', row.sessionId)
      .where('revoked_at', 'is', null)
      .execute()
  }
  return {
    sessionId: row.sessionId,
    user: {
      id: row.id,
      username: row.username,
      role: row.role,
      status: row.status,
      siteUid: row.site_uid,
      lastLoginAt: row.last_login_at,
    },
  }
}

export async function revokeSession(db: Kysely<DB>, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute()
}

/** Ends every session of a user (ban, delete, password reset). Returns how many were live. */
export async function revokeUserSessions(db: Kysely<DB>, userId: number, now: number): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Deletes sessions that ended more than `keepMs` ago; they can never be used again. */
export async function pruneSessions(db: Kysely<DB>, now: number, keepMs = 30 * 24 * 3600_000): Promise<number> {
  const before = now - keepMs
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
