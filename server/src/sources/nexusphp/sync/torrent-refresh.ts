/**
 * Keeping the mirrored torrents up to date: those whose `last_action` moved (when the source has the
 * column), those that can earn whose seeders or leechers moved (a third of them checked each sync), plus a rolling
 * refresh for edits and deletions (a 36th of the mirror's torrents per sync; a sixth without the
 * column), each with its torrent_tags; and, when the site's review rule changed, the torrents it
 * bans or frees (`settleTorrentReview`).
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../../db/schema'
import type { NexusphpConnection } from '../connection'
import { intList, MAX_COUNTER, readMirrorRows } from '../reader'
import { chunks } from '../../../util/chunks'
import { fromUnix, type SyncSession } from './session'
import { newTagsPage, tagsOf, torrentsById, writeTorrents } from './torrents'

/**
 * Re-reads a slice of the mirror's torrents (seeders, names, tags; torrents the site deleted go,
 * with their members' rows — NexusPHP deletes those with the torrent).
 */
export async function refreshTorrents(s: SyncSession): Promise<void> {
  const state = s.state.torrents
  await recheckReviewedTorrents(s)
  const tracked = s.schema.torrents.has('last_action')
  if (tracked) await syncChangedTorrents(s)
  await syncMovedSeeders(s)
  const { ids, slice } = await refreshSlice(s)
  let read = 0
  const parts = chunks(ids, s.lookupChunk('torrents'))
  for (const [i, part] of parts.entries()) {
    const torrents = await torrentsById(s, part)
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    read += part.length
    s.progress('site_torrents', read, ids.length)
    const found = new Set(torrents.map((t) => t.id))
    const gone = part.filter((id) => !found.has(id))
    // Wrap around after the last slice.
    state.refreshAfter = i === parts.length - 1 && ids.length < slice ? 0 : part[part.length - 1]
    await s.commit(async (trx) => {
      await writeTorrents(s, trx, torrents, tags)
      if (gone.length) await dropTorrents(s, trx, gone)
    })
  }
  if (!ids.length && state.refreshAfter !== 0) {
    state.refreshAfter = 0
    await s.commit(async () => {})
  }
}

/**
 * The mirror torrents the rolling refresh re-reads this sync (`slice` of them, or the rest up to the
 * end), settled when first asked (torrents this sync brings in were just read).
 */
function refreshSlice(s: SyncSession): Promise<{ ids: number[]; slice: number }> {
  return s.once('refresh slice', async () => {
    const tracked = s.schema.torrents.has('last_action')
    const total = Number((await sql<{ n: number }>`select count(*) as n from site_torrents`.execute(s.db)).rows[0].n)
    const slice = Math.max(s.tuning.idChunk, Math.ceil(total / (tracked ? s.tuning.slowRefreshSyncs : s.tuning.refreshSyncs)))
    const ids = (
      await s.db
        .selectFrom('site_torrents')
        .select('id')
        .where('id', '>', s.state.torrents.refreshAfter)
        .orderBy('id')
        .limit(slice)
        .execute()
    ).map((r) => r.id)
    return { ids, slice }
  })
}

/**
 * Mirror torrents whose source `last_action` moved since the last pass (the tracker touches it with the counters):
 * the mirror's ids looked up by primary key, a lookup's worth per statement, with the watermark — the site answers only
 * the rows of torrents the mirror holds that moved. (A scan of the site's torrents by id answered every torrent
 * announced anywhere on the site — NexusPHP moves last_action on each announce event — to be thrown away here.) The
 * first pass only sets the watermark (the import or the rolling refresh has just read them); name, tag, team and ban
 * edits that leave last_action alone, and deletions, come with the (slower) rolling refresh; the cleanup's recount of
 * seeders after dead peers are dropped (it updates the counts only) with syncMovedSeeders for the torrents that can earn.
 */
