/**
 * The bench site's plan: which users are members and what ties the rows of the different tables
 * together (a torrent's team and counters, a snatch's peer and claim), from a seeded PRNG, so the
 * generator can write each table in one pass.
 */
import { Prng, WeightedPicker } from '../server/src/sources/demo/prng'
import { demoCategories, demoTags, demoTeams, NO_TEAM_WEIGHT, sizeProfile, type TorrentKind } from '../server/src/sources/demo/names'
import { officialTagNames, SEED, SITE } from './nexusphp-data'

/** Share of the snatches that are the members' (the part of the site the sync is about). */
const MEMBER_SNATCH_SHARE = 0.85

export const HOUR = 3600
export const DAY = 86400
export const YEAR = 365 * DAY

export interface Site {
  memberUids: Int32Array
  isMember: Uint8Array
  // torrents, index = id - 1
  tTeam: Uint8Array
  tKind: Uint8Array
  tCategory: Uint16Array
  tSizeGiB: Float64Array
  tAddedAgo: Int32Array
  tOwner: Int32Array
  tTag1: Uint8Array
  tTag2: Uint8Array
  tOfficial: Uint8Array
  tSeeders: Int32Array
  tLeechers: Int32Array
  tCompleted: Int32Array
  // snatches in id order (index = id - 1)
  sTorrent: Int32Array
  sUser: Int32Array
  sStartAgo: Int32Array
  /** Peer index + 1, or 0. */
  sPeer: Int32Array
  sFinished: Uint8Array
  /** Seconds before @base of last_action; -1 = NULL. */
  sLastAgo: Int32Array
  // peers in id order: the snatch they belong to
  pSnatch: Int32Array
  pSeeder: Uint8Array
  pLastAgo: Int32Array
  // claims in id order: the snatch they belong to
  cSnatch: Int32Array
}

export const kinds: TorrentKind[] = ['movie', 'tv', 'documentary', 'anime', 'music', 'variety', 'sports']

