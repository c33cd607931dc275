/** The operation log of `/api/v1/operation-log` (操作日志). */
import type { OperationLog } from '@shared/entities'
import { pagedRequest, type TableData, type TableParams, type TableSort } from './request'

// POST /operation-log/page — filters operatorId, action, from, to (ISO).
export function pageOperationLog(params: TableParams, sort?: TableSort | null): Promise<TableData<OperationLog>> {
  return pagedRequest('operationLog.page', params, sort)
}
