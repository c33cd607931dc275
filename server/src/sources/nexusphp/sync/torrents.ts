/**
 * Torrents that matter and their tags: official by the rules' teams and tags, owned by members,
 * referenced by members' rows or assignments. New ids every sync, and new tag rows; older ids that
 * became relevant later by a rolling sweep; torrents already mirrored are kept up to date by
 * torrent-refresh.ts. Torrents are always written with their tags.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../../db/schema'
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows } from '../reader'
import { chunks } from '../../../util/chunks'
import { officialSiteIds } from '../../../derive/context'
import { ScanGaps } from './gaps'
import type { SyncSession } from './session'

/**
 * Before the first torrent is read: new torrent_tags rows are those past the source's highest id
 * now. The rows up to it come with their torrents (tagsOf) — re-reading all of them afterwards
 * would read and write the site's whole tag table twice.
 */
export async function snapshotTagWatermark(s: SyncSession): Promise<void> {
  if (s.state.torrents.maxId !== 0 || s.state.torrentTags.maxId !== 0) return
  const rows = await s.source.query<{ m: number | null }>('SELECT MAX(id) AS m FROM torrent_tags', [], 'torrent_tags')
  s.state.torrentTags.maxId = Number(rows[0]?.m ?? 0)
}

/** Site ids of the rules' official teams and tags. */
const officialIds = (s: SyncSession) => officialSiteIds(s.db, s.ctx.rules)

/** Reads the torrent_tags of some torrents from the source. */
export async function tagsOf(
  s: SyncSession,
  torrentIds: readonly number[],
  connection = s.source,
): Promise<MirrorRows['site_torrent_tags'][]> {
  if (!torrentIds.length) return []
  return readMirrorRows(connection, s.schema, 'site_torrent_tags', `WHERE torrent_id IN (${intList(torrentIds)}) ORDER BY id`)
}

/** Reads torrents by id from the source: primary-key lookups, never a scan of the table (a v1.6 site's tracker would wait for it). */
export function torrentsById(s: SyncSession, ids: readonly number[], connection = s.source): Promise<MirrorRows['site_torrents'][]> {
  return readMirrorRows(connection, s.schema, 'site_torrents', `FORCE INDEX (PRIMARY) WHERE id IN (${intList(ids)}) ORDER BY id`)
}

/** Writes torrents with exactly the tags the source gave for them. */
export async function writeTorrents(
  s: SyncSession,
  trx: Kysely<DB>,
  torrents: MirrorRows['site_torrents'][],
  tags: MirrorRows['site_torrent_tags'][],
): Promise<void> {
  if (s.freshTorrents) {
    await s.insertFresh(trx, 'site_torrents', torrents)
    await s.insertFresh(trx, 'site_torrent_tags', tags)
  } else {
    await s.upsert(trx, 'site_torrents', torrents)
    await s.upsert(trx, 'site_torrent_tags', tags)
  }
  if (!torrents.length) return
  const seen = new Set(tags.map((t) => t.id))
  const stored = await trx
    .selectFrom('site_torrent_tags')
    .select('id')
    .where(
      'torrent_id',
      'in',
      torrents.map((t) => t.id),
    )
    .execute()
  await s.remove(
    trx,
    'site_torrent_tags',
    stored.map((r) => r.id).filter((id) => !seen.has(id)),
  )
}

/** The source condition of a torrent that matters by itself (official by rule, or a member's upload); null: none can. */
async function relevantTorrents(s: SyncSession, members: readonly number[]): Promise<string | null> {
  const official = await officialIds(s)
  const relevant = [
    official.teams.length ? `team IN (${intList(official.teams)})` : null,
    members.length ? `owner IN (${intList(members)})` : null,
    official.tags.length ? `id IN (SELECT torrent_id FROM torrent_tags WHERE tag_id IN (${intList(official.tags)}))` : null,
  ].filter(Boolean)
  return relevant.length ? relevant.join(' OR ') : null
}

