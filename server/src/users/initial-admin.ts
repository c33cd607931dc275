/**
 * First start: when there is no user at all, create `admin` so that someone can log in. The
 * password is ADMIN_PASSWORD, or a random one shown once on the console (never in the log).
 */
import { sql } from 'kysely'
import type { AppDatabase } from '../db/database'
import { hashPassword, randomPassword, type ScryptParams } from '../auth/password'
import { OperationAction, recordOperation } from '../operation-log/record'

export const INITIAL_ADMIN_USERNAME = 'admin'

export interface InitialAdminResult {
  created: boolean
  /** Set only when the password was generated (so it must be shown). */
  generatedPassword?: string
}

export async function ensureInitialAdmin(
  { db }: AppDatabase,
  options: { password?: string; scrypt?: ScryptParams; now: number },
): Promise<InitialAdminResult> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst()
  if (any) return { created: false }

  const generatedPassword = options.password === undefined ? randomPassword(16) : undefined
  const passwordHash = await hashPassword(options.password ?? generatedPassword!, options.scrypt)
  const now = options.now

  return db.transaction().execute(async (trx) => {
    // One statement that inserts only into an empty table, and yields to a concurrent insert of
    // `admin` (unique username_lower): two processes starting together create one admin.
    const inserted = await trx
      .insertInto('users')
      .columns(['username', 'username_lower', 'password_hash', 'role', 'status', 'created_at', 'admin_since', 'updated_at'])
      .expression(
        trx
          .selectNoFrom([
            sql.lit(INITIAL_ADMIN_USERNAME).as('username'),
            sql.lit(INITIAL_ADMIN_USERNAME).as('username_lower'),
            sql.val(passwordHash).as('password_hash'),
            sql.lit('admin').as('role'),
            sql.lit(2).as('status'),
            // PostgreSQL types a bare parameter in a select list as text; say what it is.
            sql<number>`cast(${now} as bigint)`.as('created_at'),
            sql<number>`cast(${now} as bigint)`.as('admin_since'),
            sql<number>`cast(${now} as bigint)`.as('updated_at'),
          ])
          .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('id')))),
      )
      .onConflict((oc) => oc.column('username_lower').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return { created: false }
    await recordOperation(
      trx,
      {
        operator: null,
        action: OperationAction.CreateInitialAdmin,
        targetType: 'user',
        targetId: inserted.id,
        detail: '首次启动创建管理员 admin',
      },
      now,
    )
    return { created: true, generatedPassword }
  })
}

/** The one console line that shows a generated password. */
export function initialAdminPasswordLine(password: string): string {
  return `初始管理员 ${INITIAL_ADMIN_USERNAME} 的密码：${password} (initial admin password)`
}
