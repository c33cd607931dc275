/**
 * One sync from a NexusPHP database into the mirror (domain.md §5). What it reads:
 *
 * - teams, categories, tags: whole tables (small), every sync;
 * - users (all site users, so admins can pick members): new ids every sync, everything once a day;
 * - torrents that matter: official by the rules' teams and tags, owned by members, referenced by
 *   members' rows or assignments; new ids every sync; those whose `last_action` moved (when the
 *   source has the column), plus a rolling refresh for edits and deletions (a 36th of the mirror's
 *   torrents per sync; a sixth without the column); their torrent_tags with them, and new tag rows;
 * - peers, snatched, claims of members only: a member's rows in full the first time (backfill),
 *   then those changed since the last completed pass (`last_action`, claims' `updated_at`) — by a
 *   primary-key scan of the source table (the first import too), a later member's backfill through
 *   the (userid) index.
 * - deletions: rows the site deleted (a peer's stop event, an un-claim) go: members' peer and claim
 *   ids are compared with the source's every sync (per member fingerprints first, ids only where
 *   they differ), snatches by primary key in a rolling slice.
 *
 * Writes: rows that cannot be in the mirror yet (first import, a member's backfill) take mirror.ts's
 * bulk path (`insertMirrorFresh`), everything else the upsert.
 *
 * Every page is read first, then written in one transaction of our database together with the
 * cursor that says how far it got (sync_state.source_state): a failure keeps every committed page
 * whole and the next sync resumes from the last one. The derivation is queued by mirror.ts.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import { refreshPlannerStats, withDeferredIndexes } from '../../db/bulk'
import { readSourceState, writeSourceState } from '../../jobs/sync-state'
import type { SourceSyncContext } from '../source'
import { deleteMirror, insertMirrorFresh, type MirrorRows, type MirrorTable, nextPassIsFull, upsertMirror } from '../mirror'
import type { NexusphpConnection } from './connection'
import { intList, readMirrorRows } from './reader'
import { readSourceSchema, type SourceSchema } from './schema-check'

export interface NexusphpSyncTuning {
  /** Source rows per page (one transaction each). */
  pageRows: number
  /** Members per IN list. */
  memberGroup: number
  /** Ids per primary-key lookup. */
  idChunk: number
  /** The rolling refresh visits every mirror torrent once in this many syncs. */
  refreshSyncs: number
  /** The same when the source has torrents.last_action (changed torrents are read every sync): edits, deletions. */
  slowRefreshSyncs: number
  /** Mirror snatches checked against the source per sync by the rolling check. */
  rollingCheckRows: number
  /** Whole users table re-read this often (ms). */
  usersRefreshMs: number
  /**
   * Overlap of the `last_action` watermark (ms). The watermark is the site database's own clock
   * (UNIX_TIMESTAMP(NOW()) read on the source), and `last_action` is stamped by that same clock, so skew between
   * servers does not matter; only a row whose last_action was stamped before a slow commit on the site can become
   * visible after the watermark was read. A minute covers such commits; a wider overlap re-reads every row changed
   * in it on each sync.
   */
  watermarkSlackMs: number
}

export const defaultTuning: NexusphpSyncTuning = {
  pageRows: 5_000,
  memberGroup: 500,
  idChunk: 2_000,
  refreshSyncs: 6,
  slowRefreshSyncs: 36,
  rollingCheckRows: 20_000,
  usersRefreshMs: 24 * 3600_000,
  watermarkSlackMs: 60_000,
}

const bulkTables = ['site_torrents', 'site_torrent_tags', 'site_peers', 'site_snatched', 'site_claims']
const uniqueKeyIndexes = ['site_torrent_tags_torrent_tag_key', 'site_peers_torrent_peer_key', 'site_snatched_user_torrent_key', 'site_claims_uid_torrent_key']

type PairTable = 'owned' | 'site_peers' | 'site_snatched' | 'site_claims'
const pairTables: readonly PairTable[] = ['owned', 'site_peers', 'site_snatched', 'site_claims']

/** A pass over members' rows, resumable at (table, step, uid, id). */
interface PairPass {
  /** The source clock when the pass started: the next pass reads rows changed since then. */
  startedAt: number
  /** The members when the pass started (sorted site uids). */
  members: number[]
  table: PairTable
  /** 'new': members never read (everything); 'known': rows changed since the last pass. */
  step: 'new' | 'known'
  uid: number
  id: number
}

export interface NexusphpState {
  kind: 'nexusphp'
  users: { maxId: number; refreshedAt: number | null; refresh: { afterId: number } | null }
  torrents: {
    maxId: number
    officialKey: string
    refreshAfter: number
    /** Every member row committed so far had its torrent looked for (else the next sync checks all rows). */
    referencedChecked: boolean
    /** Source `torrents.last_action` pass: changes since `since` (ms), resumable at `afterId`; `startedAt` becomes the next `since`. */
    changed: { since: number | null; startedAt: number | null; afterId: number }
  }
  torrentTags: { maxId: number }
  pairs: { known: number[]; since: number | null; pass: PairPass | null }
  rolling: { site_snatched: number }
}

