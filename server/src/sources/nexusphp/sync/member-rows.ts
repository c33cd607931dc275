/**
 * Members' peers, snatched and claims (and the torrents new members uploaded): a member's rows in
 * full the first time (backfill), then those changed since the last completed pass (`last_action`,
 * claims' `updated_at`) — by a primary-key scan of the source table (the first import too), a later
 * member's backfill through the (userid) index. A table keyed by hashes (a v1.6 site's MEMORY peers)
 * has no id order to scan: always through the member index. Rows of those who left the team leave the mirror.
 *
 * On a table with table-level locks every statement stays short (the tracker's UPDATEs wait for it,
 * domain.md §5): a scan reads bounded id windows, an index read a few members at a time.
 */
import { sql } from 'kysely'
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, laravelTimestampBound, readMirrorRows, tableSpecs } from '../reader'
import type { MemberIndexes, SourceTable } from '../schema-check'
import { chunks } from '../../../util/chunks'
import { fromUnix, type SyncSession } from './session'
import { pairTables, type PairPass, type PairTable } from './state'
import { tagsOf, writeTorrents } from './torrents'

/** Our members' site uids, sorted. */
export async function memberUids(s: SyncSession): Promise<number[]> {
  const rows = await s.db.selectFrom('users').select('site_uid').distinct().where('site_uid', 'is not', null).orderBy('site_uid').execute()
  return rows.map((r) => Number(r.site_uid))
}

/** No members' rows in the mirror at all (the first import, or another source's leftovers removed). */
export async function memberTablesEmpty(s: SyncSession): Promise<boolean> {
  for (const table of ['site_peers', 'site_snatched', 'site_claims'] as const) {
    if (await s.db.selectFrom(table).select('id').limit(1).executeTakeFirst()) return false
  }
  return true
}

type ChangedFilter = { where: string; values: unknown[] }
type ScanTable = 'site_peers' | 'site_snatched' | 'site_claims'

const sourceOf = (table: PairTable): SourceTable => (table === 'owned' ? 'torrents' : tableSpecs[table].source)

/**
 * The source filter of rows changed since `since` (ms), or null when the table cannot tell. Claims:
 * their times compared as Laravel stored them (reader.ts `laravelTimestamp`), and every claim past the
 * mirror's newest id besides — a new claim is found even should its times still be read wrong.
 */
async function changedSince(s: SyncSession, table: PairTable, since: number): Promise<ChangedFilter | null> {
  const t = fromUnix(since)
  if (table === 'site_peers' || table === 'site_snatched') return { where: 'last_action >= FROM_UNIXTIME(?)', values: [t] }
  if (table === 'site_claims') {
    const columns = s.schema.claims
    if (!columns.has('updated_at')) return null
    const stored = (column: string) => (columns.get(column) === 'timestamp' ? laravelTimestampBound : 'FROM_UNIXTIME(?)')
    const created = columns.has('created_at') ? ` OR created_at >= ${stored('created_at')}` : ''
    const newest = await s.once('claims: mirror newest id', async () =>
      Number((await sql<{ m: number | null }>`select max(id) as m from site_claims`.execute(s.db)).rows[0]?.m ?? 0),
    )
    return {
      where: `(id > ? OR updated_at >= ${stored('updated_at')} OR updated_at IS NULL${created})`,
      values: created ? [newest, t, t] : [newest, t],
    }
  }
  return null
}

const uidColumn = (table: PairTable) => (table === 'owned' ? 'owner' : table === 'site_claims' ? 'uid' : 'userid')

/** The distinct uids of a page (whose records to queue). */
const uidsOf = (rows: readonly unknown[], col: string) => [...new Set(rows.map((r) => Number((r as Record<string, unknown>)[col])))]

/**
 * Members' rows: everything of members never read before, the changes of the others since the last
 * completed pass. Keyset (uid, id) walks the source's (userid) index in order, so every page is one
 * index range.
 */
