/**
 * Checks a username and password and opens a session. Unknown, deleted and wrong-password logins
 * look the same from outside (message and timing); only a correct password of a banned account
 * learns that it is banned.
 */
import { messages } from '@shared/messages'
import type { LoginInput } from '@shared/endpoints'
import { AppError } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import type { AppServices } from '../services'
import { usernameKey } from '../users/username'
import { dummyVerify, hashPassword, needsRehash, verifyPassword } from './password'
import { createSession, type SessionMeta } from './sessions'

export async function login(services: AppServices, input: LoginInput, meta: SessionMeta, now: number): Promise<string> {
  const { database, loginLimiter, scrypt } = services
  const db = database.db
  const key = usernameKey(input.username)

  const verdict = loginLimiter.check(key, meta.ip)
  if (!verdict.allowed) throw new AppError(429, messages.tooManyAttempts, { 'Retry-After': String(verdict.retryAfterSec) })

  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash', 'status'])
    .where('username_lower', '=', key)
    .executeTakeFirst()

  const live = user && user.status !== 1 // a deleted account is as good as unknown
  const passwordOk = live ? await verifyPassword(input.password, user.password_hash) : (await dummyVerify(input.password, scrypt), false)
  if (!live || !passwordOk) {
    loginLimiter.recordFailure(key, meta.ip)
    throw new AppError(401, messages.wrongCredentials)
  }
  if (user.status === 0) throw new AppError(403, messages.accountBanned)

  // Hash with the current cost when the stored one is older; the password is at hand only now.
  const rehash = needsRehash(user.password_hash, scrypt) ? await hashPassword(input.password, scrypt) : null

  const token = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set(rehash ? { last_login_at: now, password_hash: rehash } : { last_login_at: now })
      .where('id', '=', user.id)
      .execute()
    const created = await createSession(trx, user.id, meta, now)
    await recordOperation(
      trx,
      { operator: { id: user.id, username: user.username }, action: OperationAction.Login, targetType: 'user', targetId: user.id, ip: meta.ip },
      now,
    )
    return created
  })
  loginLimiter.recordSuccess(key, meta.ip)
  return token
}