/**
 * The relevant torrents in the source id window (after, upTo]: read as a primary-key range whatever the
 * optimizer would make of the OR (a small table it scans whole); a page may end before `upTo`.
 */
function relevantPage(s: SyncSession, relevant: string, after: number, upTo: number): Promise<MirrorRows['site_torrents'][]> {
  return readMirrorRows(
    s.source,
    s.schema,
    'site_torrents',
    `FORCE INDEX (PRIMARY) WHERE id > ? AND id <= ? AND (${relevant}) ORDER BY id LIMIT ${s.tuning.pageRows}`,
    [after, upTo],
  )
}

/**
 * Torrents with ids past the watermark that are official by rule or owned by a member. When the
 * rules' official teams or tags change, the scan starts over from the first id.
 */
export async function syncNewTorrents(s: SyncSession, members: readonly number[]): Promise<void> {
  const state = s.state.torrents
  const key = JSON.stringify(await officialIds(s))
  if (key !== state.officialKey) {
    state.officialKey = key
    state.maxId = 0
    state.sweepAfter = 0
  }
  const relevant = await relevantTorrents(s, members)
  if (!relevant) return
  // Id windows up to the source's highest id (short statements where the tracker waits for them).
  const end = await s.sourceMaxId('torrents')
  // Windows skip the ids the table does not have (gaps.ts).
  const gaps = new ScanGaps(s, 'torrents', end)
  state.maxId = await gaps.start(state.maxId)
  let read = 0
  for (let later = false; state.maxId < end; later = true) {
    const upTo = Math.min(end, state.maxId + s.span('torrents', later))
    const torrents = await s.timed('torrents', relevantPage(s, relevant, state.maxId, upTo))
    read += torrents.length
    s.progress('site_torrents', read)
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    state.maxId = torrents.length === s.tuning.pageRows ? torrents[torrents.length - 1].id : await gaps.next(upTo, torrents.length > 0)
    // An empty window only moves the watermark: it is recorded with the next page.
    if (torrents.length || state.maxId >= end) await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
  }
}

/**
 * Torrents below the watermark that became relevant after it passed them: NexusPHP's edit page
 * (takeedit.php) moves a torrent into an official team with an UPDATE that leaves last_action and
 * the id alone, so neither the new-ids scan nor the changed-torrents pass (mirrored torrents only)
 * ever sees it. A rolling sweep of the source's ids up to the watermark, a slice per sync (the whole
 * table in as many syncs as the rolling refresh takes), brings in the relevant ones the mirror lacks.
 */
export async function sweepOldTorrents(s: SyncSession, members: readonly number[]): Promise<void> {
  const state = s.state.torrents
  const relevant = await relevantTorrents(s, members)
  if (!relevant || state.maxId === 0) return
  const syncs = s.schema.torrents.has('last_action') ? s.tuning.slowRefreshSyncs : s.tuning.refreshSyncs
  const end = Math.min(state.maxId, state.sweepAfter + Math.max(s.tuning.idChunk, Math.ceil(state.maxId / syncs)))
  let read = 0
  for (let later = false; state.sweepAfter < end; later = true) {
    const upTo = Math.min(end, state.sweepAfter + s.span('torrents', later))
    const rows = await s.timed('torrents', relevantPage(s, relevant, state.sweepAfter, upTo))
    const mirrored = await s.mirroredTorrents(rows.map((t) => t.id))
    const torrents = rows.filter((t) => !mirrored.has(t.id))
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    read += torrents.length
    s.progress('site_torrents', read)
    const reached = rows.length === s.tuning.pageRows ? rows[rows.length - 1].id : upTo
    // Wrap around after the watermark.
    state.sweepAfter = reached >= state.maxId ? 0 : reached
    const last = state.sweepAfter === 0 || reached >= end
    // A window with nothing to write only moves the cursor: it is recorded with the next page.
    if (torrents.length || last) await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
    if (last) return
  }
}