function initialState(): NexusphpState {
  return {
    kind: 'nexusphp',
    users: { maxId: 0, refreshedAt: null, refresh: null },
    torrents: { maxId: 0, officialKey: '', refreshAfter: 0, referencedChecked: false, changed: { since: null, startedAt: null, afterId: 0 } },
    torrentTags: { maxId: 0 },
    pairs: { known: [], since: null, pass: null },
    rolling: { site_snatched: 0 },
  }
}

async function loadState(db: Kysely<DB>): Promise<NexusphpState> {
  const stored = await readSourceState<NexusphpState>(db)
  // Another source's state (e.g. the demo's) means nothing here: start over.
  if (stored.kind !== 'nexusphp') return initialState()
  const fresh = initialState()
  return {
    kind: 'nexusphp',
    users: { ...fresh.users, ...stored.users },
    torrents: { ...fresh.torrents, ...stored.torrents },
    torrentTags: { ...fresh.torrentTags, ...stored.torrentTags },
    pairs: { ...fresh.pairs, ...stored.pairs },
    rolling: { ...fresh.rolling, ...stored.rolling },
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

function fromUnix(ms: number): number {
  return Math.max(0, ms) / 1000
}

class NexusphpSync {
  private readonly rows: Record<string, number> = {}
  private readonly db: Kysely<DB>
  private schema!: SourceSchema
  private state!: NexusphpState
  /** The next derivation judges everything: rows written fresh need no queue rows of their own. */
  private fullPass = false
  /** Torrents and tags go the bulk path: first import (FTS triggers dropped) before a full pass. */
  private freshTorrents = false

  constructor(
    private readonly source: NexusphpConnection,
    private readonly ctx: SourceSyncContext,
    private readonly tuning: NexusphpSyncTuning,
  ) {
    this.db = ctx.database.db
  }

  private count(table: string, n: number): void {
    if (n) this.rows[table] = (this.rows[table] ?? 0) + n
  }

  private progress(table: string, read: number, total: number | null = null): void {
    this.ctx.progress({ table, read, total })
  }

  /** The source's own row estimate of a table (information_schema; cheap, approximate). */
  private async estimate(table: string): Promise<number | null> {
    const rows = await this.source.query<{ n: number | null }>(
      'SELECT TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?', [table], 'information_schema')
    const n = rows[0]?.n
    return n === null || n === undefined ? null : Number(n)
  }

  /** Writes one page and the state that records it, all or nothing. */
  private commit(work: (trx: Kysely<DB>) => Promise<void>): Promise<void> {
    return this.db.transaction().execute(async (trx) => {
      await work(trx)
      await writeSourceState(trx, this.state)
    })
  }

  private async upsert<T extends MirrorTable>(trx: Kysely<DB>, table: T, rows: readonly MirrorRows[T][]): Promise<void> {
    this.note(table, rows)
    this.count(table, await upsertMirror(trx, table, rows))
  }

  /** Torrents that members' rows written in this sync point at (referencedTorrents looks for them). */
  private readonly referenced = new Set<number>()
  private note(table: MirrorTable, rows: readonly unknown[]): void {
    const col = table === 'site_peers' ? 'torrent' : table === 'site_snatched' ? 'torrentid' : table === 'site_claims' ? 'torrent_id' : null
    if (col) for (const row of rows) this.referenced.add(Number((row as Record<string, unknown>)[col]))
  }

  /** Rows that cannot be in the mirror yet (mirror.ts `insertMirrorFresh`); `siteUids`: whose records to queue when the pass is not full. */
  private async insertFresh<T extends MirrorTable>(trx: Kysely<DB>, table: T, rows: readonly MirrorRows[T][], siteUids: readonly number[] = []): Promise<void> {
    this.note(table, rows)
    this.count(table, await insertMirrorFresh(this.ctx.database, trx, table, rows, this.fullPass ? 'full pass' : { siteUids }))
  }

  private async remove(trx: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<void> {
    this.count(table, await deleteMirror(trx, table, ids))
  }

  async run(): Promise<Record<string, number>> {
    this.state = await loadState(this.db)
    this.schema = await readSourceSchema(this.source)
    await this.namedTables()
    await this.users()
    const members = await this.members()
    this.fullPass = await nextPassIsFull(this.db, this.ctx.rules.version)
    // Cleared (with the first commit) until referencedTorrents has looked at this sync's rows.
    // (Mirror tables of members' rows empty at the start: every row is written in this sync, so the
    // rows noted here are all there is to look at — the first import.)
    const referencedChecked = this.state.torrents.referencedChecked || (await this.pairTablesEmpty())
    this.state.torrents.referencedChecked = false
    await this.tagsSnapshot()
    this.freshTorrents = this.fullPass && this.state.pairs.since === null
    const importing = async () => {
      await this.newTorrents(members)
      await this.pairPass(members)
      await this.referencedTorrents(referencedChecked)
      await this.newTorrentTags()
    }
    // The first import fills empty tables: their secondary indexes (and the torrent-name index) are
    // built once at the end instead of row by row (db/bulk.ts). The unique keys stay: upserts use them.
    if (this.state.pairs.since === null) {
      await withoutAutoCheckpoint(this.ctx.database, () => withDeferredIndexes(this.ctx.database, bulkTables, uniqueKeyIndexes, importing))
      await refreshPlannerStats(this.ctx.database, bulkTables)
    } else await importing()
    this.freshTorrents = false
    await this.refreshTorrents()
    await this.reconcile(members)
    return this.rows
  }

  // ---------------------------------------------------------------- small tables, users

  private async namedTables(): Promise<void> {
    for (const table of ['site_teams', 'site_categories', 'site_tags'] as const) {
      const rows = await readMirrorRows(this.source, this.schema, table, 'ORDER BY id')
      this.progress(table, rows.length, rows.length)
      const seen = new Set(rows.map((r) => r.id))
      const stored = await this.db.selectFrom(table).select('id').execute()
      await this.commit(async (trx) => {
        await this.upsert(trx, table, rows)
        await this.remove(trx, table, stored.map((r) => r.id).filter((id) => !seen.has(id)))
      })
    }
  }

  /** New site users every sync; all of them (renames, deletions) once per `usersRefreshMs`. */
  private async users(): Promise<void> {
    const s = this.state.users
    if (!s.refresh && (s.refreshedAt === null || this.ctx.now - s.refreshedAt >= this.tuning.usersRefreshMs)) s.refresh = { afterId: 0 }
    let read = 0
    // A refresh reads the whole table: the source's row estimate is its progress total.
    const total = s.refresh ? await this.estimate('users') : null
    for (;;) {
      const refreshing = s.refresh !== null
      const after = s.refresh?.afterId ?? s.maxId
      const rows = await readMirrorRows(this.source, this.schema, 'site_users', `WHERE id > ? ORDER BY id LIMIT ${this.tuning.pageRows}`, [after])
      read += rows.length
      this.progress('site_users', read, total === null ? null : Math.max(total, read))
      const last = rows.length ? rows[rows.length - 1].id : after
      const done = rows.length < this.tuning.pageRows
      // A refresh also removes the users the site deleted in the range it covered.
      let gone: number[] = []
      if (refreshing) {
        const seen = new Set(rows.map((r) => r.id))
        const q = this.db.selectFrom('site_users').select('id').where('id', '>', after)
        const stored = await (done ? q : q.where('id', '<=', last)).execute()
        gone = stored.map((r) => r.id).filter((id) => !seen.has(id))
      }
      s.maxId = Math.max(s.maxId, last)
      if (refreshing) {
        if (done) {
          s.refresh = null
          s.refreshedAt = this.ctx.now
        } else s.refresh = { afterId: last }
      }
      await this.commit(async (trx) => {
        await this.upsert(trx, 'site_users', rows)
        await this.remove(trx, 'site_users', gone)
      })
      if (done) return
    }
  }

  private async pairTablesEmpty(): Promise<boolean> {
    for (const table of ['site_peers', 'site_snatched', 'site_claims'] as const) {
      if (await this.db.selectFrom(table).select('id').limit(1).executeTakeFirst()) return false
    }
    return true
  }

  /**
   * Before the first torrent is read: new torrent_tags rows are those past the source's highest id
   * now. The rows up to it come with their torrents (tagsOf) — re-reading all of them afterwards
   * would read and write the site's whole tag table twice.
   */
  private async tagsSnapshot(): Promise<void> {
    if (this.state.torrents.maxId !== 0 || this.state.torrentTags.maxId !== 0) return
    const rows = await this.source.query<{ m: number | null }>('SELECT MAX(id) AS m FROM torrent_tags', [], 'torrent_tags')
    this.state.torrentTags.maxId = Number(rows[0]?.m ?? 0)
  }

  /** Our members' site uids, sorted. */
  private async members(): Promise<number[]> {
    const rows = await this.db.selectFrom('users').select('site_uid').distinct().where('site_uid', 'is not', null).orderBy('site_uid').execute()
    return rows.map((r) => Number(r.site_uid))
  }

  // ---------------------------------------------------------------- torrents

  /** Site ids of the rules' official teams and tags (the rules name them; the mirror numbers them). */
  private async officialIds(): Promise<{ teams: number[]; tags: number[] }> {
    const { officialTeams, officialTags } = this.ctx.rules
    const teams = officialTeams.length ? await this.db.selectFrom('site_teams').select('id').where('name', 'in', officialTeams).orderBy('id').execute() : []
    const tags = officialTags.length ? await this.db.selectFrom('site_tags').select('id').where('name', 'in', officialTags).orderBy('id').execute() : []
    return { teams: teams.map((t) => t.id), tags: tags.map((t) => t.id) }
  }

  /** Reads the torrent_tags of some torrents from the source. */
  private async tagsOf(torrentIds: readonly number[]): Promise<MirrorRows['site_torrent_tags'][]> {
    if (!torrentIds.length) return []
    return readMirrorRows(this.source, this.schema, 'site_torrent_tags', `WHERE torrent_id IN (${intList(torrentIds)}) ORDER BY id`)
  }

  /** Writes torrents with exactly the tags the source gave for them. */
  private async writeTorrents(trx: Kysely<DB>, torrents: MirrorRows['site_torrents'][], tags: MirrorRows['site_torrent_tags'][]): Promise<void> {
    if (this.freshTorrents) {
      await this.insertFresh(trx, 'site_torrents', torrents)
      await this.insertFresh(trx, 'site_torrent_tags', tags)
    } else {
      await this.upsert(trx, 'site_torrents', torrents)
      await this.upsert(trx, 'site_torrent_tags', tags)
    }
    if (!torrents.length) return
    const seen = new Set(tags.map((t) => t.id))
    const stored = await trx.selectFrom('site_torrent_tags').select('id').where('torrent_id', 'in', torrents.map((t) => t.id)).execute()
    await this.remove(trx, 'site_torrent_tags', stored.map((r) => r.id).filter((id) => !seen.has(id)))
  }

  /**
   * Torrents with ids past the watermark that are official by rule or owned by a member. When the
   * rules' official teams or tags change, the scan starts over from the first id.
   */
  private async newTorrents(members: readonly number[]): Promise<void> {
    const s = this.state.torrents
    const official = await this.officialIds()
    const key = JSON.stringify(official)
    if (key !== s.officialKey) {
      s.officialKey = key
      s.maxId = 0
    }
    const relevant = [
      official.teams.length ? `team IN (${intList(official.teams)})` : null,
      members.length ? `owner IN (${intList(members)})` : null,
      official.tags.length ? `id IN (SELECT torrent_id FROM torrent_tags WHERE tag_id IN (${intList(official.tags)}))` : null,
    ].filter(Boolean)
    if (!relevant.length) return
    let read = 0
    for (;;) {
      const torrents = await readMirrorRows(this.source, this.schema, 'site_torrents',
        `WHERE id > ? AND (${relevant.join(' OR ')}) ORDER BY id LIMIT ${this.tuning.pageRows}`, [s.maxId])
      read += torrents.length
      this.progress('site_torrents', read)
      const tags = await this.tagsOf(torrents.map((t) => t.id))
      if (torrents.length) s.maxId = torrents[torrents.length - 1].id
      await this.commit((trx) => this.writeTorrents(trx, torrents, tags))
      if (torrents.length < this.tuning.pageRows) return
    }
  }

  /**
   * Fetches by id the torrents that members' rows or assignments point at and the mirror lacks. When
   * the previous sync got this far, only the rows written in this sync can point at a missing torrent
   * (torrents leave with their rows): those are looked up by id; otherwise all the mirror's rows.
   */
  private async referencedTorrents(incremental: boolean): Promise<void> {
    const assigned = await sql<{ id: number }>`select torrent_id as id from assignments x where not exists (select 1 from site_torrents t where t.id = x.torrent_id)`.execute(this.db)
    const missing = new Set(assigned.rows.map((r) => Number(r.id)))
    if (incremental) {
      for (const ids of chunks([...this.referenced], this.tuning.idChunk)) {
        const found = new Set((await this.db.selectFrom('site_torrents').select('id').where('id', 'in', ids).execute()).map((r) => r.id))
        for (const id of ids) if (!found.has(id)) missing.add(id)
      }
    } else {
      const { rows } = await sql<{ id: number }>`select torrent as id from site_peers x where not exists (select 1 from site_torrents t where t.id = x.torrent)
        union select torrentid from site_snatched x where not exists (select 1 from site_torrents t where t.id = x.torrentid)
        union select torrent_id from site_claims x where not exists (select 1 from site_torrents t where t.id = x.torrent_id)`.execute(this.db)
      for (const r of rows) missing.add(Number(r.id))
    }
    const rows = [...missing].map((id) => ({ id }))
    const parts = chunks(rows.map((r) => r.id).sort((a, b) => a - b), this.tuning.idChunk)
    const fetch = async (ids: readonly number[]) => {
      const torrents = await readMirrorRows(this.source, this.schema, 'site_torrents', `WHERE id IN (${intList(ids)}) ORDER BY id`)
      return { torrents, tags: await this.tagsOf(torrents.map((t) => t.id)) }
    }
    let read = 0
    let next = parts.length ? fetch(parts[0]) : null
    for (let i = 0; next; i++) {
      const { torrents, tags } = await next
      next = i + 1 < parts.length ? fetch(parts[i + 1]) : null
      next?.catch(() => {})
      read += torrents.length
      this.progress('site_torrents', read, rows.length)
      await this.commit((trx) => this.writeTorrents(trx, torrents, tags))
    }
    this.state.torrents.referencedChecked = true
    await this.commit(async () => {})
  }

  /** New torrent_tags rows: kept when their torrent is mirrored; an official tag brings its torrent in. */
  private async newTorrentTags(): Promise<void> {
    const s = this.state.torrentTags
    const officialTags = new Set((await this.officialIds()).tags)
    let read = 0
    for (;;) {
      const rows = await readMirrorRows(this.source, this.schema, 'site_torrent_tags', `WHERE id > ? ORDER BY id LIMIT ${this.tuning.pageRows}`, [s.maxId])
      read += rows.length
      this.progress('site_torrent_tags', read)
      if (!rows.length) return
      const torrentIds = [...new Set(rows.map((r) => r.torrent_id))]
      const mirrored = new Set<number>()
      for (const ids of chunks(torrentIds, this.tuning.idChunk)) {
        for (const r of await this.db.selectFrom('site_torrents').select('id').where('id', 'in', ids).execute()) mirrored.add(r.id)
      }
      const missingOfficial = [...new Set(rows.filter((r) => !mirrored.has(r.torrent_id) && officialTags.has(r.tag_id)).map((r) => r.torrent_id))]
      const torrents: MirrorRows['site_torrents'][] = []
      for (const ids of chunks(missingOfficial, this.tuning.idChunk)) {
        torrents.push(...(await readMirrorRows(this.source, this.schema, 'site_torrents', `WHERE id IN (${intList(ids)}) ORDER BY id`)))
      }
      const fullTags = await this.tagsOf(torrents.map((t) => t.id))
      const fetched = new Set(torrents.map((t) => t.id))
      const keep = rows.filter((r) => mirrored.has(r.torrent_id) && !fetched.has(r.torrent_id))
      s.maxId = rows[rows.length - 1].id
      await this.commit(async (trx) => {
        await this.writeTorrents(trx, torrents, fullTags)
        if (this.freshTorrents) await this.insertFresh(trx, 'site_torrent_tags', keep)
        else await this.upsert(trx, 'site_torrent_tags', keep)
      })
      if (rows.length < this.tuning.pageRows) return
    }
  }

  /**
   * Re-reads a slice of the mirror's torrents (seeders, names, tags; torrents the site deleted go,
   * with their members' rows — NexusPHP deletes those with the torrent).
   */
  private async refreshTorrents(): Promise<void> {
    const s = this.state.torrents
    const tracked = this.schema.torrents.has('last_action')
    if (tracked) await this.changedTorrents()
    const total = Number((await sql<{ n: number }>`select count(*) as n from site_torrents`.execute(this.db)).rows[0].n)
    const slice = Math.max(this.tuning.idChunk, Math.ceil(total / (tracked ? this.tuning.slowRefreshSyncs : this.tuning.refreshSyncs)))
    const ids = (await this.db.selectFrom('site_torrents').select('id').where('id', '>', s.refreshAfter).orderBy('id').limit(slice).execute()).map((r) => r.id)
    let read = 0
    const parts = chunks(ids, this.tuning.idChunk)
    for (const [i, part] of parts.entries()) {
      const torrents = await readMirrorRows(this.source, this.schema, 'site_torrents', `WHERE id IN (${intList(part)}) ORDER BY id`)
      const tags = await this.tagsOf(torrents.map((t) => t.id))
      read += part.length
      this.progress('site_torrents', read, ids.length)
      const found = new Set(torrents.map((t) => t.id))
      const gone = part.filter((id) => !found.has(id))
      // Wrap around after the last slice.
      s.refreshAfter = i === parts.length - 1 && ids.length < slice ? 0 : part[part.length - 1]
      await this.commit(async (trx) => {
        await this.writeTorrents(trx, torrents, tags)
        if (gone.length) await this.dropTorrents(trx, gone)
      })
    }
    if (!ids.length && s.refreshAfter !== 0) {
      s.refreshAfter = 0
      await this.commit(async () => {})
    }
  }

  /**
   * Mirror torrents whose source `last_action` moved since the last pass (the tracker touches it with
   * the counters): a primary-key scan of the source's torrents (no index on last_action), the
   * mirrored ones written with their tags. The first pass only sets the watermark (the import or the
   * rolling refresh has just read them); name, tag and other edits that leave last_action alone, and
   * deletions, come with the (slower) rolling refresh.
   */
  private async changedTorrents(): Promise<void> {
    const c = this.state.torrents.changed
    if (c.since === null) {
      c.since = this.ctx.now
      return
    }
    if (c.startedAt === null) Object.assign(c, { startedAt: this.ctx.now, afterId: 0 })
    const since = fromUnix(c.since - this.tuning.watermarkSlackMs)
    let read = 0
    for (;;) {
      const rows = await readMirrorRows(this.source, this.schema, 'site_torrents',
        `FORCE INDEX (PRIMARY) WHERE id > ? AND last_action >= FROM_UNIXTIME(?) ORDER BY id LIMIT ${this.tuning.pageRows}`, [c.afterId, since])
      const mirrored = new Set<number>()
      for (const ids of chunks(rows.map((t) => t.id), this.tuning.idChunk)) {
        for (const r of await this.db.selectFrom('site_torrents').select('id').where('id', 'in', ids).execute()) mirrored.add(r.id)
      }
      const torrents = rows.filter((t) => mirrored.has(t.id))
      const tags = await this.tagsOf(torrents.map((t) => t.id))
      read += torrents.length
      this.progress('site_torrents', read)
      const done = rows.length < this.tuning.pageRows
      if (done) Object.assign(c, { since: c.startedAt, startedAt: null, afterId: 0 })
      else c.afterId = rows[rows.length - 1].id
      await this.commit((trx) => this.writeTorrents(trx, torrents, tags))
      if (done) return
    }
  }

  private async dropTorrents(trx: Kysely<DB>, ids: readonly number[]): Promise<void> {
    const of = async (table: 'site_peers' | 'site_snatched' | 'site_claims' | 'site_torrent_tags', column: string) =>
      (await sql<{ id: number }>`select id from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(ids.map((id) => sql.lit(id)))})`.execute(trx)).rows.map((r) => Number(r.id))
    await this.remove(trx, 'site_peers', await of('site_peers', 'torrent'))
    await this.remove(trx, 'site_snatched', await of('site_snatched', 'torrentid'))
    await this.remove(trx, 'site_claims', await of('site_claims', 'torrent_id'))
    await this.remove(trx, 'site_torrent_tags', await of('site_torrent_tags', 'torrent_id'))
    await this.remove(trx, 'site_torrents', ids)
  }

  // ---------------------------------------------------------------- members' rows

  /** The source filter of rows changed since `since` (ms), or null when the table cannot tell. */
  private changedSince(table: PairTable, since: number): { where: string; values: unknown[] } | null {
    const t = fromUnix(since)
    if (table === 'site_peers' || table === 'site_snatched') return { where: 'last_action >= FROM_UNIXTIME(?)', values: [t] }
    if (table === 'site_claims') {
      const columns = this.schema.claims
      if (!columns.has('updated_at')) return null
      const created = columns.has('created_at') ? ' OR created_at >= FROM_UNIXTIME(?)' : ''
      return { where: `(updated_at >= FROM_UNIXTIME(?) OR updated_at IS NULL${created})`, values: created ? [t, t] : [t] }
    }
    return null
  }

  /**
   * Members' peers, snatches and claims (and the torrents new members uploaded): everything of
   * members never read before, the changes of the others since the last completed pass. Keyset
   * (uid, id) walks the source's (userid) index in order, so every page is one index range.
   */
  private async pairPass(members: readonly number[]): Promise<void> {
    const p = this.state.pairs
    await this.dropFormerMembers(members)
    const memberSet = new Set(members)
    p.known = p.known.filter((uid) => memberSet.has(uid))
    const pass: PairPass = (p.pass ??= { startedAt: this.ctx.now, members: [...members], table: pairTables[0], step: 'new', uid: 0, id: 0 })
    const known = new Set(p.since === null ? [] : p.known)
    const since = p.since === null ? null : p.since - this.tuning.watermarkSlackMs
    const steps = pairTables.flatMap((table) => (['new', 'known'] as const).map((step) => [table, step] as const))
    const first = Math.max(0, steps.findIndex(([table, step]) => table === pass.table && step === pass.step))
    for (let i = first; i < steps.length; i++) {
      const [table, step] = steps[i]
      if (i > first) Object.assign(pass, { table, step, uid: 0, id: 0 })
      // 'owned' only backfills: known members' new uploads come with the new torrents.
      if (step === 'known' && (table === 'owned' || since === null)) continue
      const uids = pass.members.filter((uid) => memberSet.has(uid) && (step === 'new') !== known.has(uid))
      // Primary-key scans: known members' changes (no date index at the source), and the first import
      // (all members new: reading the table in id order beats fetching 85% of it through the (userid)
      // index, and writes the mirror's id-keyed tables in order). A later member's backfill walks the index.
      if (table !== 'owned' && step === 'known' && this.changedSince(table, since!)) await this.scanStep(table, this.changedSince(table, since!), uids, pass)
      else if (table !== 'owned' && step === 'new' && p.since === null) await this.scanStep(table, null, uids, pass)
      else await this.pairStep(table, step === 'new' ? null : since, uids, pass)
    }
    this.state.pairs = { known: pass.members.filter((uid) => memberSet.has(uid)), since: pass.startedAt, pass: null }
    await this.commit(async () => {})
  }

  private async pairStep(table: PairTable, since: number | null, uids: readonly number[], pass: PairPass): Promise<void> {
    const col = table === 'owned' ? 'owner' : table === 'site_claims' ? 'uid' : 'userid'
    const mirrorTable = table === 'owned' ? 'site_torrents' : table
    const changed = since === null ? null : this.changedSince(table, since)
    const page = async (group: readonly number[], uid: number, id: number) => {
      const where = [`${col} IN (${intList(group)})`, `(${col} > ? OR (${col} = ? AND id > ?))`]
      const values: unknown[] = [uid, uid, id]
      if (changed) {
        where.push(changed.where)
        values.push(...changed.values)
      }
      const tail = `WHERE ${where.join(' AND ')} ORDER BY ${col}, id LIMIT ${this.tuning.pageRows}`
      const rows = await readMirrorRows(this.source, this.schema, mirrorTable, tail, values)
      if (table !== 'owned') return { rows, tags: [] }
      // First import: new torrents already brought members' uploads in (`owner IN (members)`); the
      // bulk path would write them again. Only those missing go (the rolling refresh updates the rest).
      let torrents = rows as MirrorRows['site_torrents'][]
      if (this.freshTorrents && torrents.length) {
        const mirrored = new Set<number>()
        for (const ids of chunks(torrents.map((t) => t.id), this.tuning.idChunk)) {
          for (const r of await this.db.selectFrom('site_torrents').select('id').where('id', 'in', ids).execute()) mirrored.add(r.id)
        }
        torrents = torrents.filter((t) => !mirrored.has(t.id))
      }
      return { rows, torrents, tags: await this.tagsOf(torrents.map((r) => r.id)) }
    }
    let read = 0
    for (const group of chunks(uids.filter((uid) => uid >= pass.uid), this.tuning.memberGroup)) {
      let next = page(group, pass.uid, pass.id)
      for (;;) {
        const { rows, torrents, tags } = await next
        read += rows.length
        this.progress(mirrorTable, read)
        const more = rows.length === this.tuning.pageRows
        if (rows.length) {
          const last = rows[rows.length - 1] as Record<string, unknown>
          pass.uid = Number(last[col])
          pass.id = Number(last.id)
        }
        // The source reads the next page (on its own core) while this one is written.
        if (more) {
          next = page(group, pass.uid, pass.id)
          next.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
        }
        await this.commit(async (trx) => {
          if (table === 'owned') await this.writeTorrents(trx, torrents ?? [], tags)
          // A member's first read (backfill): rows of a member never read cannot be in the mirror yet
          // (a former member's rows left with dropFormerMembers) — the bulk path.
          else if (since === null) await this.insertFresh(trx, table, rows as MirrorRows[typeof table][], [...new Set(rows.map((r) => Number((r as Record<string, unknown>)[col])))])
          else await this.upsert(trx, table, rows as MirrorRows[typeof table][])
        })
        if (!more) break
      }
    }
  }

  /**
   * Members' rows (`changed`: those changed since the last pass; null: all, the first import) as one
   * primary-key scan of the source table (keyset on `id`). NexusPHP has no index on
   * snatched.last_action (nor on claims' dates), so a walk of the (userid) index would fetch every
   * member row by primary key to test the date — all of them, every sync. The scan reads the table in
   * key order instead (measured: 1 M snatches in ~0.5 s against ~8.8 s). FORCE INDEX: MariaDB turns
   * an IN list of ≥ 1,000 values into a join through the (userid) index otherwise
   * (`in_predicate_conversion_threshold`), which is the slow walk again.
   */
  private async scanStep(table: 'site_peers' | 'site_snatched' | 'site_claims', changed: { where: string; values: unknown[] } | null, uids: readonly number[], pass: PairPass): Promise<void> {
    if (!uids.length) return
    // A cursor of the (uid, id) walk (a pass begun by an older version) means nothing here: start over.
    if (pass.uid !== 0) Object.assign(pass, { uid: 0, id: 0 })
    const col = table === 'site_claims' ? 'uid' : 'userid'
    const members = intList(uids)
    const filter = changed ? ` AND ${changed.where}` : ''
    const { pageRows } = this.tuning
    const page = (id: number) =>
      readMirrorRows(this.source, this.schema, table,
        `FORCE INDEX (PRIMARY) WHERE id > ? AND ${col} IN (${members})${filter} ORDER BY id LIMIT ${pageRows}`,
        [id, ...(changed?.values ?? [])])
    let read = 0
    let next = page(pass.id)
    for (;;) {
      const rows = await next
      read += rows.length
      this.progress(table, read)
      const more = rows.length === pageRows
      if (rows.length) pass.id = rows[rows.length - 1].id
      if (more) {
        next = page(pass.id)
        next.catch(() => {})
      }
      await this.commit(async (trx) => {
        if (changed) await this.upsert(trx, table, rows as MirrorRows[typeof table][])
        else await this.insertFresh(trx, table, rows as MirrorRows[typeof table][], [...new Set(rows.map((r) => Number((r as Record<string, unknown>)[col])))])
      })
      if (!more) return
    }
  }

  /**
   * Rows of site users who are no longer members concern no record: they leave the mirror. Only
   * members' rows are ever read, so after the first import only those who left since (known before,
   * members no more) can have any — looked up through the (userid) index; the first import (whatever
   * another source left) checks every row.
   */
  private async dropFormerMembers(members: readonly number[]): Promise<void> {
    const p = this.state.pairs
    const memberSet = new Set(members)
    const left = [...new Set([...p.known, ...(p.pass?.members ?? [])])].filter((uid) => !memberSet.has(uid))
    if (p.since !== null && !left.length) return
    for (const [table, col] of [['site_peers', 'userid'], ['site_snatched', 'userid'], ['site_claims', 'uid']] as const) {
      // (`not in ()` is not SQL: with no members at all, every row goes.)
      const former =
        p.since !== null ? sql`${sql.ref(col)} in (${sql.join(left.map((m) => sql.lit(m)))})`
        : members.length ? sql`${sql.ref(col)} not in (${sql.join(members.map((m) => sql.lit(m)))})` : sql`true`
      const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where ${former}`.execute(this.db)
      for (const ids of chunks(rows.map((r) => Number(r.id)), this.tuning.idChunk * 5)) await this.commit((trx) => this.remove(trx, table, ids))
    }
  }

  // ---------------------------------------------------------------- deletions at the source

  /** Mirror ids (ascending) the source no longer has: one primary-key range of the source per sync. */
  private async vanished(table: 'snatched', ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return []
    const found = await this.source.query<{ id: number }>(`SELECT id FROM ${table} WHERE id BETWEEN ? AND ?`, [ids[0], ids[ids.length - 1]], table)
    const present = new Set(found.map((r) => Number(r.id)))
    return ids.filter((id) => !present.has(id))
  }

  /**
   * Rows the site deleted. Peers (a client's stop event deletes its row, also inside the active
   * window) and claims (un-claim): all of the members' ids, every sync — an index-only scan of the
   * source's (userid) / (uid, torrent_id) index per member group. Snatches are rarely deleted (with
   * their torrent): a rolling slice per sync, checked by primary key.
   */
  private async reconcile(members: readonly number[]): Promise<void> {
    for (const [table, source, col] of [['site_peers', 'peers', 'userid'], ['site_claims', 'claims', 'uid']] as const) {
      // First a fingerprint of each member's ids on both sides (count, sum and a hashed sum: an
      // index-only aggregate at the source, a covering index here); only members whose fingerprints
      // differ have their ids compared. The hash's product stays far below 2^63 for any id below 2^40
      // (NexusPHP's are unsigned 32-bit), on both sides.
      const print = `COUNT(*) AS n, SUM(id) AS s, SUM((id * 40503) % 1048573) AS h`
      const fingerprint = (r: { u: unknown; n: unknown; s: unknown; h: unknown }) => `${Number(r.n)}:${Number(r.s)}:${Number(r.h)}`
      const theirs = new Map<number, string>()
      for (const group of chunks(members, this.tuning.memberGroup)) {
        const rows = await this.source.query<{ u: number; n: number; s: string; h: string }>(
          `SELECT ${col} AS u, ${print} FROM ${source} WHERE ${col} IN (${intList(group)}) GROUP BY ${col}`, [], source)
        for (const row of rows) theirs.set(Number(row.u), fingerprint(row))
      }
      const { rows: ours } = await sql<{ u: number; n: number; s: number; h: number }>`select ${sql.ref(col)} as u, ${sql.raw(print.toLowerCase())}
        from ${sql.table(table)} group by ${sql.ref(col)}`.execute(this.db)
      const differ = ours.filter((r) => theirs.get(Number(r.u)) !== fingerprint(r)).map((r) => Number(r.u))
      const gone: number[] = []
      for (const group of chunks(differ, this.tuning.memberGroup)) {
        const rows = await this.source.query<{ id: number }>(`SELECT id FROM ${source} WHERE ${col} IN (${intList(group)})`, [], source)
        const present = new Set(rows.map((r) => Number(r.id)))
        const stored = await this.db.selectFrom(table).select('id').where(col, 'in', group).execute()
        for (const r of stored) if (!present.has(Number(r.id))) gone.push(Number(r.id))
      }
      for (const ids of chunks(gone, this.tuning.idChunk * 5)) await this.commit((trx) => this.remove(trx, table, ids))
    }
    const after = this.state.rolling.site_snatched
    const ids = (await this.db.selectFrom('site_snatched').select('id').where('id', '>', after).orderBy('id').limit(this.tuning.rollingCheckRows).execute()).map((r) => r.id)
    const gone = await this.vanished('snatched', ids)
    this.state.rolling.site_snatched = ids.length < this.tuning.rollingCheckRows ? 0 : ids[ids.length - 1]
    await this.commit((trx) => this.remove(trx, 'site_snatched', gone))
  }

}

/**
 * SQLite: no WAL checkpoint at each page's commit during the first import (each would copy the
 * pages the last few commits touched — index pages again and again); one at the end instead.
 */
async function withoutAutoCheckpoint<T>(database: SourceSyncContext['database'], work: () => Promise<T>): Promise<T> {
  const raw = database.dialect === 'sqlite' ? database.sqlite : undefined
  if (!raw) return work()
  const previous = Number(raw.pragma('wal_autocheckpoint', { simple: true }))
  raw.pragma('wal_autocheckpoint = 0')
  try {
    return await work()
  } finally {
    raw.pragma(`wal_autocheckpoint = ${previous}`)
    raw.pragma('wal_checkpoint(PASSIVE)')
  }
}

export async function syncNexusphp(source: NexusphpConnection, ctx: SourceSyncContext, tuning: NexusphpSyncTuning = defaultTuning): Promise<Record<string, number>> {
  return new NexusphpSync(source, ctx, tuning).run()
}
