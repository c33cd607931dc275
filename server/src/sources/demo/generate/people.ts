/** The demo site's lists (teams, categories, tags), its users, and our members and admins among them. */
import { bulkInsert, type BulkRow } from '../../../db/bulk'
import { demoCategories, demoTags, demoTeams, officialDemoTags, username } from '../names'
import type { Prng } from '../prng'
import { DAY, FIRST_SITE_UID, type GenerateContext, type MemberDraft, YEAR } from './context'
import { mirrorBulkColumns, mirrorBulkRow, ownColumns } from './sink'

/** Writes the teams, categories and tags; returns the ids of the official tags. */
export async function writeLists({ database }: GenerateContext): Promise<Set<number>> {
  await bulkInsert(
    database,
    'site_teams',
    mirrorBulkColumns.site_teams,
    demoTeams.map((t, i) => mirrorBulkRow('site_teams', { id: i + 1, name: t.name, sort_index: i })),
  )
  await bulkInsert(
    database,
    'site_categories',
    mirrorBulkColumns.site_categories,
    demoCategories.map((c, i) => mirrorBulkRow('site_categories', { id: 401 + i, name: c.name, sort_index: i })),
  )
  await bulkInsert(
    database,
    'site_tags',
    mirrorBulkColumns.site_tags,
    demoTags.map((name, i) => mirrorBulkRow('site_tags', { id: i + 1, name, sort_index: i })),
  )
  return new Set(officialDemoTags.map((name) => demoTags.indexOf(name) + 1))
}

/** Writes the site's users (usernames unique regardless of case; `admin` is ours already); returns their names. */
export async function writeSiteUsers({ options, rng, sink, counts }: GenerateContext): Promise<string[]> {
  const { scale, now } = options
  const used = new Set<string>(['admin'])
  const siteNames: string[] = []
  for (let i = 0; i < scale.siteUsers; i++) {
    let name = username(rng)
    while (used.has(name.toLowerCase())) name = `${username(rng)}${rng.int(1, 9999)}`
    used.add(name.toLowerCase())
    siteNames.push(name)
    const added = now - Math.round(rng.next() ** 0.7 * 8 * YEAR)
    const lastAccess = now - Math.round(rng.next() ** 3 * 200 * DAY)
    await sink.addMirror('site_users', {
      id: FIRST_SITE_UID + i,
      username: name,
      class: rng.pick([1, 1, 2, 3, 4, 5, 6]),
      enabled: rng.chance(0.97) ? 1 : 0,
      status: 'confirmed',
      added,
      last_access: lastAccess,
    })
  }
  await sink.flushMirror('site_users')
  counts.siteUsers = scale.siteUsers
  return siteNames
}

/** Writes our members and admins, each a distinct site user; returns them with their user ids. */
export async function writeMembers(
  { database, options, rng, counts }: GenerateContext,
  siteNames: readonly string[],
): Promise<MemberDraft[]> {
  const { scale, now } = options
  const memberCount = scale.members + scale.extraAdmins
  const siteIndexes = shuffle(
    rng,
    Array.from({ length: scale.siteUsers }, (_, i) => i),
  ).slice(0, memberCount)
  const members: MemberDraft[] = []
  const userRows: BulkRow[] = []
  for (let i = 0; i < memberCount; i++) {
    const admin = i < scale.extraAdmins
    const siteIndex = siteIndexes[i]
    const name = siteNames[siteIndex]
    // A few banned and deleted members (at least one banned in any community of ten or more, so
    // the 无工资 status has someone to show it).
    const forcedBan = !admin && scale.members >= 10 && i === scale.extraAdmins + Math.floor(scale.members / 2)
    const status = admin ? 2 : forcedBan || rng.chance(0.03) ? 0 : rng.chance(0.015) ? 1 : 2
    const joined = now - Math.round((0.05 + rng.next() * 0.95) * 2 * YEAR)
    const lastLogin = rng.chance(0.75) ? now - Math.round(rng.next() ** 2 * 30 * DAY) : null
    userRows.push([
      name,
      name.toLowerCase(),
      admin ? options.adminPasswordHashes[i] : options.memberPasswordHash,
      admin ? 'admin' : 'normal',
      status,
      FIRST_SITE_UID + siteIndex,
      admin ? '保种组管理员' : rng.chance(0.1) ? rng.pick(['盒子用户', '家宽', '长期保种', '新人']) : '',
      joined,
      admin ? joined : null,
      lastLogin,
      joined,
    ])
    members.push({
      userId: 0, // known after the insert
      siteUid: FIRST_SITE_UID + siteIndex,
      records: Math.max(10, Math.round(rng.logNormal(scale.recordsPerMember * 0.75, 0.75))),
      seedRate: 0.15 + rng.next() * 0.7,
      claimRate: 0.3 + rng.next() * 0.5,
      uploader: rng.chance(0.12),
    })
  }
  await bulkInsert(database, 'users', ownColumns.users, userRows)
  const ids = await database.db.selectFrom('users').select(['id', 'site_uid']).where('site_uid', 'is not', null).execute()
  const idBySiteUid = new Map(ids.map((row) => [row.site_uid, row.id]))
  for (const m of members) m.userId = idBySiteUid.get(m.siteUid)!
  counts.members = scale.members
  counts.admins = scale.extraAdmins
  return members
}

function shuffle<T>(rng: Prng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[items[i], items[j]] = [items[j], items[i]]
  }
  return items
}