export async function syncMemberRows(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  await dropFormerMembers(s, members)
  const memberSet = new Set(members)
  p.known = p.known.filter((uid) => memberSet.has(uid))
  const pass: PairPass = (p.pass ??= { startedAt: s.ctx.now, members: [...members], table: pairTables[0], step: 'new', uid: 0, id: 0 })
  const known = new Set(p.since === null ? [] : p.known)
  const since = p.since === null ? null : p.since - s.tuning.watermarkSlackMs
  const steps = pairTables.flatMap((table) => (['new', 'known'] as const).map((step) => [table, step] as const))
  const first = Math.max(
    0,
    steps.findIndex(([table, step]) => table === pass.table && step === pass.step),
  )
  for (let i = first; i < steps.length; i++) {
    const [table, step] = steps[i]
    if (i > first) Object.assign(pass, { table, step, uid: 0, id: 0 })
    // 'owned' only backfills: known members' new uploads come with the new torrents.
    if (step === 'known' && (table === 'owned' || since === null)) continue
    const uids = pass.members.filter((uid) => memberSet.has(uid) && (step === 'new') !== known.has(uid))
    // Primary-key scans: known members' changes (no date index at the source), and the first import
    // (all members new: reading the table in id order beats fetching 85% of it through the (userid)
    // index, and writes the mirror's id-keyed tables in order). A later member's backfill walks the
    // index, and so does everything on a hash-keyed table.
    const scannable = table !== 'owned' && !s.engines.hashKeyed.has(sourceOf(table))
    const changed = step === 'known' ? await changedSince(s, table, since!) : null
    if (scannable && changed) await scanStep(s, table, changed, uids, pass)
    else if (scannable && step === 'new' && p.since === null) await scanStep(s, table, null, uids, pass)
    else await indexStep(s, table, step === 'new' ? null : since, uids, pass)
  }
  s.state.pairs = { known: pass.members.filter((uid) => memberSet.has(uid)), since: pass.startedAt, pass: null }
  await s.commit(async () => {})
}

/** Members' rows through the source's (uid) index, keyset (uid, id); `since` null: all of them (a backfill). */
async function indexStep(s: SyncSession, table: PairTable, since: number | null, uids: readonly number[], pass: PairPass): Promise<void> {
  const col = uidColumn(table)
  const changed = since === null ? null : await changedSince(s, table, since)
  const page = async (group: readonly number[], uid: number, id: number) => {
    const rows = await indexPage(s, s.source, table, changed, group)(uid, id)
    if (table !== 'owned') return { rows, tags: [] }
    // First import: new torrents already brought members' uploads in (`owner IN (members)`); the
    // bulk path would write them again. Only those missing go (the rolling refresh updates the rest).
    let torrents = rows as MirrorRows['site_torrents'][]
    if (s.freshTorrents && torrents.length) {
      const mirrored = await s.mirroredTorrents(torrents.map((t) => t.id))
      torrents = torrents.filter((t) => !mirrored.has(t.id))
    }
    return {
      rows,
      torrents,
      tags: await tagsOf(
        s,
        torrents.map((r) => r.id),
      ),
    }
  }
  let read = 0
  for (const group of memberGroups(
    s,
    table,
    uids.filter((uid) => uid >= pass.uid),
  )) {
    let next = page(group, pass.uid, pass.id)
    for (;;) {
      const { rows, torrents, tags } = await next
      read += rows.length
      s.progress(table === 'owned' ? 'site_torrents' : table, read)
      const more = rows.length === s.tuning.pageRows
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
      await s.commit(async (trx) => {
        if (table === 'owned') await writeTorrents(s, trx, torrents ?? [], tags)
        // A member's first read (backfill): rows of a member never read cannot be in the mirror yet
        // (a former member's rows left with dropFormerMembers) — the bulk path.
        else if (since === null) await s.insertFresh(trx, table, rows as MirrorRows[typeof table][], uidsOf(rows, col))
        else await s.upsert(trx, table, rows as MirrorRows[typeof table][])
      })
      if (!more) break
    }
  }
}

/** The members a statement through `table`'s member index looks up at a time. */
function memberGroups(s: SyncSession, table: PairTable, uids: readonly number[]): number[][] {
  return chunks(uids, s.memberGroup(sourceOf(table)))
}

