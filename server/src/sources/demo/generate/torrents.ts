/**
 * The demo's torrents: drafted first (team, kind, size, age, tags, popularity), written once the
 * members' ties are known, since those decide the seeder and leecher counts.
 */
import { GIB } from '../../../rules/rules'
import { demoCategories, demoTags, demoTeams, NO_TEAM_WEIGHT, sizeProfile, torrentName } from '../names'
import { WeightedPicker } from '../prng'
import { DAY, FIRST_SITE_UID, FIRST_TORRENT_ID, type GenerateContext, type MemberDraft, MIB, type TorrentDraft, YEAR } from './context'
import type { TieCounts } from './ties'

export function draftTorrents(
  { options, rng, counts }: GenerateContext,
  members: readonly MemberDraft[],
  officialTagIds: ReadonlySet<number>,
): TorrentDraft[] {
  const { scale, now } = options
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const uploaders = members.filter((m) => m.uploader)
  const torrents: TorrentDraft[] = []
  for (let i = 0; i < scale.torrents; i++) {
    const teamIndex = teamPicker.pick(rng)
    const team = teamIndex < demoTeams.length ? demoTeams[teamIndex] : null
    const kind = team ? rng.pick(team.kinds) : rng.pick(demoCategories).kind
    const profile = sizeProfile[kind]
    const size = Math.round(Math.min(80 * GIB, Math.max(200 * MIB, rng.logNormal(profile.medianGiB * GIB, profile.sigma))))
    // More releases lately: age skewed towards now, over six years.
    const added = now - Math.round(rng.next() ** 1.6 * 6 * YEAR) - rng.int(0, DAY)
    const tags: number[] = []
    if (!team && rng.chance(0.06)) tags.push(...officialTagIds)
    if (rng.chance(0.3)) tags.push(rng.int(2, 3))
    if (rng.chance(0.12)) tags.push(rng.int(4, demoTags.length))
    const uniqueTags = [...new Set(tags)]
    const official = size >= GIB && (Boolean(team?.official) || uniqueTags.some((t) => officialTagIds.has(t)))
    const owner = uploaders.length && rng.chance(0.05) ? rng.pick(uploaders).siteUid : FIRST_SITE_UID + rng.int(0, scale.siteUsers - 1)
    torrents.push({
      id: FIRST_TORRENT_ID + i,
      kind,
      category: 401 + demoCategories.findIndex((c) => c.kind === kind),
      team: team ? teamIndex + 1 : null,
      size,
      added,
      tags: uniqueTags,
      owner,
      official,
      // Popularity: heavy-tailed, and fresher torrents are wanted more.
      popularity: rng.logNormal(1, 1.1) * (1 + 2 * Math.exp(-(now - added) / YEAR)),
    })
  }
  counts.torrents = torrents.length
  counts.officialCandidates = torrents.filter((t) => t.official).length
  return torrents
}

/** Writes the torrents and their tags: member seeders and leechers plus some from outside. */
export async function writeTorrents({ rng, sink }: GenerateContext, torrents: readonly TorrentDraft[], ties: TieCounts): Promise<void> {
  let tagRowId = 1
  for (const [index, t] of torrents.entries()) {
    const outsideSeeders = Math.round(t.popularity * rng.next() * 12)
    const seeders = ties.seeders[index] + outsideSeeders
    const leechers = ties.leechers[index] + (rng.chance(0.15) ? rng.int(1, 6) : 0)
    await sink.addMirror('site_torrents', {
      id: t.id,
      info_hash: rng.hex(20),
      name: torrentName(
        rng,
        t.kind,
        new Date(t.added).getUTCFullYear() - (rng.chance(0.4) ? rng.int(0, 30) : 0),
        t.team ? demoTeams[t.team - 1].name : null,
      ),
      size: t.size,
      category: t.category,
      team: t.team,
      added: t.added,
      seeders,
      leechers,
      times_completed: seeders * rng.int(2, 6) + rng.int(0, 40),
      owner: t.owner,
      visible: 1,
      banned: 0,
    })
    for (const tag of t.tags) await sink.addMirror('site_torrent_tags', { id: tagRowId++, torrent_id: t.id, tag_id: tag })
  }
}
