/** POST /operation-log/page: newest first, filtered by operator, action and time range; user and torrent targets named. */
import type { Kysely } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { OperationLog } from '@shared/entities'
import { parseOrderBy } from '@shared/paging'
import type { DB } from '../db/schema'
import { toIso } from '../db/time'
import { offsetOf } from '../paging/order'
import { targetNames } from './target-names'

export type OperationLogQuery = ParsedInput<'operationLog.page'>

export async function pageOperationLog(db: Kysely<DB>, q: OperationLogQuery): Promise<{ list: OperationLog[]; total: number }> {
  let base = db.selectFrom('operation_log')
  if (q.operatorId !== undefined) base = base.where('operator_id', '=', q.operatorId)
  if (q.action !== undefined) base = base.where('action', '=', q.action)
  if (q.from !== undefined) base = base.where('at', '>=', Date.parse(q.from))
  if (q.to !== undefined) base = base.where('at', '<=', Date.parse(q.to))
  const direction = parseOrderBy(q.orderBy)?.direction === 'ASC' ? 'asc' : 'desc'
  const rows = await base
    .selectAll()
    .orderBy('at', direction)
    .orderBy('id', direction)
    .limit(q.pageSize)
    .offset(offsetOf(q.page, q.pageSize))
    .execute()
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const names = await targetNames(
    db,
    rows.map((r) => ({ targetType: r.target_type, targetId: r.target_id })),
  )
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      at: toIso(Number(r.at)),
      operatorId: r.operator_id === null ? null : Number(r.operator_id),
      operatorName: r.operator_name,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      targetName: names.get(`${r.target_type}:${r.target_id}`) ?? null,
      detail: r.detail,
      ip: r.ip,
    })),
    total: Number(counted.n),
  }
}