async function syncChangedTorrents(s: SyncSession): Promise<void> {
  const c = s.state.torrents.changed
  const from = changedTorrentsFrom(s)
  if (!from) {
    c.since = s.ctx.now
    return
  }
  if (c.startedAt === null) Object.assign(c, { startedAt: s.ctx.now, afterId: from.afterId })
  const { since } = from
  let read = 0
  for (;;) {
    const ids = await mirroredTorrentsAfter(s, c.afterId)
    const torrents = ids.length ? await s.timed('torrents', changedTorrentsPage(s, s.source, ids, since)) : []
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    read += torrents.length
    s.progress('site_torrents', read)
    const done = ids.length < s.lookupChunk('torrents')
    if (done) Object.assign(c, { since: c.startedAt, startedAt: null, afterId: 0 })
    else c.afterId = ids[ids.length - 1]
    // A lookup with nothing to write only moves the cursor: it is recorded with the next page.
    if (torrents.length || done) await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
    if (done) return
  }
}

/**
 * The torrents whose seeders the wages take (N of docs/domain.md §4: claimed or assigned, whatever the
 * rules — an official one earns with either, the preset 「NexusPHP 认领结算」 any claimed one) that this
 * sync checks: a `countSyncs`-th of them in id order, after the cursor `state.torrents.countsAfter`
 * (`next`: where the next sync goes on; 0 after the last of them) — but not those of this sync's refresh
 * slice (read whole anyway); settled when first asked (read-ahead.ts).
 */
function earningTorrents(s: SyncSession): Promise<{ ids: number[]; next: number }> {
  return s.once('earning torrents', async () => {
    const inSlice = new Set((await refreshSlice(s)).ids)
    const { rows } = await sql<{ id: number }>`select x.id from
      (select torrent_id as id from site_claims union select torrent_id from assignments) x
      join site_torrents t on t.id = x.id order by x.id`.execute(s.db)
    const all = rows.map((r) => Number(r.id))
    const per = Math.max(1, Math.ceil(all.length / Math.max(1, s.tuning.countSyncs)))
    const after = s.state.torrents.countsAfter
    const from = Math.max(
      0,
      all.findIndex((id) => id > after),
    )
    const ids = all.slice(from, from + per)
    const next = from + per >= all.length ? 0 : ids[ids.length - 1]
    return { ids: ids.filter((id) => !inSlice.has(id)), next }
  })
}

/** The source's count columns of a torrent this mirror keeps (older sites may lack one: it defaults). */
function countColumns(s: SyncSession): ('seeders' | 'leechers')[] {
  return (['seeders', 'leechers'] as const).filter((c) => s.schema.torrents.has(c))
}

/** The counts of some torrents, by primary key: a few columns of at most a lookup's ids (short on MyISAM). */
function countsPage(s: SyncSession, connection: NexusphpConnection, ids: readonly number[]) {
  const columns = countColumns(s)
  return connection.query<Record<string, unknown>>(
    `SELECT id, ${columns.join(', ')} FROM torrents FORCE INDEX (PRIMARY) WHERE id IN (${intList(ids)}) ORDER BY id`,
    [],
    'torrents',
  )
}

/** A source count as the mirror keeps it (reader.ts checkSourceRows: within 0…MAX_COUNTER). */
function countOf(value: unknown): number {
  const n = Math.trunc(Number(value))
  return Number.isFinite(n) ? Math.min(MAX_COUNTER, Math.max(0, n)) : 0
}

/**
 * The seeders of the torrents that can earn, as the site has them now. Dead peers leave silently: the
 * site's cleanup deletes them and recounts `torrents.seeders`/`leechers` (cleanup.php, the
 * UpdateTorrentSeedersEtc job) without touching `last_action`, and the peers of non-members, which
 * count in N too, are not mirrored at all — so neither the changed-torrents pass nor our peers tell. A
 * keyed read of the counts of the earning torrents (primary-key lookups of a lookup's ids, three columns),
 * and those whose counts differ from the mirror's (or that the site deleted) re-read whole with their tags.
 * Spread over `countSyncs` syncs (a rolling cursor, `earningTorrents`): all of them every sync read ~62,000
 * rows of the bench site's torrents per sync (7,155 → 69,666 for an incremental sync). N is then at most
 * `countSyncs` syncs old (30 minutes at the default 3 syncs of SYNC_INTERVAL 600 s) — at the month's end too:
 * the wages take the seeders of the last sync that checked the torrent. A torrent that became earning
 * meanwhile is checked when the cursor passes its id (within `countSyncs` + 1 syncs).
 */
