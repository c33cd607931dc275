/**
 * Login sessions. A token is 32 random bytes (base64url, 43 characters); the database keeps only
 * its sha256, so a leaked database or backup holds no usable token. Sessions expire after 7 days
 * without use and die on logout, and whenever their user is not in good standing (banned, deleted).
 *
 * Each app keeps what `authenticate` answered for a token for SESSION_CACHE_MS (SessionCache), so a
 * busy client costs one session read per that time, not one per call. In this process a logout, ban,
 * password reset or user change takes effect at once: they call `forgetSessions()`, which empties
 * every cache of the process. Another process sharing the database (several servers behind a load
 * balancer) notices within SESSION_CACHE_MS.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type Role, AccountStatus } from '@shared/enums'
import { messages } from '@shared/messages'
import type { DB } from '../db/schema'

export const SESSION_IDLE_MS = 7 * 24 * 3600_000
/** last_seen_at is written at most this often, so an active client does not cause a write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000

/** How long an app trusts what it read about a session: the delay before another process's logout, ban or reset applies here. */
export const SESSION_CACHE_MS = 2_000
const SESSION_CACHE_MAX = 10_000

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

/**
 * Live sessions one user may hold: more devices and browsers than anyone uses within the idle time.
 * A right password is free of the login limits, so without a cap a script looping logins would pile
 * up live sessions (rows, and tokens that stay valid for a week) without bound.
 */
export const MAX_LIVE_SESSIONS = 20

/**
 * Creates a session for `userId` and returns its token (the only time the token exists in clear).
 * Beyond MAX_LIVE_SESSIONS, the user's least recently used live sessions are revoked. Call it in the
 * transaction that locks the users row (login does), so parallel logins count each other's sessions.
 */
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
  // Last use is last_seen_at (written at most once a SESSION_TOUCH_INTERVAL_MS); on a tie the newer session stays.
  const kept = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_LIVE_SESSIONS)
    .execute()
  if (kept.length === MAX_LIVE_SESSIONS) {
    const keptIds = kept.map((row) => row.id)
    const ended = await db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('id', 'not in', keptIds)
      .executeTakeFirst()
    // This process's cache may hold an ended one (the caller forgets again once it committed).
    if (Number(ended.numUpdatedRows) > 0) forgetSessions()
  }
  return token
}

/** Bumped by every change that can end a session or alter its user; a cache entry read before a bump is not used. */
let epoch = 0

/**
 * Call after (and, for a transaction, also once it committed) any write that ends a session or changes
 * a user's role, status, name or site uid: every SessionCache of this process forgets what it knew.
 */
export function forgetSessions(): void {
  epoch++
}

/** The current epoch: a caller that sees it change across a transaction calls forgetSessions() again after the commit. */
export function sessionEpoch(): number {
  return epoch
}

interface CachedSession {
  epoch: number
  readAt: number
  lastSeenAt: number
  expiresAt: number
  auth: Authenticated
}

/** What one app last read about live sessions, by token hash (only live sessions are kept). */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>()

  get(hash: string, now: number): CachedSession | undefined {
    const entry = this.entries.get(hash)
    if (!entry) return undefined
    if (entry.epoch !== epoch || now - entry.readAt >= SESSION_CACHE_MS || now < entry.readAt) {
      this.entries.delete(hash)
      return undefined
    }
    return entry
  }

  set(hash: string, entry: CachedSession): void {
    if (entry.epoch !== epoch) return
    this.entries.delete(hash)
    this.entries.set(hash, entry)
    if (this.entries.size > SESSION_CACHE_MAX) this.entries.delete(this.entries.keys().next().value!)
  }
}

/** Touches (last_seen_at writes) under way in this process, by token hash. */
const touches = new Map<string, Promise<unknown>>()

/**
 * The live session and user behind `token`, or null for a missing, malformed, unknown, revoked or
 * idle-expired token, or a user who is not in good standing. With a cache, a session read less than
 * SESSION_CACHE_MS ago (and no forgetSessions() since) is answered without the database.
 */
export async function authenticate(
  db: Kysely<DB>,
  token: string | undefined,
  now: number,
  cache?: SessionCache,
): Promise<Authenticated | null> {
  const checked = await checkSession(db, token, now, cache)
  return 'refused' in checked ? null : checked
}

/**
 * `authenticate`, with why a token was refused in the words its holder is shown (the 401's msg): a session a ban, a
 * delete, a logout elsewhere or its idle time ended says so instead of 请先登录. Read from the same row, so a token
 * that is none of ours costs what it did; only the token's own holder learns its account's state.
 */
