/** The team and tag names of the synced site, for the official-torrent rules form. */
import { type Kysely, sql } from 'kysely'
import type { SiteOptions } from '@shared/entities'
import type { DB } from '../db/schema'

/** Names of a site_teams / site_tags table: distinct, in the site's order (sort_index, then name). */
async function names(db: Kysely<DB>, table: 'site_teams' | 'site_tags'): Promise<string[]> {
  const rows = await db
    .selectFrom(table)
    .select('name')
    .select((eb) => eb.fn.min('sort_index').as('sort_index'))
    .where(sql<boolean>`trim(name) <> ''`)
    .groupBy('name')
    .orderBy('sort_index')
    .orderBy('name')
    .execute()
  return rows.map((r) => r.name)
}

export async function siteOptions(db: Kysely<DB>): Promise<SiteOptions> {
  return { teams: await names(db, 'site_teams'), tags: await names(db, 'site_tags') }
}