async function syncMovedSeeders(s: SyncSession): Promise<void> {
  const columns = countColumns(s)
  if (!columns.length) return
  const { ids, next } = await earningTorrents(s)
  let read = 0
  for (const part of chunks(ids, s.lookupChunk('torrents'))) {
    const theirs = new Map((await countsPage(s, s.source, part)).map((r) => [Number(r.id), r]))
    const ours = await s.db.selectFrom('site_torrents').select(['id', 'seeders', 'leechers']).where('id', 'in', part).execute()
    const moved = ours
      .filter((t) => {
        const row = theirs.get(t.id)
        return !row || columns.some((c) => countOf(row[c]) !== Number(t[c]))
      })
      .map((t) => t.id)
    read += part.length
    s.progress('site_torrents', read, ids.length)
    if (!moved.length) continue
    const torrents = await torrentsById(s, moved)
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    const found = new Set(torrents.map((t) => t.id))
    const gone = moved.filter((id) => !found.has(id))
    await s.commit(async (trx) => {
      await writeTorrents(s, trx, torrents, tags)
      if (gone.length) await dropTorrents(s, trx, gone)
    })
  }
  // Moved once this sync's part was checked (a sync that fails before checks the same part again).
  if (s.state.torrents.countsAfter !== next) {
    s.state.torrents.countsAfter = next
    await s.commit(async () => {})
  }
}

/** Where the id window of the changed-torrents statement after `afterId` ends (short where the tracker waits for it; the first as planned). */
/**
 * Where this sync's changed-torrents pass reads from: the id it resumes after (0 for a new pass) and the
 * watermark less the slack, in FROM_UNIXTIME seconds; null before the first pass set a watermark.
 */
function changedTorrentsFrom(s: SyncSession): { afterId: number; since: number } | null {
  const c = s.state.torrents.changed
  if (c.since === null) return null
  return { afterId: c.startedAt === null ? 0 : c.afterId, since: fromUnix(c.since - s.tuning.watermarkSlackMs) }
}

/**
 * The next lookup's worth of mirrored torrent ids after `afterId`, ascending — settled once a sync, so the statement the
 * read-ahead started is the one the step takes (torrents this sync brings in meanwhile were just read whole).
 */
function mirroredTorrentsAfter(s: SyncSession, afterId: number): Promise<number[]> {
  return s.once(`changed torrents after ${afterId}`, async () => {
    const rows = await s.db
      .selectFrom('site_torrents')
      .select('id')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(s.lookupChunk('torrents'))
      .execute()
    return rows.map((r) => r.id)
  })
}

/** Which of these mirrored torrents moved since the watermark, read whole: primary-key lookups (short on MyISAM). */
function changedTorrentsPage(s: SyncSession, connection: NexusphpConnection, ids: readonly number[], since: number) {
  return readMirrorRows(
    connection,
    s.schema,
    'site_torrents',
    `FORCE INDEX (PRIMARY) WHERE id IN (${intList(ids)}) AND last_action >= FROM_UNIXTIME(?)`,
    [since],
  )
}

/**
 * Starts what the torrent steps after members' rows will read first (read-ahead.ts): new tag rows,
 * changed torrents, the earning torrents' counts, the rolling refresh's slice and its tags.
 */
export async function readAheadTorrents(s: SyncSession): Promise<void> {
  const planned = s.ahead.planned
  void newTagsPage(s, planned, s.state.torrentTags.maxId)
  const from = changedTorrentsFrom(s)
  if (s.schema.torrents.has('last_action') && from) {
    const ids = await mirroredTorrentsAfter(s, from.afterId)
    if (ids.length) void changedTorrentsPage(s, planned, ids, from.since)
  }
  // The first lookup only: the rest run as the step reaches them (a long set would hold up every other step's reads).
  const earning = chunks((await earningTorrents(s)).ids, s.lookupChunk('torrents'))
  if (countColumns(s).length && earning.length) void countsPage(s, planned, earning[0])
  for (const part of chunks((await refreshSlice(s)).ids, s.lookupChunk('torrents'))) {
    void torrentsById(s, part, planned)
    void tagsOf(s, part, planned)
  }
}