/** A page of members' rows through the source's member index, keyset (uid, id), through `connection`. */
function indexPage(
  s: SyncSession,
  connection: NexusphpConnection,
  table: PairTable,
  changed: ChangedFilter | null,
  group: readonly number[],
) {
  const col = uidColumn(table)
  const mirrorTable = table === 'owned' ? 'site_torrents' : table
  return (uid: number, id: number) => {
    const where = [`${col} IN (${intList(group)})`, `(${col} > ? OR (${col} = ? AND id > ?))`]
    const values: unknown[] = [uid, uid, id]
    if (changed) {
      where.push(changed.where)
      values.push(...changed.values)
    }
    return readMirrorRows(
      connection,
      s.schema,
      mirrorTable,
      `WHERE ${where.join(' AND ')} ORDER BY ${col}, id LIMIT ${s.tuning.pageRows}`,
      values,
    )
  }
}

/**
 * Members' rows (`changed`: those changed since the last pass; null: all, the first import) by
 * keyset on `id`, the members' index ignored. NexusPHP has no index on snatched.last_action (nor on
 * claims' dates), so a walk of the (userid) index would fetch every member row by primary key to test
 * the date — all of them, every sync — and MariaDB takes that walk for an IN list of ≥ 1,000 values
 * (`in_predicate_conversion_threshold` turns it into a join). Without it MariaDB chooses between the
 * primary-key scan (reads the table in key order: 1 M snatches in ~0.5 s against ~8.8 s for the walk)
 * and, where the table has one, the last_action index (peers: ~2 ms when few rows changed, where the
 * scan took ~0.15 s; the scan again when many did).
 *
 * Each statement covers an id window of `s.span` ids (unbounded on InnoDB, whose reads lock nothing):
 * on a MyISAM table a scan in one statement held the tracker's UPDATEs back for its whole length.
 */
async function scanStep(
  s: SyncSession,
  table: ScanTable,
  changed: ChangedFilter | null,
  uids: readonly number[],
  pass: PairPass,
): Promise<void> {
  if (!uids.length) return
  // A cursor of the (uid, id) walk (a pass begun by an older version) means nothing here: start over.
  if (pass.uid !== 0) Object.assign(pass, { uid: 0, id: 0 })
  const col = uidColumn(table)
  const { pageRows } = s.tuning
  const source = sourceOf(table)
  let read = 0
  // Ranges in id order: the cursor only moves forward, so a resumed pass starts where it stopped.
  for (const range of await scanRanges(s, table, changed)) {
    if (pass.id >= range.upTo) continue
    const page = scanPage(s, s.source, table, changed, uids)
    const window = (after: number, later: boolean) => s.timed(source, page(after, Math.min(range.upTo, after + s.span(source, later))))
    let next = window(Math.max(pass.id, range.after), false)
    // Windows' rows gather into pages of about `pageRows` (one transaction each), the cursor with them.
    let batch: MirrorRows[typeof table][] = []
    for (;;) {
      const { rows, upTo } = await next
      read += rows.length
      s.progress(table, read)
      // A full page ends at its last row; otherwise the window was read to its end.
      pass.id = rows.length === pageRows ? rows[rows.length - 1].id : upTo
      const more = pass.id < range.upTo
      if (more) {
        next = window(pass.id, true)
        next.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
      }
      for (const row of rows) batch.push(row as MirrorRows[typeof table])
      if (batch.length >= pageRows || (!more && batch.length)) {
        const pageOf = batch
        batch = []
        await s.commit(async (trx) => {
          if (changed) await s.upsert(trx, table, pageOf)
          else await s.insertFresh(trx, table, pageOf, uidsOf(pageOf, col))
        })
      }
      if (!more) break
    }
  }
}

/**
 * The id ranges a scan reads, up to the source's highest id when the sync first asked (rows added
 * past it have a last_action after the pass began: the next pass reads them): changed rows in
 * `scanParts` ranges of the mirror's ids (InnoDB), whose first pages the read-ahead starts side by side —
 * the table scan (the sync's longest source read: 1 M snatches) then takes the site's cores, not one; the
 * first import in one range. Settled once per sync, so plan and step agree.
 */