/** Everything that ties rows of different tables together, in typed arrays (~60 MB at full size). */
export function planSite(): Site {
  const rng = new Prng(`${SEED}:plan`)
  const U = SITE.siteUsers
  const T = SITE.torrents
  const S = SITE.snatched

  // ---- members: 2,000 distinct site users
  const uids = Int32Array.from({ length: U }, (_, i) => i + 1)
  for (let i = U - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    const t = uids[i]
    uids[i] = uids[j]
    uids[j] = t
  }
  const memberUids = uids.slice(0, SITE.members).sort()
  const isMember = new Uint8Array(U + 1)
  for (const uid of memberUids) isMember[uid] = 1

  // ---- torrents (ids in upload order: a higher id is newer)
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const tTeam = new Uint8Array(T)
  const tKind = new Uint8Array(T)
  const tCategory = new Uint16Array(T)
  const tSizeGiB = new Float64Array(T)
  const tAddedAgo = new Int32Array(T)
  const tOwner = new Int32Array(T)
  const tTag1 = new Uint8Array(T)
  const tTag2 = new Uint8Array(T)
  const tOfficial = new Uint8Array(T)
  const officialTag = demoTags.indexOf(officialTagNames[0]) + 1
  for (let i = 0; i < T; i++) {
    const teamIndex = teamPicker.pick(rng)
    const team = teamIndex < demoTeams.length ? demoTeams[teamIndex] : null
    const kind = team ? rng.pick(team.kinds) : rng.pick(kinds)
    tTeam[i] = team ? teamIndex + 1 : 0
    tKind[i] = kinds.indexOf(kind)
    tCategory[i] = 401 + demoCategories.findIndex((c) => c.kind === kind)
    const profile = sizeProfile[kind]
    tSizeGiB[i] = Math.min(80, Math.max(0.2, rng.logNormal(profile.medianGiB, profile.sigma)))
    tAddedAgo[i] = Math.max(600, Math.round((1 - i / T) * 3 * YEAR + (rng.next() - 0.5) * DAY))
    tOwner[i] = rng.chance(0.06) ? memberUids[rng.int(0, memberUids.length - 1)] : rng.int(1, U)
    // Tags: the official tag on half the official teams' releases and on a few others.
    const tags = new Set<number>()
    if (team?.official ? rng.chance(0.5) : rng.chance(0.03)) tags.add(officialTag)
    const more = rng.chance(0.3) ? (rng.chance(0.2) ? 2 : 1) : 0
    while (tags.size < Math.min(2, more + (tags.has(officialTag) ? 1 : 0))) tags.add(rng.int(1, demoTags.length))
    const list = [...tags]
    tTag1[i] = list[0] ?? 0
    tTag2[i] = list[1] ?? 0
    tOfficial[i] = team?.official || tags.has(officialTag) ? 1 : 0
  }
  const officialIds: number[] = []
  for (let i = T - 1; i >= 0; i--) if (tOfficial[i]) officialIds.push(i + 1) // newest first

  // ---- snatches: how many per user (exactly SITE.snatched in all), then distinct torrents each
  const memberTotal = Math.round(S * MEMBER_SNATCH_SHARE)
  const perUser = new Int32Array(U + 1)
  const allocate = (users: ArrayLike<number>, total: number, sigma: number) => {
    const weights = Array.from(users, () => rng.logNormal(1, sigma))
    const sum = weights.reduce((a, b) => a + b, 0)
    let given = 0
    for (let i = 0; i < users.length; i++) {
      perUser[users[i]] = Math.min(8_000, Math.max(1, Math.round((weights[i] / sum) * total)))
      given += perUser[users[i]]
    }
    while (given !== total) {
      const uid = users[rng.int(0, users.length - 1)]
      const step = given < total ? 1 : -1
      if (perUser[uid] + step < 1 || perUser[uid] + step > 8_000) continue
      perUser[uid] += step
      given += step
    }
  }
  allocate(memberUids, memberTotal, 0.8)
  allocate(uids.slice(SITE.members), S - memberTotal, 1.2)

  const rawTorrent = new Int32Array(S)
  const rawUser = new Int32Array(S)
  const rawStartAgo = new Int32Array(S)
  let n = 0
  const taken = new Set<number>()
  for (let uid = 1; uid <= U; uid++) {
    taken.clear()
    const member = isMember[uid] === 1
    for (let k = 0; k < perUser[uid]; k++) {
      let id = 0
      for (let attempt = 0; attempt < 64 && (id === 0 || taken.has(id)); attempt++) {
        // Members keep the team's releases; everyone prefers new torrents.
        id =
          member && rng.chance(0.45)
            ? officialIds[Math.floor(rng.next() ** 1.3 * officialIds.length)]
            : T - Math.floor(rng.next() ** 1.6 * T)
      }
      while (taken.has(id)) id = (id % T) + 1
      taken.add(id)
      rawTorrent[n] = id
      rawUser[n] = uid
      // Most snatches come soon after the upload.
      rawStartAgo[n] = Math.max(60, Math.floor(tAddedAgo[id - 1] * (1 - rng.next() ** 3)))
      n++
    }
  }

  // ids in start order, like a real site's
  const order = Int32Array.from({ length: S }, (_, i) => i).sort((a, b) => rawStartAgo[b] - rawStartAgo[a] || a - b)
  const sTorrent = new Int32Array(S)
  const sUser = new Int32Array(S)
  const sStartAgo = new Int32Array(S)
  for (let i = 0; i < S; i++) {
    sTorrent[i] = rawTorrent[order[i]]
    sUser[i] = rawUser[order[i]]
    sStartAgo[i] = rawStartAgo[order[i]]
  }

  // ---- peers: exactly SITE.peers snatches still announcing, members' three times as likely
  const key = new Float64Array(S)
  for (let i = 0; i < S; i++) key[i] = rng.next() / (isMember[sUser[i]] ? 0.34 : 0.12)
  const byKey = Int32Array.from({ length: S }, (_, i) => i).sort((a, b) => key[a] - key[b])
  const isPeer = new Uint8Array(S)
  for (let i = 0; i < SITE.peers; i++) isPeer[byKey[i]] = 1

  const sPeer = new Int32Array(S)
  const sFinished = new Uint8Array(S)
  const sLastAgo = new Int32Array(S)
  const pSnatch = new Int32Array(SITE.peers)
  const pSeeder = new Uint8Array(SITE.peers)
  const pLastAgo = new Int32Array(SITE.peers)
  const tSeeders = new Int32Array(T)
  const tLeechers = new Int32Array(T)
  const tCompleted = new Int32Array(T)
  const claims: number[] = []
  let p = 0
  for (let i = 0; i < S; i++) {
    const t = sTorrent[i] - 1
    const member = isMember[sUser[i]] === 1
    if (isPeer[i]) {
      const seeder = rng.chance(member ? 0.86 : 0.7)
      const r = rng.next()
      // Active (within the 60-minute window), near its edge (ages out during the bench), or stale.
      let ago = r < 0.78 ? rng.int(5, 45 * 60) : r < 0.85 ? rng.int(45 * 60, 75 * 60) : rng.int(75 * 60, 14 * DAY)
      ago = Math.min(ago, sStartAgo[i])
      pSnatch[p] = i
      pSeeder[p] = seeder ? 1 : 0
      pLastAgo[p] = ago
      sPeer[i] = ++p
      sFinished[i] = seeder ? 1 : 0
      sLastAgo[i] = ago
      if (seeder) tSeeders[t]++
      else tLeechers[t]++
    } else {
      sFinished[i] = rng.chance(0.85) ? 1 : 0
      const floor = Math.min(75 * 60, sStartAgo[i])
      sLastAgo[i] = rng.chance(0.002) ? -1 : rng.int(floor, sStartAgo[i])
    }
    if (sFinished[i]) tCompleted[t]++
    if (rng.chance(member ? (tOfficial[t] ? 0.3 : 0.015) : tOfficial[t] ? 0.05 : 0)) claims.push(i)
  }
  return {
    memberUids,
    isMember,
    tTeam,
    tKind,
    tCategory,
    tSizeGiB,
    tAddedAgo,
    tOwner,
    tTag1,
    tTag2,
    tOfficial,
    tSeeders,
    tLeechers,
    tCompleted,
    sTorrent,
    sUser,
    sStartAgo,
    sPeer,
    sFinished,
    sLastAgo,
    pSnatch,
    pSeeder,
    pLastAgo,
    cSnatch: Int32Array.from(claims),
  }
}