/**
 * The review rule of this sync (reader.ts `torrentRefused`): NexusPHP's announce refuses a torrent whose
 * `approval_status` is not 1 (allowed) while the site hides unreviewed torrents — so the mirror's `banned`
 * says so, as it does for a banned torrent. Only where the source has the column (NexusPHP 1.7+); settings
 * that cannot be read keep the last sync's rule. A torrent's review comes with the passes that bring its
 * other edits (the rolling refresh: staff's review leaves last_action alone); a change of the rule itself
 * has the mirrored torrents it concerns re-read in this sync (`recheckReviewedTorrents`) — except on an
 * empty mirror, whose torrents are all read by the rule anyway.
 */
export async function settleTorrentReview(s: SyncSession, hidesUnapproved: boolean | null): Promise<void> {
  const review = s.state.torrents.review
  const refuses = s.schema.torrents.has('approval_status') && (hidesUnapproved ?? review.refuses)
  s.schema.refusesUnapproved = refuses
  if (refuses === review.refuses) return
  const mirrored = await s.db.selectFrom('site_torrents').select('id').limit(1).executeTakeFirst()
  // Recorded with the first page this sync commits; a sync that fails before comes here again.
  s.state.torrents.review = { refuses, recheckAfter: mirrored ? 0 : null }
}

/**
 * After the review rule changed: re-reads the mirrored torrents whose `banned` it turns — when announce now
 * refuses unapproved torrents, those not banned here that the site has not approved (primary-key lookups
 * of a lookup's ids that return just those rows); when it no longer does, those banned here (read whole:
 * a ban of the site's own stays). With their tags, a lookup per page, resumable.
 */
async function recheckReviewedTorrents(s: SyncSession): Promise<void> {
  const review = s.state.torrents.review
  const chunk = s.lookupChunk('torrents')
  let read = 0
  while (review.recheckAfter !== null) {
    const ids = (
      await s.db
        .selectFrom('site_torrents')
        .select('id')
        .where('banned', '=', review.refuses ? 0 : 1)
        .where('id', '>', review.recheckAfter)
        .orderBy('id')
        .limit(chunk)
        .execute()
    ).map((r) => r.id)
    const torrents = ids.length
      ? await readMirrorRows(
          s.source,
          s.schema,
          'site_torrents',
          `FORCE INDEX (PRIMARY) WHERE id IN (${intList(ids)})${review.refuses ? ' AND NOT (`approval_status` <=> 1)' : ''} ORDER BY id`,
        )
      : []
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    read += ids.length
    s.progress('site_torrents', read)
    review.recheckAfter = ids.length < chunk ? null : ids[ids.length - 1]
    await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
  }
}

/** Torrents the site deleted leave with their members' rows and tags. */
async function dropTorrents(s: SyncSession, trx: Kysely<DB>, ids: readonly number[]): Promise<void> {
  const of = async (table: 'site_peers' | 'site_snatched' | 'site_claims' | 'site_torrent_tags', column: string) =>
    (
      await sql<{
        id: number
      }>`select id from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(ids.map((id) => sql.lit(id)))})`.execute(trx)
    ).rows.map((r) => Number(r.id))
  await s.remove(trx, 'site_peers', await of('site_peers', 'torrent'))
  await s.remove(trx, 'site_snatched', await of('site_snatched', 'torrentid'))
  await s.remove(trx, 'site_claims', await of('site_claims', 'torrent_id'))
  await s.remove(trx, 'site_torrent_tags', await of('site_torrent_tags', 'torrent_id'))
  await s.remove(trx, 'site_torrents', ids)
}
