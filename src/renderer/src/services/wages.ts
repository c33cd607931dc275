/** Wage calls of `/api/v1/wages`. */
import type { FileSaveResult } from '@shared/endpoints'
import type { WageDetail, WagePreviewEntry, WageRankEntry, WageRecord, WageStats } from '@shared/entities'
import { pagedRequest, request, type RequestOptions, type TableData, type TableParams, type TableSort } from './request'

export type WageExportFormat = 'xlsx' | 'csv'

// POST /wages/rank — `period` absent: the server's last computed month.
export function wageRank(params: TableParams, sort?: TableSort | null): Promise<TableData<WageRankEntry>> {
  return pagedRequest('wages.rank', params, sort)
}

// POST /wages/page — members are limited to their own records by the server.
export function wagePage(params: TableParams, sort?: TableSort | null): Promise<TableData<WageRecord>> {
  return pagedRequest('wages.page', params, sort)
}

// GET /wages/{id} — the record with its per-torrent items.
export function wageDetail(id: number, options?: RequestOptions): Promise<WageDetail> {
  return request('wages.detail', { id }, options)
}

// POST /wages/preview — nothing is saved; with `userId` that member's entry carries its items.
export function previewWages(
  period: string,
  userId?: number,
  options?: RequestOptions,
): Promise<{ ruleVersion: number; list: WagePreviewEntry[] }> {
  return request('wages.preview', userId === undefined ? { period } : { period, userId }, options)
}

// POST /wages/compute — saves the month (unpaid records replaced, paid ones kept).
export function computeWages(period: string): Promise<{ ruleVersion: number; saved: number; keptPaid: number }> {
  return request('wages.compute', { period })
}

// POST /wages/pay — 未发放 → 已发放, once per record; with the amounts shown, refused (409) when they changed since.
export function payWages(ids: number[], amounts?: number[]): Promise<{ paid: number; alreadyPaid: number }> {
  return request('wages.pay', amounts ? { ids, amounts } : { ids })
}

// GET /wages/stats
export function wageStats(months = 12, options?: RequestOptions): Promise<WageStats> {
  return request('wages.stats', { months }, options)
}

// GET /wages/export — main saves the file through a save dialog and answers `{ saved, fileName }`.
export function exportWages(period: string, format: WageExportFormat): Promise<FileSaveResult> {
  return request('wages.export', { period, format })
}
