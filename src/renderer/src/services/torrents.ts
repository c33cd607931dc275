/** Torrent calls of `/api/v1/torrent` (任务分配, 官种设置). */
import type { Torrent } from '@shared/entities'
import type { SeedType } from '@shared/enums'
import { pagedRequest, request, type RequestOptions, type TableData, type TableParams, type TableSort } from './request'

// POST /torrent/page — filters seedType, completion, assigned, name, team.
export function pageTorrents(params: TableParams, sort?: TableSort | null, options?: RequestOptions): Promise<TableData<Torrent>> {
  return pagedRequest('torrent.page', params, sort, options)
}

// POST /torrent/set-type — a manual seed type; null returns the torrents to the rules.
export function setTorrentType(ids: number[], seedType: SeedType | null, options?: RequestOptions): Promise<{ updated: number }> {
  return request('torrent.setType', { ids, seedType }, options)
}
