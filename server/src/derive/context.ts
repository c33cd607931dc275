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

export async function passContext(db: Kysely<DB>, dialect: DialectName, now: number, rules: Rules): Promise<PassContext> {
  const [teams, tags, mirrored] = await Promise.all([
    rules.officialTeams.length ? db.selectFrom('site_teams').select('id').where('name', 'in', rules.officialTeams).execute() : [],
    rules.officialTags.length ? db.selectFrom('site_tags').select('id').where('name', 'in', rules.officialTags).execute() : [],
    siteAccountsMirrored(db),
  ])
  return {
    db,
    dialect,
    now,
    since: activeSince(now, rules),
    rules,
    minSizeBytes: Math.ceil(rules.minSizeGiB * GIB),
    officialTeamIds: teams.map((t) => t.id),
    officialTagIds: tags.map((t) => t.id),
    siteAccountsMirrored: mirrored,
  }
}

export function activeSince(now: number, rules: Pick<Rules, 'activeWindowMinutes'>): number {
  return now - rules.activeWindowMinutes * 60_000
}
