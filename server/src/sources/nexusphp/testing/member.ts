/** A member of the console bound to a site uid, as the connector tests need one (what an admin's 新增保种员 makes). */
import { AccountStatus } from '@shared/enums'
import type { AppDatabase } from '../../../db/database'

export async function addMember(db: AppDatabase, username: string, siteUid: number): Promise<number> {
  const now = Date.UTC(2025, 0, 1)
  const row = await db.db
    .insertInto('users')
    .values({
      username,
      username_lower: username,
      password_hash: 'x',
      role: 'normal',
      status: AccountStatus.Normal,
      site_uid: siteUid,
      created_at: now,
      admin_since: null,
      last_login_at: null,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
