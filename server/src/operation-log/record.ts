/**
 * Writes one operation-log row. Call it with the same transaction as the change it describes, so
 * that the log and the data can never disagree.
 */
import type { Kysely } from 'kysely'
import type { OperationActionName } from '@shared/enums'
import type { DB } from '../db/schema'

/** Names for the contract's actions (`area.verb`, stable identifiers; Chinese labels: `operationActionLabels`). */
export const OperationAction = {
  Login: 'user.login',
  Logout: 'user.logout',
  CreateInitialAdmin: 'user.create-initial-admin',
  CreateUser: 'user.create',
  UpdateUser: 'user.update',
  SetUserStatus: 'user.set-status',
  ResetPassword: 'user.reset-password',
  ChangePassword: 'user.change-password',
  AddAdmin: 'config.add-admin',
  DelAdmin: 'config.del-admin',
  SaveRules: 'config.rules',
  SetSeedType: 'torrent.set-type',
  Assign: 'task.assign',
  Unassign: 'task.unassign',
  AutoAssign: 'task.auto-assign',
  ComputeWages: 'wages.compute',
  PayWages: 'wages.pay',
  Payout: 'wages.payout',
  ResolvePayout: 'wages.payout-resolve',
  RunSync: 'sync.run',
} as const satisfies Record<string, OperationActionName>
/** The contract's closed list: an action without a label there does not compile. */
export type OperationAction = OperationActionName

export interface OperationEntry {
  /** The acting user; null for the system itself. */
  operator: { id: number; username: string } | null
  action: OperationAction
  targetType: string
  targetId?: string | number | null
  /** Short human-readable detail; never secrets. */
  detail?: string
  ip?: string
}

export const SYSTEM_OPERATOR_NAME = 'system'

export async function recordOperation(db: Kysely<DB>, entry: OperationEntry, now: number): Promise<void> {
  await db
    .insertInto('operation_log')
    .values({
      at: now,
      operator_id: entry.operator?.id ?? null,
      operator_name: entry.operator?.username ?? SYSTEM_OPERATOR_NAME,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      detail: entry.detail ?? '',
      ip: entry.ip ?? '',
    })
    .execute()
}