/**
 * Fetches by id the torrents that members' rows or assignments point at and the mirror lacks. When
 * the previous sync got this far, only the rows written in this sync can point at a missing torrent
 * (torrents leave with their rows): those are looked up by id; otherwise all the mirror's rows.
 */
export async function syncReferencedTorrents(s: SyncSession, incremental: boolean): Promise<void> {
  const assigned = await sql<{
    id: number
  }>`select torrent_id as id from assignments x where not exists (select 1 from site_torrents t where t.id = x.torrent_id)`.execute(s.db)
  const missing = new Set(assigned.rows.map((r) => Number(r.id)))
  if (incremental) {
    const referenced = [...s.referenced]
    const found = await s.mirroredTorrents(referenced)
    for (const id of referenced) if (!found.has(id)) missing.add(id)
  } else {
    const { rows } = await sql<{
      id: number
    }>`select torrent as id from site_peers x where not exists (select 1 from site_torrents t where t.id = x.torrent)
      union select torrentid from site_snatched x where not exists (select 1 from site_torrents t where t.id = x.torrentid)
      union select torrent_id from site_claims x where not exists (select 1 from site_torrents t where t.id = x.torrent_id)`.execute(s.db)
    for (const r of rows) missing.add(Number(r.id))
  }
  const parts = chunks(
    [...missing].sort((a, b) => a - b),
    s.lookupChunk('torrents'),
  )
  const fetch = async (ids: readonly number[]) => {
    const torrents = await torrentsById(s, ids)
    return {
      torrents,
      tags: await tagsOf(
        s,
        torrents.map((t) => t.id),
      ),
    }
  }
  let read = 0
  // The source reads the next part while this one is written.
  let next = parts.length ? fetch(parts[0]) : null
  for (let i = 0; next; i++) {
    const { torrents, tags } = await next
    next = i + 1 < parts.length ? fetch(parts[i + 1]) : null
    next?.catch(() => {})
    read += torrents.length
    s.progress('site_torrents', read, missing.size)
    await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
  }
  s.state.torrents.referencedChecked = true
  await s.commit(async () => {})
}

export function newTagsPage(s: SyncSession, connection: NexusphpConnection, afterId: number) {
  return readMirrorRows(connection, s.schema, 'site_torrent_tags', `WHERE id > ? ORDER BY id LIMIT ${s.tuning.pageRows}`, [afterId])
}

/** New torrent_tags rows: kept when their torrent is mirrored; an official tag brings its torrent in. */
export async function syncNewTorrentTags(s: SyncSession): Promise<void> {
  const state = s.state.torrentTags
  const officialTags = new Set((await officialIds(s)).tags)
  let read = 0
  for (;;) {
    const rows = await newTagsPage(s, s.source, state.maxId)
    read += rows.length
    s.progress('site_torrent_tags', read)
    if (!rows.length) return
    const mirrored = await s.mirroredTorrents([...new Set(rows.map((r) => r.torrent_id))])
    const missingOfficial = [
      ...new Set(rows.filter((r) => !mirrored.has(r.torrent_id) && officialTags.has(r.tag_id)).map((r) => r.torrent_id)),
    ]
    const torrents: MirrorRows['site_torrents'][] = []
    for (const ids of chunks(missingOfficial, s.lookupChunk('torrents'))) torrents.push(...(await torrentsById(s, ids)))
    const fullTags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    const fetched = new Set(torrents.map((t) => t.id))
    const keep = rows.filter((r) => mirrored.has(r.torrent_id) && !fetched.has(r.torrent_id))
    state.maxId = rows[rows.length - 1].id
    await s.commit(async (trx) => {
      await writeTorrents(s, trx, torrents, fullTags)
      if (s.freshTorrents) await s.insertFresh(trx, 'site_torrent_tags', keep)
      else await s.upsert(trx, 'site_torrent_tags', keep)
    })
    if (rows.length < s.tuning.pageRows) return
  }
}
