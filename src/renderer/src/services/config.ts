/** Official-torrent rules of `/api/v1/config/rules` (官种设置). */
import type { RuleSave, Rules } from '@shared/entities'
import { request, type RequestOptions } from './request'

// GET /config/rules — the current version.
export function getRules(options?: RequestOptions): Promise<Rules> {
  return request('config.rules', undefined, options)
}

// POST /config/rules — each save is a new version; with `baseVersion`, refused when another was saved since.
export function saveRules(body: RuleSave, options?: RequestOptions): Promise<Rules> {
  return request('config.saveRules', body, options)
}
