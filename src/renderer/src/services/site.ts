/** Lookups into the synced site data of `/api/v1/site` (member form, official-torrent rules). */
import type { SiteOptions, SiteUserOption } from '@shared/entities'
import { requestOr } from './request'

// GET /site/users?keyword= — up to 20 site users by name or uid; [] when it fails (the form still takes a typed uid).
export function siteUsers(keyword: string): Promise<SiteUserOption[]> {
  return requestOr('site.users', { keyword }, [] as SiteUserOption[], { silent: true })
}

export const emptySiteOptions: SiteOptions = { teams: [], tags: [] }

// GET /site/options — the site's team and tag names; empty lists when it fails (free typing still works).
export function siteOptions(): Promise<SiteOptions> {
  return requestOr('site.options', undefined, emptySiteOptions, { silent: true })
}
