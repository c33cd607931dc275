/**
 * Checks a username and password and opens a session. Unknown, deleted and wrong-password logins
 * look the same from outside (message and timing); only a correct password of a banned account
 * learns that it is banned. A login that opens a session also gives the client a new device key
 * (auth/device-keys.ts), which replaces the one it came with.
 */
import { AccountStatus } from '@shared/enums'
import type { Kysely } from 'kysely'
import { messages } from '@shared/messages'
import type { LoginInput } from '@shared/endpoints'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { AppError } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import type { AppServices } from '../services'
import { usernameKey } from '../users/username'
import { issueDeviceKey } from './device-keys'
import { accountLimitMessages, type AttemptTicket } from './login-limiter'
import { dummyVerify, hashPassword, needsRehash, verifyPassword } from './password'
import { createSession, forgetSessions, type SessionMeta } from './sessions'

/** What a successful login hands the client: the session's token and the device's new key. */
export interface LoginGrant {
  token: string
  deviceKey: string
}

/** `deviceKey`: the `Device-Key` request header, as sent (checked here). */
export async function login(
  services: AppServices,
  input: LoginInput,
  meta: SessionMeta,
  now: number,
  deviceKey?: string,
): Promise<LoginGrant> {
  const { loginLimiter } = services
  const key = usernameKey(input.username)

  // Counted before the (slow) hash, so parallel guesses cannot all be judged; refunded when right.
  const reservation = await loginLimiter.reserve(key, meta.ip, deviceKey)
  if (!reservation.allowed) {
    const msg = reservation.accountLocked ? accountLimitMessages.login : messages.tooManyAttempts
    throw new AppError(429, `${msg}${retryHint(reservation.retryAfterSec)}`, { 'Retry-After': String(reservation.retryAfterSec) })
  }
  const { ticket } = reservation
  const attempt: { verdict: 'wrong' | 'right' | 'unjudged' } = { verdict: 'unjudged' }
  try {
    return await judge(services, input, key, ticket, meta, now, (verdict) => (attempt.verdict = verdict))
  } finally {
    if (attempt.verdict === 'right') await loginLimiter.forgive(ticket)
    else if (attempt.verdict === 'unjudged') await loginLimiter.refund(ticket)
  }
}

/** How long to wait, for the person at the login form (the header is for programs). */
export const retryHint = (seconds: number) => `（约 ${seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`}后）`

async function judge(
  services: AppServices,
  input: LoginInput,
  key: string,
  ticket: AttemptTicket,
  meta: SessionMeta,
  now: number,
  judged: (verdict: 'wrong' | 'right') => void,
): Promise<LoginGrant> {
  const { database, scrypt } = services
  const db = database.db
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash', 'status'])
    .where('username_lower', '=', key)
    .executeTakeFirst()

  const live = user && user.status !== AccountStatus.Deleted // a deleted account is as good as unknown
  const passwordOk = live ? await verifyPassword(input.password, user.password_hash) : (await dummyVerify(input.password, scrypt), false)
  if (!live || !passwordOk) {
    judged('wrong')
    throw new AppError(401, messages.wrongCredentials)
  }
  judged('right')
  if (user.status === AccountStatus.Banned) throw new AppError(403, messages.accountBanned)

  // Hash with the current cost when the stored one is older; the password is at hand only now.
  const rehash = needsRehash(user.password_hash, scrypt) ? await hashPassword(input.password, scrypt) : null

  const grant = await db.transaction().execute(async (trx) => {
    // The password was checked outside any transaction (it takes ~70 ms). Re-read the row under a
    // lock: an admin's password reset, ban or delete that committed meanwhile ended every session,
    // so this one must not begin; one that comes after ends it (it waits for this lock).
    const current = await lockUser(trx, database.dialect, user.id)
    if (!current || current.password_hash !== user.password_hash) throw new AppError(401, messages.wrongCredentials)
    if (current.status === AccountStatus.Deleted) throw new AppError(401, messages.wrongCredentials)
    if (current.status === AccountStatus.Banned) throw new AppError(403, messages.accountBanned)
    await trx
      .updateTable('users')
      .set(rehash ? { last_login_at: now, password_hash: rehash } : { last_login_at: now })
      .where('id', '=', user.id)
      .execute()
    const token = await createSession(trx, user.id, meta, now)
    // In this transaction: a reset, ban or delete after it (waiting for the users lock) ends the key too.
    const deviceKey = await issueDeviceKey(trx, user.id, ticket.deviceKeyId, now)
    await recordOperation(
      trx,
      {
        operator: { id: user.id, username: user.username },
        action: OperationAction.Login,
        targetType: 'user',
        targetId: user.id,
        ip: meta.ip,
      },
      now,
    )
    return { token, deviceKey }
  })
  // Other sessions of this user answer the new last login time (user.info) at once.
  forgetSessions()
  return grant
}

/** The user's password hash and status, with the row locked until the transaction ends (SQLite: one writer at a time anyway). */
async function lockUser(trx: Kysely<DB>, dialect: DialectName, id: number) {
  const query = trx.selectFrom('users').select(['password_hash', 'status']).where('id', '=', id)
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()
}