function scanRanges(s: SyncSession, table: ScanTable, changed: ChangedFilter | null): Promise<{ after: number; upTo: number }[]> {
  return s.once(`scan ranges ${table} ${changed ? 'changed' : 'all'}`, async () => {
    const end = await s.sourceMaxId(sourceOf(table))
    if (!changed) return [{ after: 0, upTo: end }]
    const max = Number((await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(s.db)).rows[0]?.m ?? 0)
    // Where reads lock the table, one range: two readers side by side would share the site's cores and
    // each hold the tracker's UPDATE back longer.
    const parts = s.engines.locking.has(sourceOf(table)) ? 1 : Math.max(1, s.tuning.scanParts)
    const bounds = Array.from({ length: parts - 1 }, (_, i) => Math.min(end, Math.floor((max * (i + 1)) / parts)))
    return [0, ...bounds].map((after, i) => ({ after, upTo: i < bounds.length ? bounds[i] : end }))
  })
}

/** A page of the keyset scan (on `id`) over members' rows in the id window (after, upTo], through `connection`. */
function scanPage(
  s: SyncSession,
  connection: NexusphpConnection,
  table: ScanTable,
  changed: ChangedFilter | null,
  uids: readonly number[],
) {
  const col = uidColumn(table)
  const members = intList(uids)
  const filter = changed ? ` AND ${changed.where}` : ''
  const ignored = s.memberIndexes[tableSpecs[table].source as keyof MemberIndexes]
  const hint = ignored.length ? `IGNORE INDEX (${ignored.map((i) => `\`${i.replace(/`/g, '``')}\``).join(', ')}) ` : ''
  return async (after: number, upTo: number) => {
    const rows = await readMirrorRows(
      connection,
      s.schema,
      table,
      `${hint}WHERE id > ? AND id <= ? AND ${col} IN (${members})${filter} ORDER BY id LIMIT ${s.tuning.pageRows}`,
      [after, upTo, ...(changed?.values ?? [])],
    )
    return { rows, upTo }
  }
}

/**
 * Starts the first page of each known-members scan a new pass will make (read-ahead.ts): the
 * changes of every table are read while the mirror writes those of the one before.
 */
export async function readAheadMemberRows(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  if (p.since === null || p.pass !== null) return
  const known = new Set(p.known)
  const uids = members.filter((uid) => known.has(uid))
  if (!uids.length) return
  for (const table of ['site_peers', 'site_snatched', 'site_claims'] as const) {
    const changed = await changedSince(s, table, p.since - s.tuning.watermarkSlackMs)
    if (!changed) continue
    if (s.engines.hashKeyed.has(sourceOf(table))) {
      void indexPage(s, s.ahead.planned, table, changed, memberGroups(s, table, uids)[0])(0, 0)
      continue
    }
    const span = s.span(sourceOf(table))
    for (const range of await scanRanges(s, table, changed)) {
      if (range.after < range.upTo)
        void scanPage(s, s.ahead.planned, table, changed, uids)(range.after, Math.min(range.upTo, range.after + span))
    }
  }
}

/**
 * Rows of site users who are no longer members concern no record: they leave the mirror. Only
 * members' rows are ever read, so after the first import only those who left since (known before,
 * members no more) can have any — looked up through the (userid) index; the first import (whatever
 * another source left) checks every row.
 */
async function dropFormerMembers(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  const memberSet = new Set(members)
  const left = [...new Set([...p.known, ...(p.pass?.members ?? [])])].filter((uid) => !memberSet.has(uid))
  if (p.since !== null && !left.length) return
  for (const [table, col] of [
    ['site_peers', 'userid'],
    ['site_snatched', 'userid'],
    ['site_claims', 'uid'],
  ] as const) {
    // (`not in ()` is not SQL: with no members at all, every row goes.)
    const former =
      p.since !== null
        ? sql`${sql.ref(col)} in (${sql.join(left.map((m) => sql.lit(m)))})`
        : members.length
          ? sql`${sql.ref(col)} not in (${sql.join(members.map((m) => sql.lit(m)))})`
          : sql`true`
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where ${former}`.execute(s.db)
    for (const ids of chunks(
      rows.map((r) => Number(r.id)),
      s.tuning.idChunk * 5,
    ))
      await s.commit((trx) => s.remove(trx, table, ids))
  }
}
