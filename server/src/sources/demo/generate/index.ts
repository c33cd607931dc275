/**
 * Generates the demo community into an empty mirror (plus our members, admins and assignments):
 * release groups and tags (some official), torrents with scene-style names, log-normal sizes and
 * ages over years, members with skewed activity, and their peers, snatches and claims. Everything
 * comes from one seeded PRNG, so the same seed and clock give the same community — which is why the
 * steps below run in a fixed order.
 *
 * Rows are produced member by member and flushed in bulk; the mirror's secondary indexes are
 * built once at the end (see db/bulk.ts).
 */
import { withDeferredIndexes } from '../../../db/bulk'
import type { AppDatabase } from '../../../db/database'
import { mirrorTables } from '../../mirror/columns'
import { demoTeams, officialDemoTags } from '../names'
import { Prng } from '../prng'
import type { GenerateContext, GeneratedCounts, GenerateOptions } from './context'
import { writeLists, writeMembers, writeSiteUsers } from './people'
import { ownColumns, Sink } from './sink'
import { writeTies } from './ties'
import { draftTorrents, writeTorrents } from './torrents'

export type { GeneratedCounts, GenerateOptions } from './context'

export async function generateCommunity(database: AppDatabase, options: GenerateOptions): Promise<GeneratedCounts> {
  return withDeferredIndexes(database, [...mirrorTables, 'assignments'], [], () => generate(database, options))
}

async function generate(database: AppDatabase, options: GenerateOptions): Promise<GeneratedCounts> {
  const ctx: GenerateContext = {
    database,
    options,
    rng: new Prng(options.seed),
    sink: new Sink(database),
    counts: { siteUsers: 0, members: 0, admins: 0, torrents: 0, officialCandidates: 0, peers: 0, snatches: 0, claims: 0, assignments: 0 },
  }
  const officialTagIds = await writeLists(ctx)
  const siteNames = await writeSiteUsers(ctx)
  const members = await writeMembers(ctx, siteNames)
  // Torrents are drafted now and written after the ties, which decide their seeders.
  const torrents = draftTorrents(ctx, members, officialTagIds)
  const ties = await writeTies(ctx, members, torrents)
  await writeTorrents(ctx, torrents, ties)
  for (const table of ['site_torrents', 'site_torrent_tags', 'site_peers', 'site_snatched', 'site_claims'] as const) {
    await ctx.sink.flushMirror(table)
  }
  await ctx.sink.flush('assignments', ownColumns.assignments)
  return ctx.counts
}

export const demoOfficialTeams = demoTeams.filter((t) => t.official).map((t) => t.name)
export { officialDemoTags }
