/** Seeding statistics of `/api/v1/statistics` (the dashboard reads them through useApi). */
import type { AllSeedingStats, UserSeedingStats } from '@shared/entities'
import { request, type RequestOptions } from './request'

// GET /statistics/all-seeding-sta — the team's figures, served from the server's cache.
export function allSeedingStats(options?: RequestOptions): Promise<AllSeedingStats> {
  return request('statistics.all', undefined, options)
}

// GET /statistics/refresh-index-statistics-cache — admins: recompute the cache now.
export function refreshStatistics(options?: RequestOptions): Promise<AllSeedingStats> {
  return request('statistics.refresh', undefined, options)
}

// GET /statistics/user-seeding-sta — without userId: the caller's own figures.
export function userSeedingStats(input?: { userId?: number; days?: number }, options?: RequestOptions): Promise<UserSeedingStats> {
  return request('statistics.user', input, options)
}
