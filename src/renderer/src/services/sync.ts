/** The sync job of `/api/v1/sync` (数据同步). */
import type { SyncStatus } from '@shared/entities'
import { request, type RequestOptions } from './request'

// GET /sync/status — source, running, progress, last runs, rows, last error.
export function syncStatus(options?: RequestOptions): Promise<SyncStatus> {
  return request('sync.status', undefined, options)
}

// POST /sync/run — starts one now (in the background); answers the status.
export function runSync(options?: RequestOptions): Promise<SyncStatus> {
  return request('sync.run', undefined, options)
}
