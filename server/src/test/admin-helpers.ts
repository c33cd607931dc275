/** Checks shared by the admin-action tests: what an action can change, and the newest log row. */
import type { OperationLog } from '@shared/entities'
import type { TestAppHandle } from './harness'

/** Everything an admin action can change, for "nothing was written" checks. */
export async function snapshot(t: TestAppHandle) {
  const { db } = t.db.database
  return {
    users: await db
      .selectFrom('users')
      .select(['id', 'username', 'role', 'status', 'site_uid', 'remark', 'password_hash', 'admin_since'])
      .orderBy('id')
      .execute(),
    liveSessions: (await db.selectFrom('sessions').select('id').where('revoked_at', 'is', null).orderBy('id').execute()).map((r) => r.id),
    assignments: await db.selectFrom('assignments').select(['user_id', 'torrent_id']).orderBy('user_id').orderBy('torrent_id').execute(),
    overrides: await db.selectFrom('seed_type_overrides').select(['torrent_id', 'seed_type']).orderBy('torrent_id').execute(),
    ruleVersions: (await db.selectFrom('rule_versions').select('version').orderBy('version').execute()).map((r) => r.version),
    log: (
      await db.selectFrom('operation_log').select('id').where('action', 'not in', ['user.login', 'user.logout']).orderBy('id').execute()
    ).map((r) => r.id),
  }
}

export async function lastLog(t: TestAppHandle): Promise<OperationLog & { count: number }> {
  const { db } = t.db.database
  const row = await db.selectFrom('operation_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
  const count = await db
    .selectFrom('operation_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    detail: row.detail,
    ip: row.ip,
    count: Number(count.n),
  }
}