export async function checkSession(
  db: Kysely<DB>,
  token: string | undefined,
  now: number,
  cache?: SessionCache,
): Promise<Authenticated | { refused: string }> {
  const refused = (msg: string = messages.notLoggedIn) => ({ refused: msg })
  // Anything that cannot be one of our tokens is refused without a database round trip.
  if (!token || !TOKEN_PATTERN.test(token)) return refused()
  const hash = hashToken(token)
  const hit = cache?.get(hash, now)
  // The idle bounds still apply to the cached row; a session due for its last_seen_at write goes to the database.
  if (hit && now < hit.expiresAt && now - hit.lastSeenAt < SESSION_TOUCH_INTERVAL_MS) return hit.auth
  // This process's own touch of the session, still on its way: its row is read after it.
  await touches.get(hash)
  const readEpoch = epoch
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
    .where('s.token_hash', '=', hash)
    .executeTakeFirst()
  if (!row) return refused()
  if (row.status === AccountStatus.Banned) return refused(messages.accountBanned)
  if (row.status === AccountStatus.Deleted) return refused(messages.accountDeleted)
  if (row.status !== AccountStatus.Normal) return refused()
  // Revoked: a logout, a password change or reset, the live-session cap — which one is not kept.
  if (row.revoked_at !== null) return refused(messages.sessionEnded)
  // Both bounds: expires_at is the stored deadline, last_seen_at the idle clock it derives from.
  if (now >= row.expires_at || now - row.last_seen_at >= SESSION_IDLE_MS) return refused(messages.sessionExpired)

  let lastSeenAt = row.last_seen_at
  let expiresAt = row.expires_at
  if (now - row.last_seen_at >= SESSION_TOUCH_INTERVAL_MS) {
    // Not awaited: on SQLite a write waits for another connection's open transaction (a sync's batch
    // in the sync thread, up to ~0.5 s at 2 M records), and the request has no need to. A touch that
    // fails leaves the session as it was, and the next one after the interval tries again.
    const touch = db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: now + SESSION_IDLE_MS })
      .where('id', '=', row.sessionId)
      .where('revoked_at', 'is', null)
      .execute()
      .catch(() => {})
      .finally(() => touches.delete(hash))
    touches.set(hash, touch)
    lastSeenAt = now
    expiresAt = now + SESSION_IDLE_MS
  }
  const auth: Authenticated = {
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
  // Not when a revocation or user change happened meanwhile: the row may predate it.
  cache?.set(hash, { epoch: readEpoch, readAt: now, lastSeenAt, expiresAt, auth })
  return auth
}

/** Ends one session. False when it had ended already (a second logout with the same token, sent at once). */
export async function revokeSession(db: Kysely<DB>, sessionId: number, now: number): Promise<boolean> {
  forgetSessions()
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  forgetSessions()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Ends every live session of a user (ban, delete, password reset) but `exceptSessionId` (a password
 * change keeps the caller's own), and every device key of the user (auth/device-keys.ts), the caller's
 * included: a key must not outlive the password it was earned with, nor let a banned or deleted
 * account's devices pass the account-wide login lock. Returns how many sessions were ended. Inside a
 * transaction, the caller forgets sessions again once it committed (registerEndpoint and usersTransaction do).
 */
export async function revokeUserSessions(db: Kysely<DB>, userId: number, now: number, exceptSessionId?: number): Promise<number> {
  forgetSessions()
  let update = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId)
  if (exceptSessionId !== undefined) update = update.where('id', '<>', exceptSessionId)
  const result = await update.where('revoked_at', 'is', null).executeTakeFirst()
  await db.deleteFrom('device_keys').where('user_id', '=', userId).execute()
  forgetSessions()
  return Number(result.numUpdatedRows)
}

/** How often a running app prunes sessions (app.ts), besides once at start: a server runs for months. */
export const SESSION_PRUNE_INTERVAL_MS = 3600_000

/** How long an ended session is kept to tell its holder why it ended (checkSession): a console opened monthly. */
export const ENDED_SESSION_KEEP_MS = 30 * 24 * 3600_000
/** A session revoked while its account is in good standing (logouts, password changes) is kept a day only. */
export const REVOKED_SESSION_KEEP_MS = 24 * 3600_000

/**
 * Deletes ended sessions: they can never be used again, and are read only to say why they ended. Kept
 * ENDED_SESSION_KEEP_MS past their idle deadline (at most MAX_LIVE_SESSIONS a user per idle time) — but a revoked
 * one of an account in good standing a day only: a user looping logins and logouts leaves an ended session per loop.
 */
export async function pruneSessions(db: Kysely<DB>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', now - ENDED_SESSION_KEEP_MS),
        eb.and([
          eb('revoked_at', '<', now - REVOKED_SESSION_KEEP_MS),
          eb('user_id', 'in', eb.selectFrom('users').select('id').where('status', '=', AccountStatus.Normal)),
        ]),
      ]),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
