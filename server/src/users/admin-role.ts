/** The admin role: granting it, and taking it away without ever leaving no active admin. */
import type { User } from '@shared/entities'
import { roleLabels, AccountStatus } from '@shared/enums'
import { figuresChanged } from '../derive/relabel'
import { conflict } from '../errors'
import { OperationAction, recordOperation } from '../operation-log/record'
import { answerUser, type Ctx, lockedUser, userMessages, usersTransaction } from './admin-transaction'

export async function addAdmin(ctx: Ctx, userId: number): Promise<User> {
  await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, userId)
    if (before.role === 'admin') throw conflict(userMessages.alreadyAdmin)
    if (before.status !== AccountStatus.Normal) throw conflict(userMessages.adminNeedsActive)
    await trx.updateTable('users').set({ role: 'admin', admin_since: ctx.now, updated_at: ctx.now }).where('id', '=', before.id).execute()
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.AddAdmin,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username} 角色：${roleLabels.normal} → ${roleLabels.admin}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  // 首页 counts members by role.
  figuresChanged(ctx.services, ctx.now, ctx.log)
  return answerUser(ctx, userId)
}

export async function delAdmin(ctx: Ctx, userId: number): Promise<User> {
  await usersTransaction(ctx, async (trx) => {
    const before = await lockedUser(trx, userId)
    if (before.id === ctx.user.id) throw conflict(userMessages.notSelfAdmin)
    if (before.role !== 'admin') throw conflict(userMessages.notAdmin)
    // The guard and the update in one statement as well, so even without the lock no update can
    // leave zero active admins.
    const updated = await trx
      .updateTable('users')
      .set({ role: 'normal', admin_since: null, updated_at: ctx.now })
      .where('id', '=', before.id)
      .where('role', '=', 'admin')
      .where((eb) =>
        eb.or([
          eb('status', '<>', 2),
          eb(
            eb
              .selectFrom('users as a')
              .select((e) => e.fn.countAll().as('n'))
              .where('a.role', '=', 'admin')
              .where('a.status', '=', 2),
            '>',
            1,
          ),
        ]),
      )
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) throw conflict(userMessages.lastAdmin)
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.DelAdmin,
        targetType: 'user',
        targetId: before.id,
        detail: `${before.username} 角色：${roleLabels.admin} → ${roleLabels.normal}`,
        ip: ctx.ip,
      },
      ctx.now,
    )
  })
  // 首页 counts members by role.
  figuresChanged(ctx.services, ctx.now, ctx.log)
  return answerUser(ctx, userId)
}
