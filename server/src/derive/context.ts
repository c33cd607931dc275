/** What every step of one derivation pass shares: the connection, the sync time and the rules. */
import type { Kysely } from 'kysely'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { siteAccountsMirrored } from '../domain/site-accounts'
import { GIB, type Rules } from '../rules/rules'

export interface PassContext {
  db: Kysely<DB>
  dialect: DialectName
  /** The sync time: "active" is judged against it, never against the server clock (peers' times are the site's). */
  now: number
  /** Peers with last_action ≥ since are active. */
  since: number
  rules: Rules
  minSizeBytes: number
  /** Site ids of the rules' official teams and tags (rules name them; the mirror numbers them). */
  officialTeamIds: number[]
  officialTagIds: number[]
  /** A member without a site_users row counts as deleted on the site (domain/site-accounts.ts). */
  siteAccountsMirrored: boolean
}

/**
 * Site ids (ascending) of the rules' official teams and tags: the rules name them, the mirror numbers them. Names are
 * matched trimmed: the rules hold them trimmed (entities.ts), while a site's staff may have typed `CedarHD ` — and
 * /site/options offers it so. A site has tens of teams and tags: all are read and matched here.
 */
export async function officialSiteIds(
  db: Kysely<DB>,
  rules: Pick<Rules, 'officialTeams' | 'officialTags'>,
): Promise<{ teams: number[]; tags: number[] }> {
  const named = async (table: 'site_teams' | 'site_tags', wanted: string[]) => {
    if (wanted.length === 0) return []
    const names = new Set(wanted.map((name) => name.trim()))
    const rows = await db.selectFrom(table).select(['id', 'name']).orderBy('id').execute()
    return rows.filter((row) => names.has(row.name.trim())).map((row) => row.id)
  }
  const [teams, tags] = await Promise.all([named('site_teams', rules.officialTeams), named('site_tags', rules.officialTags)])
  return { teams, tags }
}

export async function passContext(db: Kysely<DB>, dialect: DialectName, now: number, rules: Rules): Promise<PassContext> {
  const [official, mirrored] = await Promise.all([officialSiteIds(db, rules), siteAccountsMirrored(db)])
  return {
    db,
    dialect,
    now,
    since: activeSince(now, rules),
    rules,
    minSizeBytes: Math.ceil(rules.minSizeGiB * GIB),
    officialTeamIds: official.teams,
    officialTagIds: official.tags,
    siteAccountsMirrored: mirrored,
  }
}

export function activeSince(now: number, rules: Pick<Rules, 'activeWindowMinutes'>): number {
  return now - rules.activeWindowMinutes * 60_000
}
